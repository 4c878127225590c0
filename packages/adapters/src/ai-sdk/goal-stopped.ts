import { checkOptionKeys, isRecord } from '@plankit/core/internal-unstable';
import { resolveSession, type SessionSource } from '../sessions/resolve-session.ts';
import type { SessionResolveError } from '../sessions/session-resolve-error.ts';
import { type AISDKContext, stepContext } from './ai-sdk-context.ts';
import type { PlanFinishedStep } from './plan-finished.ts';

/** Options of {@link goalStopped}; `C` is the app's context type. @public */
export interface GoalStoppedOptions<C = unknown> {
  /**
   * The session whose goal decides: one `Session`, or a resolver called with the app's context
   * of the last step (`experimental_context` in `ai` 6, `runtimeContext` in `ai` 7).
   */
  readonly session: SessionSource<AISDKContext<C>>;
  /** Told when the session cannot be resolved; the loop then stops, as no goal says go on. */
  readonly onError?: ((error: SessionResolveError) => void) | undefined;
}

const OPTION_KEYS: ReadonlySet<string> = new Set(['session', 'onError']);

// The goal slice of `@plankit/controller/goal` (`GoalState`), read by its stable name: the adapters
// do not depend on the controller, and a goal's status is all this condition needs.
const GOAL_SLICE = 'plankit.controller.Goal';

/** The status of the latest goal in `slices`, or `undefined` when there is none. */
export function goalStatusOf(
  slices: Readonly<Record<string, readonly unknown[]>>,
): string | undefined {
  const goal = slices[GOAL_SLICE]?.at(-1);
  return isRecord(goal) && typeof goal['status'] === 'string' ? goal['status'] : undefined;
}

/**
 * A `stopWhen` condition for `generateText` / `streamText` (`ai` 6 and 7) that keeps the loop
 * going while the session's goal (from `@plankit/controller/goal`) is `active`, and stops it once
 * the goal's decision stopped it (`achieved`, `unmet`, `budget_limited`), asked the person
 * (`blocked`), or the goal was paused or cleared. Run `decideGoal` in `onStepFinish` and
 * dispatch its goal, so each step's decision is in the session before this condition reads it.
 * A session with no goal, or one that cannot be resolved, stops the loop: nothing says go on.
 * Combine it with a step limit: `stopWhen: [goalStopped({ session }), stepCountIs(50)]`.
 *
 * @example
 * ```ts
 * const result = await generateText({
 *   model, prompt, tools,
 *   onStepFinish: async (step) => { await decideAfterStep(step); },
 *   stopWhen: [goalStopped({ session }), stepCountIs(50)],
 * });
 * ```
 * @returns the stop condition
 * @throws PlankitError `argument_invalid` for an option it does not take
 * @public
 */
export function goalStopped<C = unknown>(
  options: GoalStoppedOptions<C>,
): (options: { readonly steps: readonly PlanFinishedStep[] }) => Promise<boolean> {
  checkOptionKeys('goalStopped', options, OPTION_KEYS);
  const { session: source, onError } = options;
  return async ({ steps }) => {
    const resolved = await resolveSession(source, stepContext<C>(steps.at(-1)));
    if (!resolved.ok) {
      onError?.(resolved.error);
      return true;
    }
    return goalStatusOf(resolved.value.snapshot().slices) !== 'active';
  };
}
