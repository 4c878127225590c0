import type { Result } from '@plankit/core';
import { ControllerError } from '../controller-error.ts';
import type { Caps, SoftLimits } from './default-caps.ts';
import { applyResume } from './internal/apply-step.ts';
import { compiledOf } from './internal/compiled-machine.ts';
import { failure, inputShapeFailure } from './internal/failure.ts';
import { capsProblem, mergeLimits, softProblem } from './internal/limit-problems.ts';
import { checkNow, checkReason } from './internal/normalize-event.ts';
import { publishTransition } from './internal/publish-transition.ts';
import type { Machine } from './machine.ts';
import type { MachineSnapshot } from './machine-snapshot.ts';
import { ensureSnapshot } from './machine-snapshot-from-json.ts';

/** What {@link resume} takes. @public */
export interface ResumeInput {
  /** When, in epoch milliseconds; not earlier than the snapshot's `updatedAt`. */
  readonly now: number;
  /** Limits to change (typically the one that froze the machine, raised). */
  readonly caps?: Partial<Caps> | undefined;
  /** Soft limits to change. */
  readonly soft?: Partial<SoftLimits> | undefined;
  /** Who decided, or why (at most 2,000 characters). */
  readonly reason?: string | null | undefined;
  /** Drop the pending event instead of routing it again; the machine then waits for the next. */
  readonly discardPending?: boolean | undefined;
}

const KEYS: ReadonlySet<string> = new Set(['now', 'caps', 'soft', 'reason', 'discardPending']);

/** A new limit below what the session has already used, which no step could then respect. */
function usedAbove(
  snapshot: MachineSnapshot,
  caps: Partial<Caps> | undefined,
): { readonly field: string; readonly rule: string } | null {
  if (caps === undefined) return null;
  const { counters } = snapshot;
  const used: readonly [keyof Caps, number, string][] = [
    ['turns', counters.turns, 'turns taken in this run'],
    ['wallTimeMs', counters.elapsedMs, 'ms of work in this run'],
    ['costUsd', counters.costUsd, 'USD already spent'],
    ['tokens', counters.tokens, 'tokens already used'],
    [
      'retries',
      Math.max(0, ...Object.values(counters.retries).map((n) => n ?? 0)),
      'retries of a stage in this run',
    ],
  ];
  for (const [name, value, what] of used) {
    const limit = caps[name];
    if (typeof limit === 'number' && limit < value) {
      return {
        field: `input.caps.${name}`,
        rule: `must not be below the ${value} ${what}, got ${limit}`,
      };
    }
  }
  return null;
}

/**
 * Leaves a freeze: merges the new limits into the snapshot's, and routes the event that hit the
 * cap again under them (its time, cost and tokens are not charged twice), so the machine
 * continues exactly where it stopped. If a cap still fires, it acts again (a freeze holds the
 * same pending event). Time spent frozen is not charged.
 *
 * Published on `plankit:transition` (`@plankit/core/diagnostics`) while someone subscribes.
 *
 * @returns the next frozen snapshot, or a {@link ControllerError}: `machine_not_frozen`,
 *   `input_invalid`, `guard_rejected` (no guard of the pending outcome passes now; resume with
 *   `discardPending`), `snapshot_invalid`
 * @throws ControllerError `argument_invalid` when `machine` was not made by `defineMachine`
 * @example
 * ```ts
 * // A person approved spending up to 3 USD.
 * const resumed = resume(machine, snapshot, { now, caps: { costUsd: 3 }, reason: 'approved by ops' });
 * ```
 * @public
 */
export function resume<S extends string, O extends string>(
  machine: Machine<S, O>,
  snapshot: MachineSnapshot<S, O>,
  input: ResumeInput,
): Result<MachineSnapshot<S, O>, ControllerError> {
  const compiled = compiledOf(machine, 'resume');
  const current = ensureSnapshot(compiled, snapshot, 'resume');
  if (!current.ok) return current as Result<never, ControllerError>;
  const prev = current.value;
  if (prev.status !== 'frozen') {
    return failure(
      'machine_not_frozen',
      `resume: ${machine.id} is ${prev.status}, not frozen.`,
      'snapshot',
      prev.state,
    );
  }
  const shape = inputShapeFailure('resume', input, KEYS);
  if (shape !== null) return shape;
  const nowError = checkNow('resume', 'input.now', input.now, prev.updatedAt);
  if (nowError !== null) return { ok: false, error: nowError };
  const capsIssue = input.caps === undefined ? null : capsProblem(input.caps, 'input.caps');
  const issue =
    capsIssue ?? (input.soft === undefined ? null : softProblem(input.soft, 'input.soft'));
  if (issue !== null)
    return failure('input_invalid', `resume: ${issue.field} ${issue.rule}.`, issue.field);
  const below = usedAbove(prev, input.caps);
  if (below !== null)
    return failure('input_invalid', `resume: ${below.field} ${below.rule}.`, below.field);
  const reason = checkReason('resume', 'input.reason', input.reason);
  if (reason instanceof ControllerError) return { ok: false, error: reason };
  const { discardPending = false } = input;
  if (typeof discardPending !== 'boolean') {
    return failure(
      'input_invalid',
      'resume: input.discardPending must be a boolean.',
      'input.discardPending',
    );
  }
  const resumed = applyResume(
    compiled,
    prev,
    {
      now: input.now,
      caps: mergeLimits(prev.caps, input.caps),
      soft: mergeLimits(prev.soft, input.soft),
      reason,
      discardPending,
    },
    'resume',
  ) as Result<MachineSnapshot<S, O>, ControllerError>;
  return publishTransition(prev, resumed, { kind: 'resume', event: 'resume', confidence: null });
}
