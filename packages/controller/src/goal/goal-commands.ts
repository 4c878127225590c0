import { defineDataType, type Reducer } from '@plankit/core';
import * as z from 'zod';
import { ControllerError } from '../controller-error.ts';
import { applyGoalCommand, type GoalCommand } from './apply-goal-command.ts';
import { createGoal } from './create-goal.ts';
import {
  type Goal,
  type GoalBudget,
  goalCount,
  goalText,
  goalUsd,
  type ReplanGuardOptions,
} from './goal-state.ts';

/**
 * Sets the session's goal, replacing any goal it holds: the new goal is `active`, with nothing
 * used, and set at the dispatch's time. The fields are {@link createGoal}'s options.
 *
 * @public
 */
export interface SetGoal {
  /** What the agent works toward: 1-2,000 characters. */
  readonly objective: string;
  /** How to tell it is met: 1-2,000 characters. */
  readonly criteria?: string | undefined;
  /** Caps over the defaults (100 turns, 2 USD, no token or time cap); `null` lifts one. */
  readonly budget?: { readonly [K in keyof GoalBudget]?: GoalBudget[K] | undefined } | undefined;
  /** The re-plan guard's thresholds over the defaults (4 churn turns, 2 repeats). */
  readonly guard?:
    | { readonly [K in keyof ReplanGuardOptions]?: ReplanGuardOptions[K] | undefined }
    | undefined;
}

/** Pauses the session's active goal. @public */
export interface PauseGoal {
  /** Why (1-2,000 characters); `Paused by the host.` by default. */
  readonly reason?: string | undefined;
}

/** Resumes the session's paused goal, or its blocked one once the person has answered. @public */
export type ResumeGoal = Readonly<Record<never, never>>;

/** Clears the session's goal: it is kept as `cleared` and decides nothing. @public */
export type ClearGoal = Readonly<Record<never, never>>;

const count = goalCount;
const usd = goalUsd;
const text = goalText;

/**
 * The data type of {@link SetGoal} (`plankit.controller.SetGoal`), reduced into the goal slice
 * ({@link GoalState}) by the `goals()` extension.
 *
 * @public
 */
export const SetGoal: z.ZodType<SetGoal, SetGoal> = defineDataType(
  'plankit.controller.SetGoal',
  z.strictObject({
    objective: text,
    criteria: text.optional(),
    budget: z
      .strictObject({
        tokens: count.nullable().optional(),
        costUsd: usd.nullable().optional(),
        turns: count.nullable().optional(),
        wallTimeMs: count.nullable().optional(),
      })
      .optional(),
    guard: z
      .strictObject({ churnTurns: count.min(1).optional(), repeats: count.min(1).optional() })
      .optional(),
  }),
) as unknown as z.ZodType<SetGoal, SetGoal>;

/** The data type of {@link PauseGoal} (`plankit.controller.PauseGoal`). @public */
export const PauseGoal: z.ZodType<PauseGoal, PauseGoal> = defineDataType(
  'plankit.controller.PauseGoal',
  z.strictObject({ reason: text.optional() }),
) as unknown as z.ZodType<PauseGoal, PauseGoal>;

/** The data type of {@link ResumeGoal} (`plankit.controller.ResumeGoal`). @public */
export const ResumeGoal: z.ZodType<ResumeGoal, ResumeGoal> = defineDataType(
  'plankit.controller.ResumeGoal',
  z.strictObject({}),
);

/** The data type of {@link ClearGoal} (`plankit.controller.ClearGoal`). @public */
export const ClearGoal: z.ZodType<ClearGoal, ClearGoal> = defineDataType(
  'plankit.controller.ClearGoal',
  z.strictObject({}),
);

/**
 * Applies {@link SetGoal}: the goal slice holds the new goal alone.
 *
 * @throws ControllerError `argument_invalid` for options `createGoal` refuses (an objective of
 *   no text or unstorable); the dispatch then changes nothing
 */
export const setGoalReducer: Reducer<Goal, SetGoal> = (_goals, event) => [
  createGoal({ ...(event.value as GoalOptionsWithoutTime), now: event.at }),
];

type GoalOptionsWithoutTime = Omit<Parameters<typeof createGoal>[0], 'now'>;

/** The goal `command` makes of the newest goal in `goals`, alone in the slice. */
function applyToLatest(
  goals: readonly Goal[],
  name: string,
  at: number,
  command: (now: number) => GoalCommand,
): readonly Goal[] {
  const goal = goals[goals.length - 1];
  if (goal === undefined) {
    throw new ControllerError('goal_inactive', `${name}: no goal is set; dispatch SetGoal first.`, {
      field: 'goal',
    });
  }
  // A person's command is never refused for a clock behind the goal's last decision: it takes
  // effect at the goal's own time then, which a replay of the same event computes again.
  const applied = applyGoalCommand(goal, command(Math.max(at, goal.updatedAt)));
  if (!applied.ok) throw applied.error;
  return [applied.value];
}

/**
 * Applies {@link PauseGoal} to the session's goal, as `applyGoalCommand` does.
 *
 * @throws ControllerError `goal_inactive` when no goal is set or it is not active
 */
export const pauseGoalReducer: Reducer<Goal, PauseGoal> = (goals, event) =>
  applyToLatest(goals, 'PauseGoal', event.at, (now) =>
    event.value.reason === undefined
      ? { type: 'pause', now }
      : { type: 'pause', reason: event.value.reason, now },
  );

/**
 * Applies {@link ResumeGoal} to the session's goal, as `applyGoalCommand` does.
 *
 * @throws ControllerError `goal_inactive` when no goal is set or it is neither paused nor blocked
 */
export const resumeGoalReducer: Reducer<Goal, ResumeGoal> = (goals, event) =>
  applyToLatest(goals, 'ResumeGoal', event.at, (now) => ({ type: 'resume', now }));

/**
 * Applies {@link ClearGoal} to the session's goal, as `applyGoalCommand` does.
 *
 * @throws ControllerError `goal_inactive` when no goal is set or it is cleared already
 */
export const clearGoalReducer: Reducer<Goal, ClearGoal> = (goals, event) =>
  applyToLatest(goals, 'ClearGoal', event.at, (now) => ({ type: 'clear', now }));
