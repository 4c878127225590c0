import { checkOptionKeys, isRecord } from '@plankit/core/internal-unstable';
import { ControllerError } from '../controller-error.ts';
import type { CapName, Caps, SoftLimits } from '../engine/default-caps.ts';
import { defineMachine, type StateDefinition } from '../engine/define-machine.ts';
import type { CapTargets, Machine } from '../engine/machine.ts';
import { controllerArgument } from '../internal/checks.ts';
import {
  APPROVAL_PAUSES,
  APPROVAL_POLICIES,
  type ApprovalPolicy,
  approvalPauses,
} from './approval-cadence.ts';
import type { PlanningOutcome, PlanningStage } from './planning-stage.ts';

/** Options of {@link createPlanningController}. @public */
export interface PlanningControllerOptions {
  /** Hard limits over the planning controller's (turns 10, retries 2, 45 s, 2 USD, stall after 3). */
  readonly caps?: Partial<Caps> | undefined;
  /** Soft limits over the defaults (turns 8, 1.6 USD). */
  readonly soft?: Partial<SoftLimits> | undefined;
  /** Cap targets over the default (every cap goes to `ABORTED`). */
  readonly onCap?:
    | CapTargets<
        'SEEK_APPROVAL' | 'COMPLETE' | 'NEEDS_CLARIFICATION' | 'NEEDS_SCHED_ESCALATION' | 'ABORTED'
      >
    | undefined;
  /** Caps that freeze for review instead, such as `['costUsd']`. */
  readonly freezeOn?: readonly CapName[] | undefined;
  /**
   * Where the controller pauses for approval (the `InteractionPolicy` slider of the same name):
   * `single_final` (the default) only in `SEEK_APPROVAL`; `milestone_approvals` also after the
   * validated outline and roadmap; `strict_every_step` after every work stage.
   */
  readonly approval_policy?: ApprovalPolicy | undefined;
}

const OPTION_KEYS: ReadonlySet<string> = new Set([
  'caps',
  'soft',
  'onCap',
  'freezeOn',
  'approval_policy',
]);

type PlanningStates = Partial<
  Record<PlanningStage, StateDefinition<PlanningStage, PlanningOutcome>>
>;

// The single_final machine: the planning transition table, completed (specs/controller-planning.md).
const BASE_STATES: PlanningStates = {
  COLLECT_CONTEXT: {
    on: {
      sufficient_context: 'DRAFT_OUTLINE',
      needs_clarification: 'NEEDS_CLARIFICATION',
      fatal_error: 'ABORTED',
      stalled: 'NEEDS_CLARIFICATION',
    },
  },
  DRAFT_OUTLINE: {
    on: {
      success: 'VALIDATE_OUTLINE',
      low_confidence: 'COLLECT_CONTEXT',
      needs_clarification: 'NEEDS_CLARIFICATION',
      fatal_error: 'ABORTED',
      stalled: 'NEEDS_CLARIFICATION',
    },
  },
  VALIDATE_OUTLINE: {
    on: {
      valid: 'DRAFT_ROADMAP',
      invalid_retryable: 'DRAFT_OUTLINE',
      invalid_fatal: 'NEEDS_CLARIFICATION',
      fatal_error: 'ABORTED',
      stalled: 'NEEDS_CLARIFICATION',
    },
  },
  DRAFT_ROADMAP: {
    on: {
      success: 'VALIDATE_ROADMAP',
      low_confidence: 'DRAFT_ROADMAP',
      needs_clarification: 'NEEDS_CLARIFICATION',
      fatal_error: 'ABORTED',
      stalled: 'NEEDS_CLARIFICATION',
    },
  },
  VALIDATE_ROADMAP: {
    on: {
      valid: 'DRAFT_SCHEDULE',
      invalid_retryable: 'DRAFT_ROADMAP',
      invalid_fatal: 'NEEDS_CLARIFICATION',
      fatal_error: 'ABORTED',
      stalled: 'NEEDS_CLARIFICATION',
    },
  },
  DRAFT_SCHEDULE: {
    on: {
      success: 'VALIDATE_SCHEDULE',
      low_confidence: 'DRAFT_SCHEDULE',
      needs_clarification: 'NEEDS_CLARIFICATION',
      fatal_error: 'ABORTED',
      stalled: 'NEEDS_CLARIFICATION',
    },
  },
  VALIDATE_SCHEDULE: {
    on: {
      valid: 'SEEK_APPROVAL',
      invalid_retryable: 'DRAFT_SCHEDULE',
      infeasible: 'NEEDS_SCHED_ESCALATION',
      invalid_fatal: 'NEEDS_CLARIFICATION',
      fatal_error: 'ABORTED',
      stalled: 'NEEDS_CLARIFICATION',
    },
  },
  SEEK_APPROVAL: {
    kind: 'wait',
    description: 'a person reviews the plan',
    on: { approved: 'COMPLETE', rejected: 'DRAFT_OUTLINE', no_response: 'NEEDS_CLARIFICATION' },
  },
  COMPLETE: { kind: 'final' },
  NEEDS_CLARIFICATION: { kind: 'final' },
  NEEDS_SCHED_ESCALATION: { kind: 'final' },
  ABORTED: { kind: 'final' },
};

/** The base states with the policy's extra pauses, each right after the stage it reviews. */
function statesFor(policy: ApprovalPolicy): PlanningStates {
  const states: PlanningStates = {};
  const pauses = approvalPauses(policy).filter((p) => p.stage !== 'SEEK_APPROVAL');
  for (const [name, base] of Object.entries(BASE_STATES) as [
    PlanningStage,
    StateDefinition<PlanningStage, PlanningOutcome>,
  ][]) {
    const own = pauses.find((p) => p.after === name);
    if (own === undefined) {
      states[name] = base;
      continue;
    }
    states[name] = { ...base, on: { ...base.on, [own.outcome]: own.stage } };
    states[own.stage] = {
      kind: 'wait',
      description: `a person reviews ${own.subject.charAt(0).toLowerCase()}${own.subject.slice(1)}`,
      on: { approved: own.approved, rejected: own.rejected, no_response: 'NEEDS_CLARIFICATION' },
    };
  }
  return states;
}

// 10 turns, 2 retries per stage, 45 s of active time and 2 USD per session.
const PLANNING_CAPS: Caps = Object.freeze({
  turns: 10,
  retries: 2,
  wallTimeMs: 45_000,
  costUsd: 2,
  tokens: null,
  stall: 3,
});
const PLANNING_SOFT: SoftLimits = Object.freeze({ turns: 8, costUsd: 1.6 });

/**
 * Builds the planning controller: COLLECT_CONTEXT, the outline, roadmap and schedule each
 * drafted then validated, SEEK_APPROVAL (a wait state), and the exits COMPLETE,
 * NEEDS_CLARIFICATION, NEEDS_SCHED_ESCALATION and ABORTED. Options change its limits, cap
 * policies or approval cadence; the transition table (see `specs/controller-planning.md`) is
 * always the same.
 *
 * @throws ControllerError `argument_invalid` for unknown options, `definition_invalid` for bad
 *   limits or targets
 * @example
 * ```ts
 * const planningMachine = createPlanningController();
 * // Freeze for a person's review when the money runs out, instead of aborting.
 * const controller = createPlanningController({ freezeOn: ['costUsd'] });
 * ```
 * @public
 */
export function createPlanningController(
  options: PlanningControllerOptions = {},
): Machine<PlanningStage, PlanningOutcome> {
  if (!isRecord(options)) {
    throw new ControllerError(
      'argument_invalid',
      'createPlanningController: options must be an object.',
      {
        field: 'options',
      },
    );
  }
  checkOptionKeys('createPlanningController', options, OPTION_KEYS, 'options.', controllerArgument);
  const approvalPolicy = options.approval_policy ?? 'single_final';
  if (!APPROVAL_POLICIES.includes(approvalPolicy)) {
    throw new ControllerError(
      'argument_invalid',
      'createPlanningController: options.approval_policy must be single_final, milestone_approvals or strict_every_step.',
      { field: 'options.approval_policy' },
    );
  }
  const freezeOn = options.freezeOn ?? [];
  // Every cap goes to ABORTED unless named; `default: undefined` keeps that default too.
  const onCap: { [K in CapName]?: PlanningStage | undefined } & { default: PlanningStage } = {
    ...options.onCap,
    default: options.onCap?.default ?? 'ABORTED',
  };
  // A cap moved to freezeOn leaves the default target alone; only an explicit one conflicts.
  for (const cap of freezeOn) if (options.onCap?.[cap] === undefined) delete onCap[cap];
  return defineMachine<PlanningStage, PlanningOutcome, readonly CapName[]>({
    // Each cadence is its own machine: a snapshot names the one it belongs to.
    id:
      approvalPolicy === 'single_final'
        ? 'planning-controller'
        : `planning-controller.${approvalPolicy}`,
    description:
      approvalPolicy === 'single_final'
        ? 'The planning loop: context, outline, roadmap, schedule, approval.'
        : `The planning loop: context, outline, roadmap, schedule, approval (${approvalPolicy}).`,
    initial: 'COLLECT_CONTEXT',
    caps: { ...PLANNING_CAPS, ...options.caps },
    soft: { ...PLANNING_SOFT, ...options.soft },
    onCap,
    freezeOn,
    states: statesFor(approvalPolicy) as Record<
      PlanningStage,
      StateDefinition<PlanningStage, PlanningOutcome>
    >,
  });
}

/**
 * True for a stage some planning controller has: a stage of the default cadence or an approval
 * pause of another one.
 */
export function isPlanningStage(name: string): boolean {
  return Object.hasOwn(BASE_STATES, name) || APPROVAL_PAUSES.some((p) => p.stage === name);
}
