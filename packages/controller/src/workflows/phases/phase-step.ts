import type { Result } from '@plankit/core';
import { deepFreeze, isRecord } from '@plankit/core/internal-unstable';
import type { MachineSnapshot } from '../../engine/machine-snapshot.ts';
import { argumentError, fail } from '../internal/checks.ts';
import { stepMachine, type WorkflowMachine } from '../internal/step-machine.ts';
import type { WorkflowError } from '../workflow-error.ts';
import { type PhaseOutcome, type PhaseStage, phaseController } from './phase-controller.ts';
import type { PhaseJob } from './phase-job.ts';
import type { PhaseKind } from './phase-kind.ts';
import type { PhaseSignal } from './phase-signal.ts';
import type { TodoSpec } from './predefined-todos.ts';
import type { Todo } from './todo.ts';

type Snapshot = MachineSnapshot<PhaseStage, PhaseOutcome>;

const PHASE_MACHINE: WorkflowMachine<PhaseStage, PhaseOutcome> = {
  machine: phaseController,
  name: 'the phase controller',
  field: 'job.machine',
};

/** Throws unless `job` looks like a phase job; its parts are trusted from there. */
export function ensureJob(where: string, job: unknown): asserts job is PhaseJob {
  if (!isRecord(job) || job['format'] !== 'plankit.phase-job' || !isRecord(job['machine'])) {
    throw argumentError(where, 'job', 'must be a phase job (startPhaseJob, phaseJobFromJSON)');
  }
}

/** Why the job cannot take a step that needs a running phase, if it cannot. */
export function runningProblem(where: string, job: PhaseJob): Result<never, WorkflowError> | null {
  switch (job.machine.status) {
    case 'running':
      return null;
    case 'done':
      return fail(
        'job_done',
        `${where}: job ${job.jobId} is complete; it accepts no more changes.`,
        'job',
      );
    case 'waiting':
      return fail(
        'review_pending',
        `${where}: job ${job.jobId} is waiting for review of its plan; approve it, request changes or skip the review first.`,
        'job',
      );
    case 'frozen':
      return fail(
        'machine_refused',
        `${where}: job ${job.jobId} is frozen: ${job.machine.frozen?.message ?? 'no reason'}.`,
        'job',
      );
    default: {
      const unknown: never = job.machine.status;
      throw new Error(`unreachable: machine status ${String(unknown)}`);
    }
  }
}

/** Moves the machine by `outcome`; any refusal (or a cap firing) is `machine_refused`. */
export function step(
  where: string,
  job: PhaseJob,
  outcome: PhaseOutcome,
  now: number,
  reason: string | null,
): Result<Snapshot, WorkflowError> {
  const next = stepMachine(where, PHASE_MACHINE, job.machine, outcome, now, reason);
  if (!next.ok || next.value.status !== 'frozen') return next;
  return fail(
    'machine_refused',
    `${where}: a cap froze the phase controller: ${next.value.frozen?.message ?? ''}`,
    'job.machine',
  );
}

/** Todos of a new phase, all pending. */
export function pending(specs: readonly TodoSpec[]): readonly Todo[] {
  return specs.map(({ id, content }) => ({ id, content, status: 'pending' as const }));
}

/** The job after a step: the changed parts over the old ones, deeply frozen. */
export function nextJob(
  job: PhaseJob,
  patch: Partial<PhaseJob> & { readonly updatedAt: number },
): PhaseJob {
  return deepFreeze({ ...job, signals: [], ...patch });
}

/** The parts of the job a new phase sets. */
export type PhaseFields = Pick<
  PhaseJob,
  'phase' | 'phaseNumber' | 'phaseKind' | 'title' | 'description' | 'todos'
>;

/** The next phase: its number, kind, todos and titles, and the signal announcing it. */
export function enterPhase(
  job: PhaseJob,
  kind: PhaseKind,
  todos: readonly TodoSpec[],
  document: { readonly phase: string | null; readonly description: string | null } | null = null,
): { readonly fields: PhaseFields; readonly started: PhaseSignal } {
  const phase = kind === 'tactical' ? 'tactical' : 'strategic';
  const phaseNumber = job.phaseNumber + 1;
  return {
    fields: {
      phase,
      phaseNumber,
      phaseKind: kind,
      title: document?.phase ?? null,
      description: document?.description ?? null,
      todos: pending(todos),
    },
    started: { type: 'phase_started', phase, phaseNumber, kind },
  };
}
