import { Plan, selectLatest } from '@plankit/core';
import { checkOptionKeys, invalidArgument } from '@plankit/core/internal-unstable';
import type { ModelMessage } from 'ai';
import { resolveSession, type SessionSource } from '../sessions/resolve-session.ts';
import type { SessionResolveError } from '../sessions/session-resolve-error.ts';
import { type AISDKContext, stepContext } from './ai-sdk-context.ts';
import { plankitToolOf } from './plankit-tool-of.ts';

/** Options of {@link planReminderStep}; `C` is the app's context type. @public */
export interface PlanReminderStepOptions<C = unknown> {
  /**
   * The session whose plan is shown: one `Session`, or a resolver called each step with the
   * app's context (`experimental_context` in `ai` 6, `runtimeContext` in `ai` 7).
   */
  readonly session: SessionSource<AISDKContext<C>>;
  /**
   * Renders the reminder from the plan, or `undefined` for none: `renderPlanReminder` of
   * `@plankit/prompt`, or your own.
   */
  readonly render: (plan: Plan | undefined) => string | undefined;
  /**
   * Narrows the step's `activeTools` by the plan. Either the record of tools you pass the SDK
   * as `tools`, narrowed by each plankit tool's `plan` trait: with no plan (or an abandoned
   * one) the only planning tools offered are the ones that can start a plan (`plan: 'start'`:
   * `planning_setup_plan`, `planning_apply_batch`); with a finished plan the tools that work on
   * open steps (`plan: 'edit'`: add, mark, update, claim, release) are left out; tools that
   * are not planning tools (no `plan` trait, or not built by `toAISDKTools`) are always
   * offered. Or a function of the plan giving the active tools (`undefined`: all). Absent:
   * `activeTools` is left alone.
   */
  readonly activeTools?:
    | Readonly<Record<string, unknown>>
    | ((plan: Plan | undefined) => readonly string[] | undefined)
    | undefined;
  /** Told when the session of a step cannot be resolved; that step gets no reminder. */
  readonly onError?: ((error: SessionResolveError) => void) | undefined;
}

/** What {@link planReminderStep}'s function reads from `prepareStep`'s options, in `ai` 6 and 7. @public */
export interface PlanReminderStepInput {
  /** The messages of the step. */
  readonly messages: ModelMessage[];
  /** The app's context in `ai` 6. */
  readonly experimental_context?: unknown;
  /** The app's context in `ai` 7. */
  readonly runtimeContext?: unknown;
  /** `ai` 7's per-tool contexts: read when no runtime context names the conversation. */
  readonly toolsContext?: unknown;
}

/** What {@link planReminderStep}'s function returns to `prepareStep`. @public */
export interface PlanReminderStepResult {
  /** The step's messages with the reminder last, when they changed. */
  messages?: ModelMessage[];
  /** The tools offered in this step, when narrowed. */
  activeTools?: string[];
}

// The reminders this module made: `ai` 7 carries a `prepareStep` messages override into the
// next step, so the previous reminder is taken out before the fresh one goes last.
const reminders = new WeakSet<object>();

const OPTION_KEYS: ReadonlySet<string> = new Set(['session', 'render', 'activeTools', 'onError']);

/** The names of `tools` offered with `plan`, by each tool's `plan` trait. */
function narrowed(plan: Plan | undefined, tools: Readonly<Record<string, unknown>>): string[] {
  const names: string[] = [];
  for (const [name, aiTool] of Object.entries(tools)) {
    const role = plankitToolOf(aiTool)?.traits?.plan;
    // No plan yet (or an abandoned one): of the planning tools, only those that can start one.
    if (plan === undefined || plan.status === 'abandoned') {
      if (role === undefined || role === 'start') names.push(name);
      // A finished plan refuses, or has no use for, the tools that work on open steps.
    } else if (plan.status !== 'completed' || role !== 'edit') names.push(name);
  }
  return names;
}

/**
 * A `prepareStep` function for `generateText` / `streamText` (`ai` 6 and 7) that puts the
 * plan reminder LAST in each step's messages, as a user message, so the cached prefix of the
 * prompt (system prompt and history) never changes with the plan. The previous step's
 * reminder is taken out first, so there is only ever one. With `activeTools` it also narrows
 * the tools offered by the plan's state.
 *
 * To combine it with your own `prepareStep`, call it from there and merge the results.
 *
 * @example
 * ```ts
 * const result = await generateText({
 *   model, prompt, tools, experimental_context: { chatId },
 *   prepareStep: planReminderStep({ session, render: renderPlanReminder, activeTools: tools }),
 * });
 * ```
 * @returns the `prepareStep` function
 * @throws PlankitError `argument_invalid` for an option it does not take, or `activeTools`
 *   given as a list of names (names do not say which tools are planning tools)
 * @public
 */
export function planReminderStep<C = unknown>(
  options: PlanReminderStepOptions<C>,
): (step: PlanReminderStepInput) => Promise<PlanReminderStepResult> {
  checkOptionKeys('planReminderStep', options, OPTION_KEYS);
  if (Array.isArray(options.activeTools))
    throw invalidArgument(
      'planReminderStep',
      'options.activeTools',
      'must be the record of tools given to the SDK, or a function of the plan; a list of names does not say which tools are planning tools',
    );
  const { session: source, render, activeTools, onError } = options;
  return async (step) => {
    const kept = step.messages.filter((message) => !reminders.has(message));
    const result: PlanReminderStepResult = {};
    if (kept.length !== step.messages.length) result.messages = kept;
    const resolved = await resolveSession(source, stepContext<C>(step));
    if (!resolved.ok) {
      onError?.(resolved.error);
      return result;
    }
    const plan = selectLatest(resolved.value, Plan);
    const text = render(plan);
    if (text !== undefined) {
      const reminder: ModelMessage = { role: 'user', content: text };
      reminders.add(reminder);
      result.messages = [...kept, reminder];
    }
    if (typeof activeTools === 'function') {
      const names = activeTools(plan);
      if (names !== undefined) result.activeTools = [...names];
    } else if (activeTools !== undefined) {
      result.activeTools = narrowed(plan, activeTools);
    }
    return result;
  };
}
