import { isRecord } from '@plankit/core/internal-unstable';
import { ControllerError } from '../controller-error.ts';
import type { MachineSnapshot } from '../engine/machine-snapshot.ts';
import { APPROVAL_PAUSES } from './approval-cadence.ts';
import { APPROVAL_CTA } from './parse-approval-reply.ts';
import { isPlanningStage } from './planning-controller.ts';
import type { PlanningOutcome, PlanningStage } from './planning-stage.ts';

/** The host-facing status of the planning node (`planning_status` on the wire). @public */
export type PlanningStatus =
  | 'complete'
  | 'needs_clarification'
  | 'needs_scheduling_escalation'
  | 'aborted';

/** What the planning node returns to the host's router. @public */
export interface PlanningResult {
  /** Where planning stopped. */
  readonly planning_status: PlanningStatus;
  /** What to show the user; ends with {@link APPROVAL_CTA} when a reply is expected. */
  readonly response_text: string;
  /** Why planning needs a person, or stopped; null when complete. */
  readonly escalate_reason: string | null;
  /** True when a pattern RFC awaits approval. */
  readonly pattern_rfc_required: boolean;
  /** The RFC text awaiting approval, or null. */
  readonly pattern_rfc_text: string | null;
}

/** Options of {@link planningResult}. @public */
export interface PlanningResultOptions {
  /** The text of a pattern RFC awaiting approval (see `reviewPattern`), or null. */
  readonly rfc?: string | null | undefined;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function lastReason(snapshot: MachineSnapshot): string | null {
  const entry = snapshot.trace[snapshot.trace.length - 1];
  return entry?.cap?.message ?? entry?.reason ?? null;
}

function result(
  planning_status: PlanningStatus,
  response_text: string,
  escalate_reason: string | null,
  rfc: string | null = null,
): PlanningResult {
  return Object.freeze({
    planning_status,
    response_text,
    escalate_reason,
    pattern_rfc_required: rfc !== null,
    pattern_rfc_text: rfc,
  });
}

function clarification(
  response: string,
  reason: string,
  rfc: string | null,
  cta: boolean,
): PlanningResult {
  const parts = [response];
  if (rfc !== null) parts.push(`A new pattern awaits your approval: ${sentence(rfc)}`);
  if (cta) parts.push(APPROVAL_CTA);
  const why = rfc === null ? reason : `${reason} A pattern RFC awaits approval: ${sentence(rfc)}`;
  return result('needs_clarification', parts.join(' '), why, rfc);
}

/**
 * Maps where the planning controller stopped to the host-facing result: `complete`,
 * `needs_clarification` (waiting for approval, frozen at a cap, or the exit of that name),
 * `needs_scheduling_escalation` or `aborted`, with `response_text` and `escalate_reason`. With
 * `rfc`, a `needs_clarification` result also reports the pattern RFC awaiting approval.
 *
 * @returns the result, or null while the controller is still working
 * @throws ControllerError `argument_invalid` for a value that is not a planning controller
 *   snapshot, or an `rfc` that is not a string
 * @example
 * ```ts
 * const out = planningResult(snapshot);
 * if (out) return { ...graphState, ...out };
 * ```
 * @public
 */
export function planningResult(
  snapshot: MachineSnapshot<PlanningStage, PlanningOutcome>,
  options: PlanningResultOptions = {},
): PlanningResult | null {
  if (
    !isRecord(snapshot) ||
    typeof snapshot.state !== 'string' ||
    !isPlanningStage(snapshot.state) ||
    !Array.isArray(snapshot.trace)
  ) {
    throw new ControllerError(
      'argument_invalid',
      'planningResult: snapshot must be a planning controller snapshot.',
      {
        field: 'snapshot',
      },
    );
  }
  const rfcOption = isRecord(options) ? options.rfc : undefined;
  if (
    !isRecord(options) ||
    (rfcOption !== undefined &&
      rfcOption !== null &&
      (typeof rfcOption !== 'string' || rfcOption.trim() === ''))
  ) {
    throw new ControllerError(
      'argument_invalid',
      'planningResult: options.rfc must be a non-empty string or null.',
      {
        field: 'options.rfc',
      },
    );
  }
  const rfc = rfcOption ?? null;
  const reason = lastReason(snapshot);
  if (snapshot.status === 'frozen') {
    const message = snapshot.frozen?.message ?? reason ?? 'a limit was reached';
    return clarification(
      `Planning is paused for your review: ${sentence(message)}`,
      sentence(message),
      rfc,
      true,
    );
  }
  switch (snapshot.state) {
    case 'COMPLETE':
      return result('complete', 'The plan is approved and complete.', null);
    case 'SEEK_APPROVAL':
    case 'APPROVE_CONTEXT':
    case 'APPROVE_OUTLINE_DRAFT':
    case 'APPROVE_OUTLINE':
    case 'APPROVE_ROADMAP_DRAFT':
    case 'APPROVE_ROADMAP':
    case 'APPROVE_SCHEDULE_DRAFT': {
      const state = snapshot.state;
      const subject = APPROVAL_PAUSES.find((p) => p.stage === state)?.subject ?? 'The plan';
      return clarification(
        `${subject} is ready for your review.`,
        `${subject} awaits your approval.`,
        rfc,
        true,
      );
    }
    case 'NEEDS_CLARIFICATION': {
      const why =
        reason === null ? 'More information is needed to continue planning.' : sentence(reason);
      return clarification(`I need more information to continue planning: ${why}`, why, rfc, false);
    }
    case 'NEEDS_SCHED_ESCALATION': {
      const why =
        reason === null
          ? 'The schedule is not feasible with the capacity available.'
          : sentence(reason);
      return result(
        'needs_scheduling_escalation',
        `The schedule cannot be made feasible: ${why}`,
        why,
      );
    }
    case 'ABORTED': {
      const why = reason === null ? 'Planning was aborted.' : sentence(reason);
      return result('aborted', `Planning stopped: ${why}`, why);
    }
    case 'COLLECT_CONTEXT':
    case 'DRAFT_OUTLINE':
    case 'VALIDATE_OUTLINE':
    case 'DRAFT_ROADMAP':
    case 'VALIDATE_ROADMAP':
    case 'DRAFT_SCHEDULE':
    case 'VALIDATE_SCHEDULE':
      return null;
    default: {
      const never: never = snapshot.state;
      return never;
    }
  }
}
