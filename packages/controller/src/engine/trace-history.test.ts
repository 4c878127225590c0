import { describe, expect, it } from 'vitest';
import { defineMachine } from './define-machine.ts';
import { initialSnapshot } from './initial-snapshot.ts';
import { SHORT_TRACE, traceCopies } from './internal/trace-log.ts';
import type { MachineSnapshot } from './machine-snapshot.ts';
import { machineSnapshotFromJSON } from './machine-snapshot-from-json.ts';
import { replay } from './replay.ts';
import { transition } from './transition.ts';

const pingPong = defineMachine({
  id: 'ping-pong',
  initial: 'ping',
  onCap: { default: 'stopped' },
  states: {
    ping: { on: { next: 'pong' } },
    pong: { on: { next: 'ping' } },
    stopped: { kind: 'final' },
  },
});
const NO_CAPS = {
  turns: null,
  retries: null,
  wallTimeMs: null,
  costUsd: null,
  tokens: null,
  stall: null,
} as const;

function step(snapshot: MachineSnapshot, now: number, tool?: string): MachineSnapshot {
  const next = transition(pingPong, snapshot, {
    outcome: 'next',
    now,
    ...(tool === undefined ? {} : { tool }),
  });
  if (!next.ok) throw next.error;
  return next.value;
}

function session(length: number): MachineSnapshot {
  let snapshot: MachineSnapshot = initialSnapshot(pingPong, { now: 0, caps: NO_CAPS });
  // Every third step takes the general path (a tool), the rest the fast path.
  for (let i = 0; i < length; i++) snapshot = step(snapshot, i, i % 3 === 0 ? 'search' : undefined);
  return snapshot;
}

describe('a transition does not copy the trace', () => {
  it('appends in O(1): a long session copies no trace entry until the trace is read', () => {
    const before = traceCopies.entries;
    let long = session(1000);
    // Only the short start is copied, each step at most SHORT_TRACE entries.
    expect(traceCopies.entries - before).toBeLessThan(SHORT_TRACE * SHORT_TRACE);
    const later = traceCopies.entries;
    for (let i = 1000; i < 5000; i++) long = step(long, i, i % 3 === 0 ? 'search' : undefined);
    expect(traceCopies.entries - later).toBe(0);
    expect(long.trace).toHaveLength(5000);
    expect(long.trace.map((entry) => entry.at)).toEqual([...Array(5000).keys()]);
    // Read once per snapshot, then cached.
    expect(long.trace).toBe(long.trace);
  });

  it.each([5, 70])(
    'keeps every version exact when two steps branch from one of %i steps',
    (length) => {
      const base = session(length);
      const left = step(base, 100, 'left');
      const right = step(base, 200, 'right');
      const leftAgain = step(left, 300);
      expect(base.trace).toHaveLength(length);
      expect(left.trace.map((entry) => entry.tool).slice(length)).toEqual(['left']);
      expect(right.trace.map((entry) => entry.tool).slice(length)).toEqual(['right']);
      expect(leftAgain.trace.slice(length).map((entry) => entry.at)).toEqual([100, 300]);
      expect(right.trace.slice(0, length)).toEqual(base.trace);
    },
  );

  it.each([
    ['short (a frozen array)', 10],
    ['long (the log)', SHORT_TRACE + 10],
  ])(
    'a %s trace looks like a plain frozen snapshot to JSON, spread, equality and structuredClone',
    (_, length) => {
      const snapshot = session(length);
      const parsed = JSON.parse(JSON.stringify(snapshot)) as MachineSnapshot;
      expect(Object.keys(snapshot)).toEqual(Object.keys(parsed));
      expect(Object.keys(snapshot).at(-1)).toBe('trace');
      expect(snapshot).toStrictEqual(parsed);
      expect(parsed).toStrictEqual(snapshot);
      expect({ ...snapshot }).toStrictEqual(parsed);
      expect(structuredClone(snapshot)).toStrictEqual(parsed);
      expect(Object.isFrozen(snapshot) && Object.isFrozen(snapshot.trace)).toBe(true);
      expect(Object.getOwnPropertyDescriptor(snapshot, 'trace')?.enumerable).toBe(true);
      expect(() => {
        (snapshot as { trace: unknown }).trace = [];
      }).toThrow(TypeError);
    },
  );

  it.each([10, 200])('continues a session of %i steps read from JSON and replays it', (length) => {
    const snapshot = session(length);
    const read = machineSnapshotFromJSON(pingPong, JSON.stringify(snapshot));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.value).toEqual(snapshot);
    const next = step(read.value, 1000);
    expect(next.trace).toEqual([...snapshot.trace, next.trace[length]]);
    expect(JSON.stringify(step(snapshot, 1000))).toBe(JSON.stringify(next));
    const before = traceCopies.entries;
    const rebuilt = replay(pingPong, next.trace, { now: 0, caps: NO_CAPS });
    // Replay checks each step against the newest entry only, never the whole trace.
    expect(traceCopies.entries - before).toBeLessThan(SHORT_TRACE * SHORT_TRACE);
    expect(rebuilt.ok && JSON.stringify(rebuilt.value)).toBe(JSON.stringify(next));
  });
});
