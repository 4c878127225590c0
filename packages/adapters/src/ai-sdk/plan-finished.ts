import { Plan, selectLatest } from '@plankit/core';
import { checkOptionKeys } from '@plankit/core/internal-unstable';
import { resolveSession, type SessionSource } from '../sessions/resolve-session.ts';
import type { SessionResolveError } from '../sessions/session-resolve-error.ts';
import { type AISDKContext, stepContext } from './ai-sdk-context.ts';

/** Options of {@link planFinished}; `C` is the app's context type. @public */
export interface PlanFinishedOptions<C = unknown> {
  /**
   * The session whose plan decides: one `Session`, or a resolver called with the app's
   * context of the last step (`experimental_context` in `ai` 6, `runtimeContext` in `ai` 7).
   */
  readonly session: SessionSource<AISDKContext<C>>;
  /** Told when the session cannot be resolved; the loop then does not stop on this condition. */
  readonly onError?: ((error: SessionResolveError) => void) | undefined;
}

const OPTION_KEYS: ReadonlySet<string> = new Set(['session', 'onError']);

/** What {@link planFinished}'s condition reads from each step, in `ai` 6 and 7. @public */
export interface PlanFinishedStep {
  /** The app's context in `ai` 6. */
  readonly experimental_context?: unknown;
  /** The app's context in `ai` 7. */
  readonly runtimeContext?: unknown;
  /** `ai` 7's per-tool contexts: read when no runtime context names the conversation. */
  readonly toolsContext?: unknown;
}

/**
 * A `stopWhen` condition for `generateText` / `streamText` (`ai` 6 and 7): true once the
 * session's plan is finished (status `completed`: every step done), so the loop ends after
 * the step that finished it. False while there is no plan, it has open steps, or it was
 * abandoned, and when the session cannot be resolved. Combine it with a step limit:
 * `stopWhen: [planFinished({ session }), stepCountIs(20)]`.
 *
 * @example
 * ```ts
 * const result = await generateText({ model, prompt, tools, stopWhen: [planFinished({ session }), stepCountIs(20)] });
 * ```
 * @returns the stop condition
 * @throws PlankitError `argument_invalid` for an option it does not take
 * @public
 */
export function planFinished<C = unknown>(
  options: PlanFinishedOptions<C>,
): (options: { readonly steps: readonly PlanFinishedStep[] }) => Promise<boolean> {
  checkOptionKeys('planFinished', options, OPTION_KEYS);
  const { session: source, onError } = options;
  return async ({ steps }) => {
    const resolved = await resolveSession(source, stepContext<C>(steps.at(-1)));
    if (!resolved.ok) {
      onError?.(resolved.error);
      return false;
    }
    return selectLatest(resolved.value, Plan)?.status === 'completed';
  };
}
