import type { Result } from '@plankit/core';
import { ControllerError } from '../controller-error.ts';
import { show } from '../internal/checks.ts';
import { CAP_NAMES, type CapName } from './default-caps.ts';
import { applyCapReport } from './internal/apply-step.ts';
import { compiledOf } from './internal/compiled-machine.ts';
import { failure, inputShapeFailure } from './internal/failure.ts';
import { checkNow, checkReason } from './internal/normalize-event.ts';
import { publishTransition } from './internal/publish-transition.ts';
import type { Machine } from './machine.ts';
import type { MachineSnapshot } from './machine-snapshot.ts';
import { ensureSnapshot } from './machine-snapshot-from-json.ts';

/** What {@link reportCap} takes. @public */
export interface ReportCapInput {
  /** The cap the host found broken (typically `costUsd` when the budget refused a call). */
  readonly cap: CapName;
  /** When, in epoch milliseconds; not earlier than the snapshot's `updatedAt`. */
  readonly now: number;
  /** Why, in the host's words (at most 2,000 characters). */
  readonly reason?: string | null | undefined;
}

const KEYS: ReadonlySet<string> = new Set(['cap', 'now', 'reason']);

/**
 * Reports a cap the host found broken itself, such as the budget manager refusing a
 * reservation: the machine acts on it by its policy, going to the cap's target or freezing
 * (with no pending event) for a person to raise the limit and {@link resume}.
 *
 * Published on `plankit:transition` (`@plankit/core/diagnostics`) while someone subscribes.
 *
 * @returns the next frozen snapshot, or a {@link ControllerError}: `input_invalid`,
 *   `machine_done`, `machine_frozen`, `snapshot_invalid`
 * @throws ControllerError `argument_invalid` when `machine` was not made by `defineMachine`
 * @example
 * ```ts
 * const held = reserveBudget(budget, { id: 'call-7', usd: estimate, now });
 * if (!held.ok && held.error.code === 'budget_exceeded') {
 *   const stopped = reportCap(machine, snapshot, { cap: 'costUsd', now, reason: held.error.message });
 * }
 * ```
 * @public
 */
export function reportCap<S extends string, O extends string>(
  machine: Machine<S, O>,
  snapshot: MachineSnapshot<S, O>,
  input: ReportCapInput,
): Result<MachineSnapshot<S, O>, ControllerError> {
  const compiled = compiledOf(machine, 'reportCap');
  const current = ensureSnapshot(compiled, snapshot, 'reportCap');
  if (!current.ok) return current as Result<never, ControllerError>;
  const prev = current.value;
  if (prev.status === 'done') {
    return failure(
      'machine_done',
      `reportCap: ${machine.id} is done (in ${prev.state}).`,
      'snapshot',
      prev.state,
    );
  }
  if (prev.status === 'frozen') {
    return failure(
      'machine_frozen',
      `reportCap: ${machine.id} is already frozen in ${prev.state}.`,
      'snapshot',
      prev.state,
    );
  }
  const shape = inputShapeFailure('reportCap', input, KEYS);
  if (shape !== null) return shape;
  if (typeof input.cap !== 'string' || !(CAP_NAMES as readonly string[]).includes(input.cap)) {
    return failure(
      'input_invalid',
      `reportCap: input.cap must be one of ${CAP_NAMES.join(', ')}, got ${show(input.cap)}.`,
      'input.cap',
    );
  }
  const nowError = checkNow('reportCap', 'input.now', input.now, prev.updatedAt);
  if (nowError !== null) return { ok: false, error: nowError };
  const reason = checkReason('reportCap', 'input.reason', input.reason);
  if (reason instanceof ControllerError) return { ok: false, error: reason };
  const value = applyCapReport(compiled, prev, input.cap, input.now, reason) as MachineSnapshot<
    S,
    O
  >;
  return publishTransition(
    prev,
    { ok: true, value },
    { kind: 'cap', event: input.cap, confidence: null },
  );
}
