import type { Result } from '@plankit/core';
import type { ControllerError } from '../controller-error.ts';
import type { AdaptationInput } from './adaptation-log-entry.ts';
import { applyOutcome } from './internal/apply-step.ts';
import { compiledOf } from './internal/compiled-machine.ts';
import { failure } from './internal/failure.ts';
import { fastOutcome } from './internal/fast-outcome.ts';
import { normalizeEvent } from './internal/normalize-event.ts';
import { publishTransition } from './internal/publish-transition.ts';
import type { Machine } from './machine.ts';
import type { MachineSnapshot } from './machine-snapshot.ts';
import { ensureSnapshot, trustedSnapshot } from './machine-snapshot-from-json.ts';

/** A tool call as an event reports it; its name, arguments and result make the stall signature. @public */
export interface ToolCallRecord {
  /** The tool's name, 1-128 characters. */
  readonly name: string;
  /** The arguments, as JSON data. */
  readonly args?: unknown;
  /** The result, as JSON data. */
  readonly result?: unknown;
}

/**
 * What the agent reports at the end of its work in a stage.
 *
 * @typeParam O - the machine's outcomes
 * @public
 */
export interface MachineEvent<O extends string = string> {
  /** The outcome; the current state must accept it. */
  readonly outcome: O;
  /** When, in epoch milliseconds; not earlier than the snapshot's `updatedAt`. */
  readonly now: number;
  /** The stage's confidence, from 0 to 1. */
  readonly confidence?: number | null | undefined;
  /** USD spent in this step (>= 0). */
  readonly costUsd?: number | undefined;
  /** Tokens used in this step. */
  readonly tokens?: number | undefined;
  /** The tool used: its name, or the call (which stall detection compares). */
  readonly tool?: string | ToolCallRecord | null | undefined;
  /** Rule violations found (at most 100, each 1-500 characters). */
  readonly violations?: readonly string[] | undefined;
  /** Structural changes made (at most 20). */
  readonly adaptations?: readonly AdaptationInput[] | undefined;
  /** Why, in the agent's or host's words (at most 2,000 characters). */
  readonly reason?: string | null | undefined;
}

/**
 * Applies one outcome: accounting, caps, stall detection, then the state the outcome leads to.
 * Pure: the same machine, snapshot and event always give the same snapshot.
 * While someone subscribes to `plankit:transition` (`@plankit/core/diagnostics`), a
 * transition is also published there, with the budget figures; nothing is built otherwise.
 *
 * @returns the next frozen snapshot, or a {@link ControllerError}: `input_invalid` (naming the
 *   field), `outcome_rejected`, `guard_rejected`, `machine_done`, `machine_frozen`,
 *   `snapshot_invalid`; the snapshot passed in is unchanged either way
 * @throws ControllerError `argument_invalid` when `machine` was not made by `defineMachine`
 * @example
 * ```ts
 * const planningMachine = createPlanningController();
 * const next = transition(planningMachine, snapshot, {
 *   outcome: 'success',
 *   now: Date.now(),
 *   confidence: 0.82,
 *   costUsd: 0.04,
 *   tool: { name: 'node_generator', args, result },
 * });
 * if (next.ok) snapshot = next.value;
 * ```
 * @public
 */
export function transition<S extends string, O extends string>(
  machine: Machine<S, O>,
  snapshot: MachineSnapshot<S, O>,
  event: MachineEvent<NoInfer<O>>,
): Result<MachineSnapshot<S, O>, ControllerError> {
  const compiled = compiledOf(machine, 'transition');
  let prev = trustedSnapshot(compiled, snapshot);
  if (prev === null) {
    const checked = ensureSnapshot(compiled, snapshot, 'transition');
    if (!checked.ok) return checked as Result<never, ControllerError>;
    prev = checked.value;
  }
  if (prev.status === 'done') {
    return failure(
      'machine_done',
      `transition: ${machine.id} is done (in ${prev.state}); it accepts no events.`,
      'snapshot',
      prev.state,
    );
  }
  if (prev.status === 'frozen') {
    return failure(
      'machine_frozen',
      // The cap, not the freeze message: that can hold a host's reason of 2,000 characters.
      `transition: ${machine.id} is frozen in ${prev.state} at its ${prev.frozen?.cap} cap; resume it first.`,
      'snapshot',
      prev.state,
    );
  }
  // Read only once the event has passed its checks.
  const cause = () => ({
    kind: 'outcome' as const,
    event: event.outcome,
    confidence: typeof event.confidence === 'number' ? event.confidence : null,
  });
  const fast = fastOutcome(compiled, prev, event);
  if (fast !== null)
    return publishTransition(prev, { ok: true, value: fast as MachineSnapshot<S, O> }, cause);
  const normalized = normalizeEvent('transition', event, prev.updatedAt, compiled.outcomes);
  if (!normalized.ok) return normalized;
  return publishTransition(
    prev,
    applyOutcome(compiled, prev, normalized, 'transition') as Result<
      MachineSnapshot<S, O>,
      ControllerError
    >,
    cause,
  );
}
