import type { Result } from '@plankit/core';
import { isRecord } from '@plankit/core/internal-unstable';
import type { ControllerError } from '../controller-error.ts';
import { failure, invalid, unstorableError } from '../engine/internal/failure.ts';
import { checkNow } from '../engine/internal/normalize-event.ts';
import { transition } from '../engine/transition.ts';
import { show, unknownKey } from '../internal/checks.ts';
import { ensureGoal, trustGoal } from './decide-goal.ts';
import { goalMachine } from './goal-machine.ts';
import { GOAL_TEXT_LIMIT, type Goal } from './goal-state.ts';

/** Pauses an active goal. @public */
export interface PauseGoalCommand {
  /** Always `pause`. */
  readonly type: 'pause';
  /** Why (1-2,000 characters); `Paused by the host.` by default. */
  readonly reason?: string | undefined;
  /** When, in epoch milliseconds; not earlier than the goal's `updatedAt`. */
  readonly now: number;
}

/** Resumes a paused goal, or a blocked one once the person has answered. @public */
export interface ResumeGoalCommand {
  /** Always `resume`. */
  readonly type: 'resume';
  /** When, in epoch milliseconds; not earlier than the goal's `updatedAt`. */
  readonly now: number;
}

/** Clears a goal: it is kept as `cleared` and decides nothing. @public */
export interface ClearGoalCommand {
  /** Always `clear`. */
  readonly type: 'clear';
  /** When, in epoch milliseconds; not earlier than the goal's `updatedAt`. */
  readonly now: number;
}

/** A command a host or a person gives a goal. Setting one is `createGoal`. @public */
export type GoalCommand = PauseGoalCommand | ResumeGoalCommand | ClearGoalCommand;

const WHERE = 'applyGoalCommand';
const KEYS: Readonly<Record<GoalCommand['type'], ReadonlySet<string>>> = {
  pause: new Set(['type', 'reason', 'now']),
  resume: new Set(['type', 'now']),
  clear: new Set(['type', 'now']),
};

function inactive(rule: string): { ok: false; error: ControllerError } {
  return failure('goal_inactive', `${WHERE}: ${rule}.`, 'goal.status');
}

/**
 * Applies a command to a goal, purely: `pause` an active goal (with a reason), `resume` a
 * paused or blocked one (a blocked goal's machine leaves its wait and its re-plan guard starts
 * afresh, since the person answered its question), or `clear` any goal not yet cleared.
 * Dispatch the new goal as `GoalState` to keep it; a store logs it like any slice value.
 *
 * @returns the new goal, or a {@link ControllerError}: `goal_inactive` when the command does
 *   not apply to the goal's status (the message says which), `input_invalid` naming the field,
 *   `snapshot_invalid` for a value that is not a goal; the goal passed in is unchanged
 * @example
 * ```ts
 * const paused = applyGoalCommand(goal, { type: 'pause', reason: 'Waiting for review', now });
 * if (paused.ok) session.dispatch(GoalState, paused.value);
 * ```
 * @public
 */
export function applyGoalCommand(goal: Goal, command: GoalCommand): Result<Goal, ControllerError> {
  const ensured = ensureGoal(goal, WHERE);
  if (!ensured.ok) return ensured;
  const prev = ensured.value;
  if (!isRecord(command)) return invalid(WHERE, 'command', 'must be an object');
  const type = command['type'];
  if (type !== 'pause' && type !== 'resume' && type !== 'clear')
    return invalid(WHERE, 'command.type', `must be pause, resume or clear, got ${show(type)}`);
  const extra = unknownKey(command, KEYS[type]);
  if (extra !== undefined) return invalid(WHERE, `command.${extra}`, 'is not a key');
  const nowError = checkNow(WHERE, 'command.now', command.now, prev.updatedAt);
  if (nowError !== null) return { ok: false, error: nowError };
  const { now } = command;

  if (type === 'pause') {
    if (prev.status !== 'active')
      return inactive(`only an active goal can be paused; this one is ${prev.status}`);
    const reason = (command as PauseGoalCommand).reason ?? 'Paused by the host.';
    if (typeof reason !== 'string' || reason.trim().length === 0 || reason.length > GOAL_TEXT_LIMIT)
      return invalid(
        WHERE,
        'command.reason',
        `must be 1-${GOAL_TEXT_LIMIT} characters, got ${show(reason)}`,
      );
    const unstorable = unstorableError(WHERE, 'command.reason', reason);
    if (unstorable !== null) return { ok: false, error: unstorable };
    return done({ ...prev, status: 'paused', reason, question: null, updatedAt: now });
  }
  if (type === 'clear') {
    if (prev.status === 'cleared') return inactive('the goal is already cleared');
    return done({
      ...prev,
      status: 'cleared',
      reason: 'Cleared by the host.',
      question: null,
      updatedAt: now,
    });
  }
  if (prev.status === 'paused')
    return done({ ...prev, status: 'active', reason: null, updatedAt: now });
  if (prev.status !== 'blocked')
    return inactive(`only a paused or blocked goal can be resumed; this one is ${prev.status}`);
  const stepped = transition(goalMachine, prev.machine, { outcome: 'resumed', now });
  if (!stepped.ok) return stepped;
  return done({
    ...prev,
    status: 'active',
    reason: null,
    question: null,
    guard: Object.freeze({ ...prev.guard, churn: 0, returned: 0, removed: Object.freeze([]) }),
    machine: stepped.value,
    updatedAt: now,
  });
}

function done(goal: Goal): { ok: true; value: Goal } {
  return { ok: true, value: trustGoal(Object.freeze(goal)) };
}
