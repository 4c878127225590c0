import type { PriceTable } from '@plankit/controller/budget';
import type { GoalVerifier } from '@plankit/controller/goal';
import type { AnyTool, InProgressMode, Session, TextMode } from '@plankit/core';
import type { PlanningStrategy } from '@plankit/prompt';
import type { EvalHost } from '../hosts/eval-host.ts';
import { checkEvalConfig } from './eval-config-schema.ts';
import type { TaskChecker } from './task-checker.ts';

/**
 * When an arm reminds the model of its plan: before every turn after the first, only when the
 * plan changed since the last reminder, or never.
 *
 * @public
 */
export type ReminderCadence = 'every_turn' | 'on_change' | 'never';

/** The reminder cadences. @public */
export const REMINDER_CADENCES: readonly ReminderCadence[] = Object.freeze([
  'every_turn',
  'on_change',
  'never',
]);

/** How an arm plans. @public */
export interface PlanningArm {
  /** The planning section's strategy; `react` by default. */
  readonly strategy?: PlanningStrategy | undefined;
  /** When to remind the model of its plan; `on_change` by default. */
  readonly reminder?: ReminderCadence | undefined;
  /** How many steps may be in progress at once; `single` by default. */
  readonly inProgress?: InProgressMode | undefined;
  /**
   * Which plan text the tools accept and the copy asks for: `ascii` (the default, the
   * reference) or `unicode` (any language), as `PlanningToolsSection` takes it.
   */
  readonly text?: TextMode | undefined;
}

/**
 * A goal arm's budget: each cap a number, or `null` for none. A cap left out takes
 * `createGoal`'s default (100 turns, 2 USD, no token or time cap). The goal is decided after
 * each answer of the model, so the answer that reaches a cap ends; no goal turn starts after it.
 *
 * @public
 */
export interface GoalArmBudget {
  /** Tokens over the whole goal (input plus output, every model call of the trial). */
  readonly tokens?: number | null | undefined;
  /** USD over the whole goal, at the config's prices (a number needs a price for the model). */
  readonly costUsd?: number | null | undefined;
  /** Goal turns: answers the goal decides on (each may take several model calls). */
  readonly turns?: number | null | undefined;
  /** Milliseconds of the trial's clock over the whole goal. */
  readonly wallTimeMs?: number | null | undefined;
}

/**
 * What judges a goal arm's goal after each answer: `check`, the task's own checker (its
 * function or LLM judge, the one that grades the trial: a pass is `achieved`, a fail `not_yet`,
 * a judge reply without a verdict or a checker that throws `unknown`); `all_steps_done`, every
 * step of the plan done (`allStepsDone` of `@plankit/controller/goal`); or a `GoalVerifier` of
 * your own.
 *
 * @public
 */
export type GoalArmVerifier = 'check' | 'all_steps_done' | GoalVerifier;

/** How a goal arm gives its agent a goal. @public */
export interface GoalArm {
  /** What judges the goal after each answer; `check` (the task's own checker) by default. */
  readonly verifier?: GoalArmVerifier | undefined;
  /** The goal's caps over `createGoal`'s defaults. */
  readonly budget?: GoalArmBudget | undefined;
  /**
   * The re-plan guard's thresholds over the defaults: `churnTurns` (4) goal turns that change
   * the plan with no step done, or `repeats` (2) removed steps that come back, stop the goal as
   * `blocked`.
   */
  readonly guard?:
    | { readonly churnTurns?: number | undefined; readonly repeats?: number | undefined }
    | undefined;
}

/** One variant to compare: a model and a planning set-up. @public */
export interface EvalArm {
  /** A short unique id, `[a-z0-9_-]{1,64}`. */
  readonly id: string;
  /** A label for the report, 1-200 characters; the id by default. */
  readonly label?: string | undefined;
  /** The model and the host SDK that drives it. */
  readonly host: EvalHost;
  /** `false`: no planning tools and no planning section. Otherwise how the arm plans. */
  readonly planning: false | PlanningArm;
  /** Text put before the planning section in the system prompt. */
  readonly system?: string | undefined;
  /**
   * Gives the agent a goal, as Codex's and Claude Code's `/goal` do: the task's prompt becomes
   * the goal's objective (its `criteria`, if any, the goal's criteria), and after each answer
   * `decideGoal` of `@plankit/controller/goal` decides: continue (its prompt line is sent as the
   * next user message), or stop as achieved, unmet, blocked (the re-plan guard) or
   * budget_limited. `true` takes the defaults; `false` or no key: no goal.
   */
  readonly goal?: boolean | GoalArm | undefined;
}

/** What a task's `tools` factory gets. @public */
export interface TaskToolContext {
  /** The trial's session. */
  readonly session: Session;
  /** The trial's workspace files; tools may read and change them. */
  readonly files: Map<string, string>;
}

/** One task of the user's own. @public */
export interface EvalTask {
  /** A short unique id, `[a-z0-9_-]{1,64}`. */
  readonly id: string;
  /** The prompt, sent as the first user message. */
  readonly prompt: string;
  /** Files the workspace starts with (path to text); each trial gets its own copy. */
  readonly fixtures?: Readonly<Record<string, string>> | undefined;
  /** Extra tools for this task, built per trial. */
  readonly tools?: ((context: TaskToolContext) => readonly AnyTool[]) | undefined;
  /** Decides whether the trial did the task. */
  readonly check: TaskChecker;
  /**
   * How to tell the task is done, in words, 1-2,000 characters: a goal arm's success
   * criteria (without it, an `llmJudge` checker's rubric, else none).
   */
  readonly criteria?: string | undefined;
}

/** Caps of a run; `undefined` means no cap. @public */
export interface EvalBudget {
  /** The most the whole run may spend, in USD (needs `prices` for every arm's model). */
  readonly totalUsd?: number | undefined;
  /** The most tokens the whole run may use. */
  readonly totalTokens?: number | undefined;
  /** The most one trial may spend, in USD. */
  readonly perTrialUsd?: number | undefined;
  /** The most tokens one trial may use. */
  readonly perTrialTokens?: number | undefined;
}

/** An eval: arms, tasks and how to run them. @public */
export interface EvalConfig {
  /** A name for the report, 1-200 characters. */
  readonly name?: string | undefined;
  /** The variants to compare, 1-26. */
  readonly arms: readonly EvalArm[];
  /** The tasks, 1-1000. */
  readonly tasks: readonly EvalTask[];
  /**
   * Trials per task and arm (k), 1-10,000. Arms × tasks × repetitions is at most
   * {@link MAX_TRIALS} (100,000).
   */
  readonly repetitions: number;
  /** Seeds the trial order and each trial's seed; a 32-bit unsigned integer. */
  readonly seed: number;
  /** Trials run at once, 1-64; 1 by default. */
  readonly concurrency?: number | undefined;
  /** Model calls per trial at most, 1-1000; 20 by default. */
  readonly maxTurns?: number | undefined;
  /** Output tokens per model call at most; 4096 by default. Bounds the budget's estimates. */
  readonly maxOutputTokens?: number | undefined;
  /**
   * How long one trial may take, its checker included, in ms: 1 to 2,147,483,647; 600,000 (10
   * minutes) by default. A trial past it is aborted and logged `errored`, with the limit as its
   * reason, even when its host ignores the abort signal, so a hung host or judge cannot keep
   * `runEval` waiting.
   */
  readonly trialTimeoutMs?: number | undefined;
  /** Spending caps. */
  readonly budget?: EvalBudget | undefined;
  /** USD per million tokens by model id; needed for USD figures and USD caps. */
  readonly prices?: PriceTable | undefined;
}

/**
 * Checks an eval config and returns it frozen. Use it as the default export of
 * `eval.config.ts`, which `plankit-eval run` loads. `runEval` and the CLI check a plain object
 * against the same schema, before anything runs.
 *
 * @throws PlankitEvalError `config_invalid` naming every field at fault and its rule
 * @example
 * ```ts
 * export default defineEval({
 *   arms: [
 *     { id: 'none', host, planning: false },
 *     { id: 'react', host, planning: { strategy: 'react', reminder: 'on_change' } },
 *   ],
 *   tasks: exampleTasks,
 *   repetitions: 20,
 *   seed: 7,
 * });
 * ```
 * @public
 */
export function defineEval(config: EvalConfig): EvalConfig {
  return checkEvalConfig(config);
}
