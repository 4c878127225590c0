import type { CallGuard, CallUsage, ModelCallResult } from './eval-host.ts';

/**
 * One model call through the budget guard: reserve the worst case of `sent`, make the call, and
 * settle its real usage; a call that throws is settled at zero (providers do not bill a request
 * that errored) and, when the trial was aborted, ends it as `aborted` rather than throwing.
 */
export async function callThroughGuard<T>(
  guard: CallGuard,
  signal: AbortSignal,
  sent: unknown,
  call: () => PromiseLike<T>,
  usage: (result: T) => CallUsage,
): Promise<ModelCallResult<T>> {
  const held = guard.reserve(sent);
  if (!held.ok) return { ok: false, stop: held.stop, called: false };
  let value: T;
  try {
    value = await call();
  } catch (error) {
    guard.settle(held.id, { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 });
    if (signal.aborted) return { ok: false, stop: 'aborted', called: true };
    throw error;
  }
  let used: CallUsage | undefined;
  try {
    used = usage(value);
  } finally {
    // A usage that throws is none: the guard counts the call at its worst case, and refuses it.
    guard.settle(held.id, used as CallUsage);
  }
  return { ok: true, value };
}
