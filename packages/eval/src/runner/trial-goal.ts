import {
  allStepsDone,
  createGoal,
  decideGoal,
  type Goal,
  type GoalVerdict,
  type GoalVerifier,
  renderGoalLine,
} from '@plankit/controller/goal';
import { Plan, type Session, selectLatest } from '@plankit/core';
import { clipText } from '@plankit/core/internal-unstable';
import type { EvalArm, EvalTask, GoalArm } from '../config/define-eval.ts';
import { runChecker } from '../config/task-checker.ts';
import type { TranscriptEntry } from '../hosts/eval-host.ts';

/**
 * How a goal arm's goal ended in one trial: `achieved`, `unmet`, `blocked` (the re-plan guard)
 * or `budget_limited` as `decideGoal` stopped it, or `active` when the trial ended before the
 * goal did (its `maxTurns`, its own cap, a host that does not continue).
 *
 * @public
 */
export type TrialGoalStatus = 'active' | 'achieved' | 'unmet' | 'blocked' | 'budget_limited';

/** A goal arm's goal in one trial, as the results log keeps it. @public */
export interface TrialGoal {
  /** How the goal ended. */
  readonly status: TrialGoalStatus;
  /** Why it stopped, in `decideGoal`'s words; `null` while `active`. */
  readonly reason: string | null;
  /** Goal turns: answers the goal decided on. */
  readonly turns: number;
  /** Verdicts the verifier gave. */
  readonly checks: number;
}

/** The goal's part in one trial: the host's `afterAnswer`, the reminder's line, the result. */
export interface TrialGoalDriver {
  /** The host's `afterAnswer`: decides the goal, resolves to the continuation line or nothing. */
  readonly afterAnswer: (text: string, turn: number) => Promise<string | undefined>;
  /** The goal's line for the plan reminder. */
  readonly line: () => string;
  /** The goal as the trial left it. */
  readonly result: () => TrialGoal;
}

/** What the trial gives the goal. */
export interface TrialGoalContext {
  readonly arm: EvalArm;
  readonly task: EvalTask;
  readonly session: Session;
  readonly files: ReadonlyMap<string, string>;
  /** The trial's transcript so far, for the task's checker. */
  readonly transcript: readonly TranscriptEntry[];
  /** Adds a decision to the transcript. */
  readonly record: (entry: TranscriptEntry) => void;
  readonly now: () => number;
  /** Tokens and USD the trial has used so far. */
  readonly used: () => { readonly tokens: number; readonly usd: number };
}

// createGoal's limit on an objective and criteria.
const GOAL_TEXT = 2_000;

/** An object without its `undefined` values: `createGoal` takes a cap as a number or `null`. */
function defined<T extends object>(
  value: T | undefined,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value ?? {})) if (item !== undefined) out[key] = item;
  return out as { [K in keyof T]?: Exclude<T[K], undefined> };
}

/** The arm's goal options, or null for an arm without a goal. */
export function goalOf(arm: EvalArm): GoalArm | null {
  if (arm.goal === undefined || arm.goal === false) return null;
  return arm.goal === true ? {} : arm.goal;
}

/** The goal's success criteria: the task's, else an LLM judge's rubric, else none. */
function criteriaOf(task: EvalTask): string | undefined {
  if (task.criteria !== undefined) return task.criteria;
  if (typeof task.check !== 'function' && task.check.rubric.trim().length > 0)
    return clipText(task.check.rubric.trim(), GOAL_TEXT);
  return undefined;
}

/** The task's own checker as a verifier: pass is achieved, fail not yet, no verdict unknown. */
function checkVerifier(context: TrialGoalContext): GoalVerifier {
  return async ({ plan, answer }) => {
    try {
      const checked = await runChecker(
        context.task.check,
        {
          taskId: context.task.id,
          files: context.files,
          plan: plan ?? undefined,
          session: context.session,
          transcript: context.transcript,
          text: answer ?? '',
        },
        context.task.prompt,
      );
      if (checked.malformed)
        return {
          verdict: 'unknown',
          reason: 'The LLM judge gave no VERDICT: PASS or VERDICT: FAIL last line.',
        };
      return {
        verdict: checked.verdict.pass ? 'achieved' : 'not_yet',
        reason: checked.verdict.reason,
      };
    } catch (error) {
      return { verdict: 'unknown', reason: `The checker threw: ${messageOf(error)}` };
    }
  };
}

/** An arm's own verifier, whose throw is an `unknown` verdict, as the check's is. */
function ownVerifier(verify: GoalVerifier): GoalVerifier {
  return async (input) => {
    try {
      return await verify(input);
    } catch (error) {
      return { verdict: 'unknown', reason: `The verifier threw: ${messageOf(error)}` };
    }
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Sets up a goal arm's goal for one trial: the task's prompt as the objective (clipped to
 * 2,000 characters), its criteria, the arm's budget and guard, and the verifier. After each
 * answer it asks the verifier, counts the answer's tokens, USD and time, and steps
 * `decideGoal`; every decision is added to the transcript as a `goal` entry.
 *
 * A verifier that throws gives an `unknown` verdict (the goal goes on, never achieved); one
 * that resolves to what is not a verdict makes `decideGoal` refuse it, and the trial errors
 * with that refusal, which names the field.
 *
 * @throws ControllerError `argument_invalid` when the goal cannot hold the task's prompt (a
 *   prompt of blanks only, say); the trial errors with it
 */
export function startTrialGoal(options: GoalArm, context: TrialGoalContext): TrialGoalDriver {
  const criteria = criteriaOf(context.task);
  let goal: Goal = createGoal({
    objective: clipText(context.task.prompt.trim(), GOAL_TEXT),
    ...(criteria === undefined ? {} : { criteria }),
    budget: defined(options.budget),
    guard: defined(options.guard),
    now: context.now(),
  });
  const chosen = options.verifier ?? 'check';
  const verifier: GoalVerifier =
    chosen === 'check'
      ? checkVerifier(context)
      : chosen === 'all_steps_done'
        ? allStepsDone()
        : ownVerifier(chosen);
  let last = { ...context.used(), at: goal.updatedAt };

  const afterAnswer = async (text: string, turn: number): Promise<string | undefined> => {
    if (goal.status !== 'active') return undefined;
    const plan = selectLatest(context.session, Plan) ?? null;
    const verdict: GoalVerdict = await verifier({ goal, plan, answer: text });
    const used = context.used();
    const at = Math.max(context.now(), goal.updatedAt);
    const step = decideGoal(goal, {
      plan,
      usage: {
        tokens: Math.max(0, used.tokens - last.tokens),
        costUsd: Math.max(0, Math.round((used.usd - last.usd) * 1e6) / 1e6),
        elapsedMs: Math.max(0, at - last.at),
      },
      verdict,
      now: at,
    });
    if (!step.ok) throw step.error;
    last = { ...used, at };
    goal = step.value.goal;
    const { decision } = step.value;
    const line = decision.action === 'continue' ? decision.line : decision.reason;
    context.record({
      kind: 'goal',
      turn,
      status: decision.action === 'continue' ? 'active' : decision.status,
      text: line,
    });
    return decision.action === 'continue' ? line : undefined;
  };

  return {
    afterAnswer,
    line: () => renderGoalLine(goal),
    result: () => ({
      status: goal.status === 'active' ? 'active' : (goal.status as TrialGoalStatus),
      reason: goal.reason,
      turns: goal.counters.turns,
      checks: goal.counters.checks,
    }),
  };
}
