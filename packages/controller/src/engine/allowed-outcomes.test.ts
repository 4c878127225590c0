import type { Result } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import type { ControllerError } from '../controller-error.ts';
import { createPlanningController } from '../planning/planning-controller.ts';
import { allowedOutcomes } from './allowed-outcomes.ts';
import { initialSnapshot } from './initial-snapshot.ts';
import { reportCap } from './report-cap.ts';
import { transition } from './transition.ts';

const planningMachine = createPlanningController();

function ok<T>(result: Result<T, ControllerError>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

describe('allowedOutcomes', () => {
  it('lists what the current state accepts, in definition order', () => {
    const snapshot = initialSnapshot(planningMachine, { now: 0 });
    expect(allowedOutcomes(planningMachine, snapshot)).toEqual([
      'sufficient_context',
      'needs_clarification',
      'fatal_error',
      'stalled',
    ]);
  });

  it('is empty when done or frozen', () => {
    const start = initialSnapshot(planningMachine, { now: 0 });
    const done = ok(transition(planningMachine, start, { outcome: 'fatal_error', now: 1 }));
    expect(allowedOutcomes(planningMachine, done)).toEqual([]);
    const freezing = createPlanningController({ freezeOn: ['costUsd'] });
    const frozen = ok(
      reportCap(freezing, initialSnapshot(freezing, { now: 0 }), { cap: 'costUsd', now: 1 }),
    );
    expect(allowedOutcomes(freezing, frozen)).toEqual([]);
  });

  it('throws for a snapshot of another machine', () => {
    const other = { ...initialSnapshot(planningMachine, { now: 0 }), machine: 'other' };
    expect(() => allowedOutcomes(planningMachine, other)).toThrow(/belongs to machine "other"/);
  });
});
