import type { PriceTable } from '@plankit/controller';
import type { AnyTool, InProgressMode, Session } from '@plankit/core';
import { PLANNING_STRATEGIES, type PlanningStrategy } from '@plankit/prompt';
import type { EvalHost } from '../hosts/eval-host.ts';
import { PlankitEvalError } from '../plankit-eval-error.ts';
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
}

/** One variant to compare: a model and a planning set-up. @public */
export interface EvalArm {
  /** A short unique id, `[a-z0-9_-]{1,64}`. */
  readonly id: string;
  /** A label for the report; the id by default. */
  readonly label?: string | undefined;
  /** The model and the host SDK that drives it. */
  readonly host: EvalHost;
  /** `false`: no planning tools and no planning section. Otherwise how the arm plans. */
  readonly planning: false | PlanningArm;
  /** Text put before the planning section in the system prompt. */
  readonly system?: string | undefined;
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
  /** A name for the report. */
  readonly name?: string | undefined;
  /** The variants to compare, 1-26. */
  readonly arms: readonly EvalArm[];
  /** The tasks, 1-1000. */
  readonly tasks: readonly EvalTask[];
  /** Trials per task and arm (k), 1-10,000. */
  readonly repetitions: number;
  /** Seeds the trial order and each trial's seed; a 32-bit unsigned integer. */
  readonly seed: number;
  /** Trials run at once, 1-64; 1 by default. */
  readonly concurrency?: number | undefined;
  /** Model calls per trial at most, 1-1000; 20 by default. */
  readonly maxTurns?: number | undefined;
  /** Output tokens per model call at most; 4096 by default. Bounds the budget's estimates. */
  readonly maxOutputTokens?: number | undefined;
  /** Spending caps. */
  readonly budget?: EvalBudget | undefined;
  /** USD per million tokens by model id; needed for USD figures and USD caps. */
  readonly prices?: PriceTable | undefined;
}

const ID = /^[a-z0-9_-]{1,64}$/;

function invalid(field: string, rule: string): PlankitEvalError {
  return new PlankitEvalError('config_invalid', `defineEval: ${field} ${rule}.`, { field });
}

function wholeIn(value: unknown, field: string, low: number, high: number): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < low || value > high)
    throw invalid(field, `must be a whole number from ${low} to ${high}, got ${show(value)}`);
}

function amount(value: unknown, field: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw invalid(field, `must be a finite number >= 0, got ${show(value)}`);
}

function show(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === 'number') return String(value);
  return value === null ? 'null' : typeof value;
}

/**
 * Checks an eval config and returns it frozen. Use it as the default export of
 * `eval.config.ts`, which `plankit-eval run` loads.
 *
 * @throws PlankitEvalError `config_invalid` naming the field and the rule
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
  if (typeof config !== 'object' || config === null) throw invalid('config', 'must be an object');
  if (!Array.isArray(config.arms) || config.arms.length < 1 || config.arms.length > 26)
    throw invalid('arms', 'must be an array of 1 to 26 arms');
  const armIds = new Set<string>();
  config.arms.forEach((arm, index) => {
    const field = `arms[${index}]`;
    if (typeof arm !== 'object' || arm === null) throw invalid(field, 'must be an object');
    if (typeof arm.id !== 'string' || !ID.test(arm.id))
      throw invalid(`${field}.id`, `must match [a-z0-9_-]{1,64}, got ${show(arm.id)}`);
    if (armIds.has(arm.id)) throw invalid(`${field}.id`, `repeats the id ${show(arm.id)}`);
    armIds.add(arm.id);
    const host = arm.host as Partial<EvalHost> | undefined;
    if (typeof host?.runTrial !== 'function' || typeof host.modelId !== 'string')
      throw invalid(`${field}.host`, 'must be a host (aiSdkHost, openAIChatHost, anthropicHost)');
    if (arm.planning === false) return;
    if (typeof arm.planning !== 'object' || arm.planning === null)
      throw invalid(`${field}.planning`, 'must be false or an object');
    const { strategy, reminder, inProgress } = arm.planning;
    if (strategy !== undefined && !PLANNING_STRATEGIES.includes(strategy))
      throw invalid(
        `${field}.planning.strategy`,
        `must be one of ${PLANNING_STRATEGIES.join(', ')}, got ${show(strategy)}`,
      );
    if (reminder !== undefined && !REMINDER_CADENCES.includes(reminder))
      throw invalid(
        `${field}.planning.reminder`,
        `must be one of ${REMINDER_CADENCES.join(', ')}, got ${show(reminder)}`,
      );
    if (inProgress !== undefined && inProgress !== 'single' && inProgress !== 'any')
      throw invalid(
        `${field}.planning.inProgress`,
        `must be single or any, got ${show(inProgress)}`,
      );
  });
  if (!Array.isArray(config.tasks) || config.tasks.length < 1 || config.tasks.length > 1000)
    throw invalid('tasks', 'must be an array of 1 to 1000 tasks');
  const taskIds = new Set<string>();
  config.tasks.forEach((task, index) => {
    const field = `tasks[${index}]`;
    if (typeof task !== 'object' || task === null) throw invalid(field, 'must be an object');
    if (typeof task.id !== 'string' || !ID.test(task.id))
      throw invalid(`${field}.id`, `must match [a-z0-9_-]{1,64}, got ${show(task.id)}`);
    if (taskIds.has(task.id)) throw invalid(`${field}.id`, `repeats the id ${show(task.id)}`);
    taskIds.add(task.id);
    if (typeof task.prompt !== 'string' || task.prompt.length === 0)
      throw invalid(`${field}.prompt`, 'must be a non-empty string');
    const checker = task.check as unknown;
    const isJudge =
      typeof checker === 'object' &&
      checker !== null &&
      (checker as { kind?: unknown }).kind === 'llm_judge';
    if (typeof checker !== 'function' && !isJudge)
      throw invalid(`${field}.check`, 'must be a function or llmJudge(...)');
    if (task.fixtures !== undefined) {
      if (typeof task.fixtures !== 'object' || task.fixtures === null)
        throw invalid(`${field}.fixtures`, 'must be an object of path to text');
      for (const [path, text] of Object.entries(task.fixtures))
        if (typeof text !== 'string')
          throw invalid(`${field}.fixtures[${show(path)}]`, 'must be a string');
    }
    if (task.tools !== undefined && typeof task.tools !== 'function')
      throw invalid(`${field}.tools`, 'must be a function returning tools');
  });
  wholeIn(config.repetitions, 'repetitions', 1, 10_000);
  wholeIn(config.seed, 'seed', 0, 0xffffffff);
  if (config.concurrency !== undefined) wholeIn(config.concurrency, 'concurrency', 1, 64);
  if (config.maxTurns !== undefined) wholeIn(config.maxTurns, 'maxTurns', 1, 1000);
  if (config.maxOutputTokens !== undefined)
    wholeIn(config.maxOutputTokens, 'maxOutputTokens', 1, 1_000_000);
  const budget = config.budget ?? {};
  amount(budget.totalUsd, 'budget.totalUsd');
  amount(budget.perTrialUsd, 'budget.perTrialUsd');
  amount(budget.totalTokens, 'budget.totalTokens');
  amount(budget.perTrialTokens, 'budget.perTrialTokens');
  if (budget.totalUsd !== undefined || budget.perTrialUsd !== undefined) {
    for (const [index, arm] of config.arms.entries()) {
      if (config.prices === undefined || !Object.hasOwn(config.prices, arm.host.modelId))
        throw invalid(
          `arms[${index}].host.modelId`,
          `has no price in prices (${show(arm.host.modelId)}); a USD cap needs a price for every model`,
        );
    }
  }
  return Object.freeze({ ...config });
}
