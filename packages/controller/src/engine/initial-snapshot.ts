import { checkOptionKeys, isRecord } from '@plankit/core/internal-unstable';
import { ControllerError } from '../controller-error.ts';
import { controllerArgument, isTime, show, TIME_RULE } from '../internal/checks.ts';
import { trust } from '../internal/trusted-snapshots.ts';
import type { Caps, SoftLimits } from './default-caps.ts';
import { compiledOf } from './internal/compiled-machine.ts';
import { statusOf } from './internal/finish-step.ts';
import { capsProblem, mergeLimits, softProblem } from './internal/limit-problems.ts';
import { withTraceOf } from './internal/trace-log.ts';
import type { Machine } from './machine.ts';
import type { MachineSnapshot } from './machine-snapshot.ts';

/** Options of {@link initialSnapshot} (and of {@link replay}). @public */
export interface InitialSnapshotOptions {
  /** When the machine starts, in epoch milliseconds. */
  readonly now: number;
  /** Hard limits for this session, over the machine's. */
  readonly caps?: Partial<Caps> | undefined;
  /** Soft limits for this session, over the machine's. */
  readonly soft?: Partial<SoftLimits> | undefined;
}

const OPTION_KEYS: ReadonlySet<string> = new Set(['now', 'caps', 'soft']);
const EMPTY: readonly never[] = Object.freeze([]);
const NO_STALL = Object.freeze({ tool: null, signature: null, count: 0 });

function argument(field: string, rule: string): ControllerError {
  return new ControllerError('argument_invalid', `initialSnapshot: ${field} ${rule}.`, { field });
}

/**
 * The snapshot a machine starts from: in its initial state, run 1, no turns, an empty trace.
 *
 * @throws ControllerError `argument_invalid` for a value not made by `defineMachine`, or bad
 *   options (a non-finite `now`, unknown keys, bad limits), naming the option
 * @example
 * ```ts
 * const planningMachine = createPlanningController();
 * let snapshot = initialSnapshot(planningMachine, { now: Date.now(), caps: { turns: 12 } });
 * ```
 * @public
 */
export function initialSnapshot<S extends string, O extends string>(
  machine: Machine<S, O>,
  options: InitialSnapshotOptions,
): MachineSnapshot<S, O> {
  const compiled = compiledOf(machine, 'initialSnapshot');
  if (!isRecord(options)) throw argument('options', 'must be an object');
  checkOptionKeys('initialSnapshot', options, OPTION_KEYS, 'options.', controllerArgument);
  if (!isTime(options.now)) throw argument('options.now', `${TIME_RULE}, got ${show(options.now)}`);
  const capsIssue = options.caps === undefined ? null : capsProblem(options.caps, 'options.caps');
  if (capsIssue !== null) throw argument(capsIssue.field, capsIssue.rule);
  const softIssue = options.soft === undefined ? null : softProblem(options.soft, 'options.soft');
  if (softIssue !== null) throw argument(softIssue.field, softIssue.rule);
  const state = compiled.states.get(machine.initial);
  const fields: Omit<MachineSnapshot, 'trace'> = {
    format: 'plankit.machine-snapshot',
    version: 1,
    machine: machine.id,
    state: machine.initial,
    status: statusOf(state?.kind ?? 'work'),
    caps: mergeLimits(machine.caps, options.caps),
    soft: mergeLimits(machine.soft, options.soft),
    counters: Object.freeze({
      run: 1,
      turns: 0,
      retries: Object.freeze({ [machine.initial]: 0 }),
      elapsedMs: 0,
      totalTurns: 0,
      costUsd: 0,
      tokens: 0,
    }),
    stall: NO_STALL,
    frozen: null,
    startedAt: options.now,
    updatedAt: options.now,
    signals: EMPTY,
  };
  const snapshot = Object.freeze(trust(withTraceOf(fields, EMPTY)));
  return snapshot as MachineSnapshot<S, O>;
}
