import type { Result } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import type { ControllerError } from '../controller-error.ts';
import { createPlanningController } from '../planning/planning-controller.ts';
import { initialSnapshot } from './initial-snapshot.ts';
import { machineSnapshotFromJSON } from './machine-snapshot-from-json.ts';
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

const snapshot = ok(
  transition(planningMachine, initialSnapshot(planningMachine, { now: 0 }), {
    outcome: 'sufficient_context',
    now: 10,
    tool: { name: 'probe', args: {}, result: null },
  }),
);
const json = JSON.parse(JSON.stringify(snapshot));

describe('machineSnapshotFromJSON', () => {
  it('reads back text and parsed JSON as an equal, frozen snapshot that keeps working', () => {
    const fromText = ok(machineSnapshotFromJSON(planningMachine, JSON.stringify(snapshot)));
    expect(fromText).toEqual(snapshot);
    expect(Object.isFrozen(fromText.counters.retries)).toBe(true);
    expect(ok(machineSnapshotFromJSON(planningMachine, json))).toEqual(snapshot);
    expect(ok(transition(planningMachine, fromText, { outcome: 'success', now: 20 })).state).toBe(
      'VALIDATE_OUTLINE',
    );
  });

  const cases: [string, unknown, string, string][] = [
    ['malformed JSON', '{"format":', 'snapshot_invalid', 'text'],
    ['a non-object', 42, 'snapshot_invalid', 'format'],
    ['another format', { ...json, format: 'plankit.budget' }, 'snapshot_invalid', 'format'],
    ['an unknown version', { ...json, version: 2 }, 'snapshot_version_unknown', 'version'],
    ['a missing version', { ...json, version: undefined }, 'snapshot_version_unknown', 'version'],
    ['an unknown key', { ...json, extra: 1 }, 'snapshot_invalid', 'value'],
    [
      'a __proto__ key',
      JSON.parse(
        JSON.stringify(json).replace('"format"', '"__proto__":{"polluted":true},"format"'),
      ),
      'snapshot_invalid',
      'value',
    ],
    [
      'a negative turn count',
      { ...json, counters: { ...json.counters, turns: -1 } },
      'snapshot_invalid',
      'counters.turns',
    ],
    [
      'a NaN elapsed time',
      { ...json, counters: { ...json.counters, elapsedMs: Number.NaN } },
      'snapshot_invalid',
      'counters.elapsedMs',
    ],
    [
      'a string cost',
      { ...json, counters: { ...json.counters, costUsd: '0.1' } },
      'snapshot_invalid',
      'counters.costUsd',
    ],
    ['an unknown status', { ...json, status: 'paused' }, 'snapshot_invalid', 'status'],
    [
      'a huge reason',
      { ...json, trace: [{ ...json.trace[0], reason: 'r'.repeat(2001) }] },
      'snapshot_invalid',
      'trace[0].reason',
    ],
    ['another machine', { ...json, machine: 'review' }, 'snapshot_invalid', 'machine'],
    ['an unknown state', { ...json, state: 'DREAMING' }, 'snapshot_invalid', 'state'],
    ['a status the state cannot have', { ...json, status: 'done' }, 'snapshot_invalid', 'status'],
    ['frozen without a freeze', { ...json, status: 'frozen' }, 'snapshot_invalid', 'frozen'],
    [
      'retries of an unknown stage',
      { ...json, counters: { ...json.counters, retries: { NOWHERE: 0 } } },
      'snapshot_invalid',
      'counters.retries.NOWHERE',
    ],
    [
      'an entry with an unknown outcome',
      { ...json, trace: [{ ...json.trace[0], outcome: 'dreamt' }] },
      'snapshot_invalid',
      'trace[0].outcome',
    ],
    ['an updatedAt before startedAt', { ...json, updatedAt: -1 }, 'snapshot_invalid', 'updatedAt'],
    [
      'an updatedAt before the last step, whose next step replay would refuse',
      { ...json, updatedAt: 5 },
      'snapshot_invalid',
      'updatedAt',
    ],
    [
      'a step before startedAt',
      { ...json, trace: [{ ...json.trace[0], at: -1 }] },
      'snapshot_invalid',
      'trace[0].at',
    ],
    ['a time no Date holds', { ...json, startedAt: -1e300 }, 'snapshot_invalid', 'startedAt'],
  ];

  it('refuses counters and a position the trace does not account for', () => {
    const costly = ok(
      transition(planningMachine, snapshot, {
        outcome: 'success',
        now: 20,
        costUsd: 0.25,
        tokens: 1200,
      }),
    );
    const data = JSON.parse(JSON.stringify(costly));
    expect(ok(machineSnapshotFromJSON(planningMachine, data))).toEqual(costly);
    const message = (change: (d: typeof data) => void) => {
      const copy = JSON.parse(JSON.stringify(data));
      change(copy);
      const error = err(machineSnapshotFromJSON(planningMachine, copy));
      expect(error.code).toBe('snapshot_invalid');
      return `${error.field}: ${error.message}`;
    };
    expect(message((d) => (d.counters.tokens = 0))).toBe(
      "counters.tokens: machineSnapshotFromJSON: snapshot counters.tokens is 0, but the trace's steps add up to 1200.",
    );
    expect(message((d) => (d.counters.costUsd = 0))).toBe(
      "counters.costUsd: machineSnapshotFromJSON: snapshot counters.costUsd is 0, but the trace's steps add up to 0.25.",
    );
    expect(message((d) => (d.counters.run = 2))).toBe(
      "counters.run: machineSnapshotFromJSON: snapshot counters.run is 2, but the trace's last step is in run 1.",
    );
    expect(message((d) => (d.state = 'COLLECT_CONTEXT'))).toBe(
      `state: machineSnapshotFromJSON: snapshot state is COLLECT_CONTEXT, but the trace's last step went to ${costly.state}.`,
    );
  });

  it('words each time-order rule on its own', () => {
    const message = (input: unknown) =>
      err(machineSnapshotFromJSON(planningMachine, input)).message;
    expect(message({ ...json, updatedAt: -1 })).toMatch(
      /updatedAt must not be earlier than startedAt\.$/,
    );
    expect(message({ ...json, updatedAt: 5 })).toMatch(
      /updatedAt must not be earlier than the last step in the trace\.$/,
    );
    expect(message({ ...json, trace: [{ ...json.trace[0], at: -1 }] })).toMatch(
      /trace\[0\]\.at must not be earlier than startedAt or the step before\.$/,
    );
  });

  it.each(cases)('refuses %s, naming the field', (_, input, code, field) => {
    const error = err(machineSnapshotFromJSON(planningMachine, input));
    expect(error.code).toBe(code);
    expect(error.field).toBe(field);
  });

  it('never lets a __proto__ key reach a prototype', () => {
    const read = machineSnapshotFromJSON(
      planningMachine,
      JSON.stringify(json).replace(
        '"COLLECT_CONTEXT":0',
        '"__proto__":{"polluted":1},"COLLECT_CONTEXT":0',
      ),
    );
    if (read.ok) expect(Object.getPrototypeOf(read.value.counters.retries)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('refuses a value that is not a machine', () => {
    expect(() => machineSnapshotFromJSON({} as never, json)).toThrow(
      /must be made by defineMachine/,
    );
  });
});
