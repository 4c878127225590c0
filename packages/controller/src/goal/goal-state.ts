import { defineDataType } from '@plankit/core';
import * as z from 'zod';
import { ControllerSnapshot } from '../engine/controller-snapshot.ts';
import type { MachineSnapshot } from '../engine/machine-snapshot.ts';
import { storedCount, storedTime, storedUsd } from '../internal/stored-numbers.ts';
import type { GoalOutcome, GoalStage } from './goal-machine.ts';

/** The statuses of a goal, in the words of the hosts that popularised it. @public */
export const GOAL_STATUSES: readonly [
  'active',
  'paused',
  'blocked',
  'budget_limited',
  'achieved',
  'unmet',
  'cleared',
] = ['active', 'paused', 'blocked', 'budget_limited', 'achieved', 'unmet', 'cleared'];

/** Where a goal stands. @public */
export type GoalStatus = (typeof GOAL_STATUSES)[number];

/** The most characters of a goal's objective, criteria, reason or question. */
export const GOAL_TEXT_LIMIT = 2_000;

/** A goal's budget: each `null` (no cap) or a limit the goal never continues past. @public */
export interface GoalBudget {
  /** Tokens over the whole goal. */
  readonly tokens: number | null;
  /** USD over the whole goal (whole micro-dollars). */
  readonly costUsd: number | null;
  /** Turns (decisions) over the whole goal. */
  readonly turns: number | null;
  /** Milliseconds of work reported over the whole goal. */
  readonly wallTimeMs: number | null;
}

/** What a goal has used, across pauses and questions. @public */
export interface GoalCounters {
  /** Turns decided. */
  readonly turns: number;
  /** Tokens reported. */
  readonly tokens: number;
  /** USD reported. */
  readonly costUsd: number;
  /** Milliseconds of work reported. */
  readonly elapsedMs: number;
  /** Verdicts given. */
  readonly checks: number;
}

/** What a verifier says of a goal. @public */
export type GoalVerdictKind = 'achieved' | 'not_yet' | 'unmet' | 'unknown';

/** A verdict as the goal keeps it. @public */
export interface GoalVerdictRecord {
  /** The verdict. */
  readonly verdict: GoalVerdictKind;
  /** Why, in the verifier's words (at most 2,000 characters). */
  readonly reason: string;
  /** When, in epoch milliseconds. */
  readonly at: number;
}

/** The re-plan guard's thresholds. @public */
export interface ReplanGuardOptions {
  /** Turns that change the plan with no step done before the guard trips (default 4). */
  readonly churnTurns: number;
  /** Steps that come back after being removed, with no step done, before it trips (default 2). */
  readonly repeats: number;
}

/** What the re-plan guard remembers between turns. @public */
export interface ReplanGuardState {
  /** The thresholds. */
  readonly options: ReplanGuardOptions;
  /** Steps done in the plan at the last turn. */
  readonly done: number;
  /** The plan's objective and step titles at the last turn, normalised; `null` before the first. */
  readonly objective: string | null;
  /** The step titles at the last turn, normalised. */
  readonly titles: readonly string[];
  /** Turns that changed the plan since a step was last done. */
  readonly churn: number;
  /** Titles removed since a step was last done (at most 64, newest last). */
  readonly removed: readonly string[];
  /** Removed titles that came back since a step was last done. */
  readonly returned: number;
}

/**
 * A goal: an objective the agent keeps working toward, bounded by a budget, judged by a
 * verifier and stopped by the re-plan guard. Deeply frozen plain JSON.
 *
 * @public
 */
export interface Goal {
  /** Always `plankit.goal`. */
  readonly format: 'plankit.goal';
  /** The format version, 1. */
  readonly version: 1;
  /** What the agent works toward. */
  readonly objective: string;
  /** How to tell it is met, or `null`. */
  readonly criteria: string | null;
  /** Where the goal stands. */
  readonly status: GoalStatus;
  /** The caps. */
  readonly budget: GoalBudget;
  /** What the goal used. */
  readonly counters: GoalCounters;
  /** The last verdict, or `null`. */
  readonly verdict: GoalVerdictRecord | null;
  /** Why the goal stopped, paused or asks, or `null` while it is active. */
  readonly reason: string | null;
  /** What to ask the person when blocked, or `null`. */
  readonly question: string | null;
  /** The re-plan guard. */
  readonly guard: ReplanGuardState;
  /** The decision machine's snapshot, with the trace of every decision. */
  readonly machine: MachineSnapshot<GoalStage, GoalOutcome>;
  /** When it was set, in epoch milliseconds. */
  readonly setAt: number;
  /** When it last changed, in epoch milliseconds. */
  readonly updatedAt: number;
}

/** A count a goal stores: a safe integer from 0. */
export const goalCount: z.ZodNumber = storedCount;
const count = goalCount;
const time = storedTime;
/** A USD amount a goal stores: whole micro-dollars, from 0. */
export const goalUsd: z.ZodNumber = storedUsd;
const usd = goalUsd;
/** A text a goal stores: 1-2,000 characters. */
export const goalText: z.ZodString = z.string().min(1).max(GOAL_TEXT_LIMIT);
const text = goalText;
const title = z.string().max(GOAL_TEXT_LIMIT);

const schema = z.strictObject({
  format: z.literal('plankit.goal'),
  version: z.literal(1),
  objective: text,
  criteria: text.nullable(),
  status: z.enum(GOAL_STATUSES),
  budget: z.strictObject({
    tokens: count.nullable(),
    costUsd: usd.nullable(),
    turns: count.nullable(),
    wallTimeMs: count.nullable(),
  }),
  counters: z.strictObject({
    turns: count,
    tokens: count,
    costUsd: usd,
    elapsedMs: z.number().finite().min(0),
    checks: count,
  }),
  verdict: z
    .strictObject({
      verdict: z.enum(['achieved', 'not_yet', 'unmet', 'unknown']),
      reason: z.string().max(GOAL_TEXT_LIMIT),
      at: time,
    })
    .nullable(),
  reason: text.nullable(),
  question: text.nullable(),
  guard: z.strictObject({
    options: z.strictObject({ churnTurns: count.min(1), repeats: count.min(1) }),
    done: count,
    objective: title.nullable(),
    titles: z.array(title).max(100_000),
    churn: count,
    removed: z.array(title).max(64),
    returned: count,
  }),
  machine: ControllerSnapshot,
  setAt: time,
  updatedAt: time,
});

/**
 * The data type of goals (`plankit.controller.Goal`), the goal slice of a core `Session`:
 * `registerGoalReducers` keeps it with `replaceLatest` and applies the goal commands to it.
 *
 * @public
 */
export const GoalState: z.ZodType<Goal> = defineDataType(
  'plankit.controller.Goal',
  schema,
) as unknown as z.ZodType<Goal>;
