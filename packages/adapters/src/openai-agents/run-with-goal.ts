import { checkOptionKeys, invalidArgument } from '@plankit/core/internal-unstable';

/**
 * A goal's decision as {@link runWithGoal} reads it: `decideGoal` of `@plankit/controller/goal`
 * gives one.
 *
 * @public
 */
export type RunGoalDecision =
  | { readonly action: 'continue'; readonly line: string }
  | { readonly action: 'stop' | 'ask' };

/** Options of {@link runWithGoal}; `R` is what one run resolves to. @public */
export interface RunWithGoalOptions<R> {
  /** One run of the agent on `input`, such as `(input) => runner.run(agent, input, { context })`. */
  readonly run: (input: string) => Promise<R>;
  /** The goal's decision after a run: `decideGoal` on the plan, the run's usage and a verdict. */
  readonly decide: (result: R) => RunGoalDecision | Promise<RunGoalDecision>;
  /** The first input, the task as the person gave it. */
  readonly input: string;
}

/** What {@link runWithGoal} resolves to. @public */
export interface RunWithGoalResult<R> {
  /** The last run's result. */
  readonly result: R;
  /** The decision that ended the loop: `stop` or `ask`. */
  readonly decision: RunGoalDecision;
  /** How many runs were made. */
  readonly runs: number;
}

const OPTION_KEYS: ReadonlySet<string> = new Set(['run', 'decide', 'input']);

/**
 * Runs an OpenAI Agents SDK agent toward a goal: after each run (which ends when the agent
 * gives its final output), `decide` gives the goal's decision, and while it says `continue`
 * the agent runs again on the decision's `line`, the prompt line that says why it goes on.
 * Resolves with the last result once the decision stops the goal or asks the person, so the
 * goal's budget, verifier and re-plan guard bound the loop, not the agent's own sense of done.
 *
 * @example
 * ```ts
 * const { decision } = await runWithGoal({
 *   input: 'Fix the flaky tests.',
 *   run: (input) => runner.run(agent, input, { context }),
 *   decide: (result) => decideAfterRun(result), // decideGoal, dispatching the goal
 * });
 * ```
 * @throws PlankitError `argument_invalid` for an unknown option, or `run` or `decide` not a function
 * @public
 */
export async function runWithGoal<R>(
  options: RunWithGoalOptions<R>,
): Promise<RunWithGoalResult<R>> {
  checkOptionKeys('runWithGoal', options, OPTION_KEYS);
  const { run, decide } = options;
  if (typeof run !== 'function')
    throw invalidArgument('runWithGoal', 'options.run', 'must be a function');
  if (typeof decide !== 'function')
    throw invalidArgument('runWithGoal', 'options.decide', 'must be a function');
  let input = options.input;
  let runs = 0;
  for (;;) {
    const result = await run(input);
    runs++;
    const decision = await decide(result);
    if (decision.action !== 'continue') return { result, decision, runs };
    input = decision.line;
  }
}
