import type { CallGuard, CallUsage, ModelCallResult } from './eval-host.ts';

/** A usage no call reports, for a call whose usage mapping threw: counted at its worst case. */
const UNKNOWN_USAGE: CallUsage = {
  inputTokens: Number.NaN,
  outputTokens: Number.NaN,
  cachedInputTokens: Number.NaN,
};

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
  let used: CallUsage;
  try {
    used = usage(value);
  } catch (error) {
    // The call was made but its usage is unknown: the guard counts it at its worst case.
    try {
      guard.settle(held.id, UNKNOWN_USAGE);
    } catch {
      // The guard refuses an unknown usage; the mapping's own error is the one to report.
    }
    throw error;
  }
  guard.settle(held.id, used);
  return { ok: true, value };
}
