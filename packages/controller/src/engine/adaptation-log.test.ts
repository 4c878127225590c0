import type { Result } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import type { ControllerError } from '../controller-error.ts';
import { createPlanningController } from '../planning/planning-controller.ts';
import { adaptationLog } from './adaptation-log.ts';
import { initialSnapshot } from './initial-snapshot.ts';
import { transition } from './transition.ts';

const planningMachine = createPlanningController();

function ok<T>(result: Result<T, ControllerError>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

describe('adaptationLog', () => {
  it('lists the adaptations of every step, oldest first, with when and where', () => {
    let snapshot = initialSnapshot(planningMachine, { now: 0 });
    expect(adaptationLog(snapshot)).toEqual([]);
    snapshot = ok(
      transition(planningMachine, snapshot, {
        outcome: 'sufficient_context',
        now: 5,
        adaptations: [
          {
            kind: 'scope',
            summary: 'Dropped the marketing track.',
            introduced_by: 'user_feedback',
          },
        ],
      }),
    );
    snapshot = ok(transition(planningMachine, snapshot, { outcome: 'success', now: 6 }));
    snapshot = ok(
      transition(planningMachine, snapshot, {
        outcome: 'invalid_retryable',
        now: 7,
        adaptations: [
          { kind: 'pattern_changed', summary: 'milestone_project to hybrid_project_cycle.' },
        ],
      }),
    );
    expect(adaptationLog(snapshot)).toEqual([
      {
        at: 5,
        stage: 'COLLECT_CONTEXT',
        kind: 'scope',
        summary: 'Dropped the marketing track.',
        introduced_by: 'user_feedback',
      },
      {
        at: 7,
        stage: 'VALIDATE_OUTLINE',
        kind: 'pattern_changed',
        summary: 'milestone_project to hybrid_project_cycle.',
        introduced_by: 'ai_adaptation',
      },
    ]);
  });
});
