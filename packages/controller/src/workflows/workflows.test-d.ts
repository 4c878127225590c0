import { type Result, type Session, selectLatest, type Tool } from '@plankit/core';
import { describe, expectTypeOf, it } from 'vitest';
import type { Machine } from '../engine/machine.ts';
import { transition } from '../engine/transition.ts';
import { completeTodo } from './phases/complete-todo.ts';
import { createPhaseTools, type TodoCompleteParams } from './phases/create-phase-tools.ts';
import { type PhaseOutcome, type PhaseStage, phaseController } from './phases/phase-controller.ts';
import { PhaseJob } from './phases/phase-job.ts';
import type { PhaseSignal } from './phases/phase-signal.ts';
import type { WorkflowError } from './workflow-error.ts';
import {
  type WorkshopOutcome,
  type WorkshopStage,
  workshopMachine,
} from './workshop/workshop-machine.ts';
import { workshopRound } from './workshop/workshop-round.ts';
import type { WorkshopState } from './workshop/workshop-state.ts';

declare const job: PhaseJob;
declare const session: Session;
declare const state: WorkshopState;

describe('workflow types', () => {
  it('the machines name their states and outcomes', () => {
    expectTypeOf(phaseController).toEqualTypeOf<Machine<PhaseStage, PhaseOutcome>>();
    expectTypeOf(workshopMachine).toEqualTypeOf<Machine<WorkshopStage, WorkshopOutcome>>();
    expectTypeOf(job.machine.state).toEqualTypeOf<PhaseStage>();
    // @ts-expect-error: the phase controller has no such outcome
    transition(phaseController, job.machine, { outcome: 'approved', now: 1 });
  });

  it('steps return results with workflow errors', () => {
    expectTypeOf(completeTodo(job, { id: 1, now: 1 })).toEqualTypeOf<
      Result<PhaseJob, WorkflowError>
    >();
    expectTypeOf(workshopRound(state, { now: 1, entries: [] })).toEqualTypeOf<
      Result<WorkshopState, WorkflowError>
    >();
    // @ts-expect-error: todo ids are numbers
    completeTodo(job, { id: '1', now: 1 });
    // @ts-expect-error: the seed's signals only
    workshopRound(state, { now: 1, entries: [], signals: { ready: true } });
  });

  it('signals narrow on their type', () => {
    const describe = (signal: PhaseSignal): string => {
      switch (signal.type) {
        case 'handoff_rejected':
          expectTypeOf(signal.message).toBeString();
          return signal.reason;
        case 'phase_archived':
          expectTypeOf(signal.archive.phaseNumber).toBeNumber();
          return signal.path;
        case 'todos_consumed':
          expectTypeOf(signal.archivePath).toEqualTypeOf<string | null>();
          return signal.action;
        case 'phase_started':
        case 'history_reset':
        case 'review_pending':
        case 'review_feedback':
        case 'review_limit_reached':
        case 'job_completed':
          return signal.type;
        default: {
          const unknown: never = signal;
          return unknown;
        }
      }
    };
    expectTypeOf(describe).returns.toBeString();
  });

  it('jobs live in sessions and tools are typed', () => {
    expectTypeOf(selectLatest(session, PhaseJob)).toEqualTypeOf<PhaseJob | undefined>();
    const [todoComplete] = createPhaseTools(session, { files: {} as never });
    expectTypeOf(todoComplete).toEqualTypeOf<Tool<TodoCompleteParams, PhaseJob>>();
  });
});
