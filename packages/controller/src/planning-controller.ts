import { ControllerError } from './controller-error.ts';
import type { CapName, Caps, SoftLimits } from './default-caps.ts';
import { type CapTargets, defineMachine, type Machine } from './define-machine.ts';
import { isRecord, unknownKey } from './internal/checks.ts';

/** The stages and exits of the planning controller (seed 000). @public */
export type PlanningStage =
  | 'COLLECT_CONTEXT'
  | 'DRAFT_OUTLINE'
  | 'VALIDATE_OUTLINE'
  | 'DRAFT_ROADMAP'
  | 'VALIDATE_ROADMAP'
  | 'DRAFT_SCHEDULE'
  | 'VALIDATE_SCHEDULE'
  | 'SEEK_APPROVAL'
  | 'COMPLETE'
  | 'NEEDS_CLARIFICATION'
  | 'NEEDS_SCHED_ESCALATION'
  | 'ABORTED';

/** Every outcome some stage of the planning controller accepts. @public */
export type PlanningOutcome =
  | 'sufficient_context'
  | 'needs_clarification'
  | 'success'
  | 'low_confidence'
  | 'fatal_error'
  | 'valid'
  | 'invalid_retryable'
  | 'invalid_fatal'
  | 'infeasible'
  | 'approved'
  | 'rejected'
  | 'no_response'
  | 'stalled';

/** Options of {@link createPlanningController}. @public */
export interface PlanningControllerOptions {
  /** Hard limits over the seed's (turns 10, retries 2, 45 s, 2 USD, stall after 3). */
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
}

const OPTION_KEYS: ReadonlySet<string> = new Set(['caps', 'soft', 'onCap', 'freezeOn']);

// Seed 000: TURN_LIMIT=10, RETRY_LIMIT_PER_STAGE=2, WALL_TIME_SEC=45, BUDGET_PER_SESSION_USD=2.0.
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
 * Builds the planning controller with other limits or cap policies; the stages and the
 * transition table (see `specs/controller-planning.md`) are always the same.
 *
 * @throws ControllerError `argument_invalid` for unknown options, `definition_invalid` for bad
 *   limits or targets
 * @example
 * ```ts
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
  const extra = unknownKey(options, OPTION_KEYS);
  if (extra !== undefined) {
    throw new ControllerError(
      'argument_invalid',
      `createPlanningController: options.${extra} is not an option.`,
      {
        field: `options.${extra}`,
      },
    );
  }
  const freezeOn = options.freezeOn ?? [];
  const onCap: Record<string, string | undefined> = { default: 'ABORTED', ...options.onCap };
  // A cap moved to freezeOn leaves the default target alone; only an explicit one conflicts.
  for (const cap of freezeOn) if (options.onCap?.[cap] === undefined) delete onCap[cap];
  return defineMachine<PlanningStage, PlanningOutcome>({
    id: 'planning-controller',
    description: "Seed 000's outer loop: context, outline, roadmap, schedule, approval.",
    initial: 'COLLECT_CONTEXT',
    caps: { ...PLANNING_CAPS, ...options.caps },
    soft: { ...PLANNING_SOFT, ...options.soft },
    onCap,
    freezeOn,
    states: {
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
    },
  });
}

/**
 * Seed 000's planning controller: COLLECT_CONTEXT, the outline, roadmap and schedule each
 * drafted then validated, SEEK_APPROVAL (a wait state), and the exits COMPLETE,
 * NEEDS_CLARIFICATION, NEEDS_SCHED_ESCALATION and ABORTED. The full transition table is in
 * `specs/controller-planning.md`.
 *
 * @public
 */
export const planningController: Machine<PlanningStage, PlanningOutcome> =
  createPlanningController();
