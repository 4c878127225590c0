import type { Result } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import type { ControllerError } from '../controller-error.ts';
import { createPlanningController } from '../planning/planning-controller.ts';
import { defineMachine, type MachineDefinition } from './define-machine.ts';
import { initialSnapshot } from './initial-snapshot.ts';
import type { Machine } from './machine.ts';
import { machineSnapshotFromJSON } from './machine-snapshot-from-json.ts';
import { replay } from './replay.ts';
import { transition } from './transition.ts';

const planningMachine = createPlanningController();

function ok<T>(result: Result<T, ControllerError>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

function err<T>(result: Result<T, ControllerError>): ControllerError {
  if (result.ok) throw new Error('expected a failure');
  return result.error;
}

function planned() {
  let snapshot = initialSnapshot(planningMachine, { now: 0 });
  const events = [
    {
      outcome: 'sufficient_context',
      now: 1000,
      confidence: 0.9,
      tool: { name: 'context', args: { q: 1 }, result: 'ok' },
    },
    {
      outcome: 'success',
      now: 2000,
      costUsd: 0.12,
      tokens: 900,
      adaptations: [{ kind: 'pattern', summary: 'Chose milestone_project.' }],
    },
    { outcome: 'invalid_retryable', now: 3000, violations: ['L1: phase without milestone'] },
    { outcome: 'success', now: 4000, reason: 'fixed' },
  ] as const;
  for (const event of events) snapshot = ok(transition(planningMachine, snapshot, event));
  return snapshot;
}

describe('replay', () => {
  it('rebuilds an equal snapshot from the trace and the initial options', () => {
    const snapshot = planned();
    const rebuilt = ok(replay(planningMachine, snapshot.trace, { now: 0 }));
    expect(rebuilt).toEqual(snapshot);
    expect(Object.isFrozen(rebuilt)).toBe(true);
    expect(ok(replay(planningMachine, [], { now: 0 }))).toEqual(
      initialSnapshot(planningMachine, { now: 0 }),
    );
  });

  it('replays a trace read back from JSON', () => {
    const snapshot = planned();
    const trace = JSON.parse(JSON.stringify(snapshot.trace));
    expect(ok(replay(planningMachine, trace, { now: 0 }))).toEqual(snapshot);
  });

  it('names the first entry an edit makes diverge', () => {
    const { trace } = planned();
    const edited = trace.map((entry, index) =>
      index === 2 ? { ...entry, to: 'DRAFT_ROADMAP' as const } : entry,
    );
    const error = err(replay(planningMachine, edited, { now: 0 }));
    expect(error).toMatchObject({ code: 'replay_diverged', field: 'trace[2]' });
    expect(error.message).toBe('replay: trace[2] differs from its recomputation in to.');
  });

  it('reports when a machine changed under the trace, or the options differ', () => {
    const { trace } = planned();
    const stricter = createPlanningController({ caps: { retries: 0 } });
    expect(err(replay(stricter, trace, { now: 0 })).field).toBe('trace[2]');
    expect(err(replay(planningMachine, trace, { now: 500 })).message).toMatch(
      /trace\[0\] differs .* in duration_ms/,
    );
  });

  it('refuses malformed entries and out-of-order times', () => {
    const { trace } = planned();
    expect(err(replay(planningMachine, 'trace' as never, { now: 0 })).code).toBe('input_invalid');
    const broken = [{ ...trace[0], cost_delta: -1 }];
    expect(err(replay(planningMachine, broken as never, { now: 0 }))).toMatchObject({
      code: 'snapshot_invalid',
      field: 'trace[0].cost_delta',
    });
    const early = [trace[0], { ...trace[1], at: 10 }];
    expect(err(replay(planningMachine, early as never, { now: 0 })).message).toMatch(
      /earlier than the step before/,
    );
    const unknown = [{ ...trace[0], outcome: 'approved' }];
    expect(err(replay(planningMachine, unknown as never, { now: 0 })).message).toMatch(
      /no longer applies.*does not accept "approved"/,
    );
  });
});

describe('replay: names that are Object.prototype keys', () => {
  it('keeps replay_diverged under 2,000 characters when the step it quotes failed at length', () => {
    const guarded = (guard: () => boolean) =>
      defineMachine({
        id: 'guarded',
        initial: 'a',
        onCap: { default: 'end' },
        states: { a: { on: { go: { target: 'end', guard } } }, end: { kind: 'final' } },
      });
    const passing = guarded(() => true);
    const { trace } = ok(
      transition(passing, initialSnapshot(passing, { now: 0 }), { outcome: 'go', now: 1 }),
    );
    const throwing = guarded(() => {
      throw new Error('x'.repeat(1 << 20));
    });
    const error = err(replay(throwing, trace, { now: 0 }));
    expect(error).toMatchObject({ code: 'replay_diverged', field: 'trace[0]' });
    expect(error.message).toMatch(/^replay: trace\[0\] no longer applies: guarded: a guard of a/);
    expect(error.message.length).toBeLessThan(2000);
  });

  it('runs, stores and replays a machine whose states and outcomes are named like them', () => {
    // Typed loosely: a state whose `on` leaves out an outcome named like an Object.prototype
    // member meets that member's type in the inferred definition.
    const machine: Machine = defineMachine({
      id: 'constructor',
      initial: 'constructor',
      onCap: { default: 'valueOf' },
      states: {
        constructor: { on: { toString: 'hasOwnProperty', constructor: 'constructor' } },
        hasOwnProperty: { kind: 'wait', on: { valueOf: 'valueOf', isPrototypeOf: 'constructor' } },
        valueOf: { kind: 'final' },
      },
    } as MachineDefinition);
    let snapshot = initialSnapshot(machine, { now: 0 });
    const outcomes = ['constructor', 'toString', 'isPrototypeOf', 'toString', 'valueOf'];
    for (const [index, outcome] of outcomes.entries()) {
      const next = ok(transition(machine, snapshot, { outcome, now: index + 1 }));
      snapshot = ok(machineSnapshotFromJSON(machine, JSON.stringify(next)));
    }
    expect(snapshot).toMatchObject({ state: 'valueOf', status: 'done' });
    expect(snapshot.counters).toMatchObject({ run: 3, totalTurns: 5, retries: { valueOf: 0 } });
    expect(ok(replay(machine, snapshot.trace, { now: 0 }))).toEqual(snapshot);
  });
});
