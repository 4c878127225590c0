/** What {@link withinTime} gives when the time limit passed first. */
export const TIMED_OUT: unique symbol = Symbol('timed out');

/**
 * What `promise` settles with, or {@link TIMED_OUT} once `timeoutMs` pass first. The timer is
 * cleared when the promise settles, so a finished wait keeps no process alive.
 */
export function withinTime<T>(
  promise: Promise<T>,
  timeoutMs: number,
): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}
