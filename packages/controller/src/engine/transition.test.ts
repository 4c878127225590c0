import type { Result } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import type { ControllerError } from '../controller-error.ts';
import { defineMachine } from './define-machine.ts';
import { initialSnapshot } from './initial-snapshot.ts';
import { isWrappingUp } from './is-wrapping-up.ts';
import type { MachineSnapshot } from './machine-snapshot.ts';
import { machineSnapshotFromJSON } from './machine-snapshot-from-json.ts';
import { type MachineEvent, transition } from './transition.ts';

function ok<T>(result: Result<T, ControllerError>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

function err<T>(result: Result<T, ControllerError>): ControllerError {
  if (result.ok) throw new Error('expected a failure');
  return result.error;
}

function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

const work = defineMachine({
  id: 'work',
  initial: 'draft',
  caps: { turns: 6, retries: 1, wallTimeMs: 10_000, costUsd: 1, tokens: 1000, stall: 3 },
  soft: { turns: 4, costUsd: 0.5 },
  onCap: { default: 'aborted', retries: 'stuck' },
  states: {
    draft: { on: { done: 'check', again: 'draft', stalled: 'stuck' } },
    check: {
      on: {
        ok: 'review',
        redo: 'draft',
        gated: [
          { target: 'review', guard: ({ confidence }) => (confidence ?? 0) >= 0.7 },
          { target: 'draft', guard: ({ violations }) => violations.length > 0 },
        ],
        boom: {
          target: 'review',
          guard: () => {
            throw new Error('guard broke');
          },
        },
      },
    },
    review: { kind: 'wait', on: { approve: 'done', reject: 'draft' } },
    done: { kind: 'final' },
    stuck: { kind: 'wait', on: { retry: 'draft', give_up: 'aborted' } },
    aborted: { kind: 'final' },
  },
});
type Work = typeof work;
type Snap = MachineSnapshot<
  'draft' | 'check' | 'review' | 'done' | 'stuck' | 'aborted',
  Work['outcomes'][number]
>;

function start(now = 1000): Snap {
  return initialSnapshot(work, { now });
}

function run(snapshot: Snap, events: readonly MachineEvent<Work['outcomes'][number]>[]): Snap {
  let current = snapshot;
  for (const event of events) current = ok(transition(work, current, event));
  return current;
}

describe('initialSnapshot', () => {
  it('starts in the initial state with run 1, the machine limits and an empty trace', () => {
    const snapshot = start(5);
    expect(snapshot).toEqual({
      format: 'plankit.machine-snapshot',
      version: 1,
      machine: 'work',
      state: 'draft',
      status: 'running',
      caps: work.caps,
      soft: work.soft,
      counters: {
        run: 1,
        turns: 0,
        retries: { draft: 0 },
        elapsedMs: 0,
        totalTurns: 0,
        costUsd: 0,
        tokens: 0,
      },
      stall: { tool: null, signature: null, count: 0 },
      frozen: null,
      startedAt: 5,
      updatedAt: 5,
      signals: [],
      trace: [],
    });
    expect(isDeepFrozen(snapshot)).toBe(true);
  });

  it('merges per-session limits and refuses bad options as programmer errors', () => {
    expect(
      initialSnapshot(work, { now: 0, caps: { turns: 9 }, soft: { costUsd: null } }).caps.turns,
    ).toBe(9);
    expect(() => initialSnapshot(work, { now: Number.NaN })).toThrow(
      /options.now must be a finite number/,
    );
    expect(() => initialSnapshot(work, { now: 0, caps: { turns: -1 } })).toThrow(
      /options.caps.turns/,
    );
    expect(() => initialSnapshot(work, { now: 0, colour: 1 } as never)).toThrow(
      /options.colour is not an option/,
    );
    expect(() => initialSnapshot({ id: 'work' } as never, { now: 0 })).toThrow(
      /must be made by defineMachine/,
    );
  });
});

describe('transition', () => {
  it('moves to the target, counts the turn and time, and records one trace entry', () => {
    const before = start();
    const next = ok(
      transition(work, before, {
        outcome: 'done',
        now: 1500,
        confidence: 0.8,
        costUsd: 0.1,
        tokens: 120,
        tool: 'writer',
        violations: ['L1: missing owner'],
        adaptations: [{ kind: 'phase_split', summary: 'Split phase 2 in two.' }],
        reason: 'drafted',
      }),
    );
    expect(next.state).toBe('check');
    expect(next.status).toBe('running');
    expect(next.counters).toEqual({
      run: 1,
      turns: 1,
      retries: { draft: 0, check: 0 },
      elapsedMs: 500,
      totalTurns: 1,
      costUsd: 0.1,
      tokens: 120,
    });
    expect(next.trace).toEqual([
      {
        kind: 'outcome',
        at: 1500,
        run: 1,
        stage: 'draft',
        outcome: 'done',
        from: 'draft',
        to: 'check',
        status: 'running',
        tool: 'writer',
        tool_signature: null,
        duration_ms: 500,
        confidence: 0.8,
        cost_delta: 0.1,
        tokens: 120,
        violations: ['L1: missing owner'],
        adaptations: [
          {
            at: 1500,
            stage: 'draft',
            kind: 'phase_split',
            summary: 'Split phase 2 in two.',
            introduced_by: 'ai_adaptation',
          },
        ],
        reason: 'drafted',
        cap: null,
        caps: null,
        soft: null,
        signals: [],
      },
    ]);
    expect(isDeepFrozen(next)).toBe(true);
    // The snapshot passed in is untouched.
    expect(before.trace).toEqual([]);
    expect(before.state).toBe('draft');
  });

  it('refuses an outcome the state does not accept, listing what it accepts', () => {
    const snapshot = start();
    const error = err(transition(work, snapshot, { outcome: 'approve', now: 2000 }));
    expect(error).toMatchObject({
      code: 'outcome_rejected',
      field: 'event.outcome',
      state: 'draft',
    });
    expect(error.message).toBe(
      'transition: work in draft does not accept "approve"; it accepts done, again, stalled.',
    );
  });

  it('refuses every event once done, and names the final state', () => {
    const done = run(start(), [
      { outcome: 'done', now: 1100 },
      { outcome: 'ok', now: 1200 },
      { outcome: 'approve', now: 1300 },
    ]);
    expect(done.status).toBe('done');
    expect(err(transition(work, done, { outcome: 'approve', now: 1400 }))).toMatchObject({
      code: 'machine_done',
      state: 'done',
    });
  });

  it('takes the first candidate whose guard passes, and refuses when none does', () => {
    const checking = run(start(), [{ outcome: 'done', now: 1100 }]);
    expect(
      ok(transition(work, checking, { outcome: 'gated', now: 1200, confidence: 0.9 })).state,
    ).toBe('review');
    expect(
      ok(transition(work, checking, { outcome: 'gated', now: 1200, violations: ['x'] })).state,
    ).toBe('draft');
    expect(
      err(transition(work, checking, { outcome: 'gated', now: 1200, confidence: 0.1 })),
    ).toMatchObject({
      code: 'guard_rejected',
      state: 'check',
    });
    const broken = err(transition(work, checking, { outcome: 'boom', now: 1200 }));
    expect(broken.code).toBe('guard_rejected');
    expect(broken.message).toMatch(/a guard of check on boom threw: guard broke/);
    expect((broken.cause as Error).message).toBe('guard broke');
  });

  it('reports any throw from a guard as guard_rejected, its message under 2,000 characters', () => {
    const throwing = (cause: unknown) =>
      defineMachine({
        id: 'throwing',
        initial: 'a',
        onCap: { default: 'end' },
        states: {
          a: {
            on: {
              go: {
                target: 'end',
                guard: () => {
                  throw cause;
                },
              },
            },
          },
          end: { kind: 'final' },
        },
      });
    for (const cause of [Object.create(null), new Error('x'.repeat(1 << 20))]) {
      const machine = throwing(cause);
      const error = err(
        transition(machine, initialSnapshot(machine, { now: 0 }), { outcome: 'go', now: 1 }),
      );
      expect(error).toMatchObject({ code: 'guard_rejected', state: 'a' });
      expect(error.message.length).toBeLessThan(2000);
      expect(error.cause).toBe(cause);
    }
  });

  it('quotes what a guard threw in full when it is short, and names a value with no text', () => {
    const throwing = (cause: unknown) =>
      defineMachine({
        id: 'throwing',
        initial: 'a',
        onCap: { default: 'end' },
        states: {
          a: {
            on: {
              go: {
                target: 'end',
                guard: () => {
                  throw cause;
                },
              },
            },
          },
          end: { kind: 'final' },
        },
      });
    const message = (cause: unknown) => {
      const machine = throwing(cause);
      return err(
        transition(machine, initialSnapshot(machine, { now: 0 }), { outcome: 'go', now: 1 }),
      ).message;
    };
    const long = `broke ${'y'.repeat(100)}`;
    expect(message(long)).toBe(`throwing: a guard of a on go threw: ${long}`);
    expect(message(Object.create(null))).toBe(
      'throwing: a guard of a on go threw: a value that cannot be shown',
    );
  });

  it('gives guards the snapshot before the step and the event data', () => {
    const seen: unknown[] = [];
    const machine = defineMachine({
      id: 'spy',
      initial: 'a',
      onCap: { default: 'z' },
      states: {
        a: {
          on: {
            go: {
              target: 'z',
              guard: (input) => {
                seen.push(input);
                return true;
              },
            },
          },
        },
        z: { kind: 'final' },
      },
    });
    const snapshot = initialSnapshot(machine, { now: 0 });
    ok(
      transition(machine, snapshot, {
        outcome: 'go',
        now: 3,
        confidence: 0.5,
        violations: ['v'],
        reason: 'r',
      }),
    );
    expect(seen).toEqual([
      { snapshot, outcome: 'go', now: 3, confidence: 0.5, violations: ['v'], reason: 'r' },
    ]);
  });

  const nasty: [string, unknown, string, RegExp][] = [
    ['a non-object event', 'done', 'event', /must be an object/],
    [
      'an unknown key',
      { outcome: 'done', now: 2000, colour: 'red' },
      'event.colour',
      /not an event key/,
    ],
    [
      'a __proto__ key',
      JSON.parse('{"outcome":"done","now":2000,"__proto__":{"x":1}}'),
      'event.__proto__',
      /not an event key/,
    ],
    ['a non-string outcome', { outcome: 7, now: 2000 }, 'event.outcome', /must be a string/],
    ['a missing now', { outcome: 'done' }, 'event.now', /8.64e15, got undefined/],
    ['NaN now', { outcome: 'done', now: Number.NaN }, 'event.now', /8.64e15, got NaN/],
    [
      'Infinity now',
      { outcome: 'done', now: Number.POSITIVE_INFINITY },
      'event.now',
      /finite number/,
    ],
    [
      'a now before updatedAt',
      { outcome: 'done', now: 999 },
      'event.now',
      /earlier than the snapshot's updatedAt \(1000\)/,
    ],
    [
      'a confidence above 1',
      { outcome: 'done', now: 2000, confidence: 1.01 },
      'event.confidence',
      /from 0 to 1, got 1.01/,
    ],
    [
      'a NaN confidence',
      { outcome: 'done', now: 2000, confidence: Number.NaN },
      'event.confidence',
      /from 0 to 1/,
    ],
    [
      'a string confidence',
      { outcome: 'done', now: 2000, confidence: '0.9' },
      'event.confidence',
      /from 0 to 1/,
    ],
    [
      'a negative cost',
      { outcome: 'done', now: 2000, costUsd: -0.01 },
      'event.costUsd',
      /USD amount >= 0/,
    ],
    [
      'an infinite cost',
      { outcome: 'done', now: 2000, costUsd: Number.POSITIVE_INFINITY },
      'event.costUsd',
      /USD amount/,
    ],
    [
      'fractional tokens',
      { outcome: 'done', now: 2000, tokens: 1.5 },
      'event.tokens',
      /non-negative integer/,
    ],
    [
      'an empty tool name',
      { outcome: 'done', now: 2000, tool: '' },
      'event.tool',
      /1-128 characters/,
    ],
    [
      'a huge tool name',
      { outcome: 'done', now: 2000, tool: 't'.repeat(129) },
      'event.tool',
      /1-128 characters/,
    ],
    [
      'a tool with an unknown key',
      { outcome: 'done', now: 2000, tool: { name: 'x', output: 1 } },
      'event.tool.output',
      /not a tool key/,
    ],
    [
      'tool args that are not JSON',
      { outcome: 'done', now: 2000, tool: { name: 'x', args: { f: () => 1 } } },
      'event.tool',
      /JSON data/,
    ],
    [
      'a tool result with NaN',
      { outcome: 'done', now: 2000, tool: { name: 'x', result: Number.NaN } },
      'event.tool',
      /JSON data/,
    ],
    [
      'a cyclic tool result',
      {
        outcome: 'done',
        now: 2000,
        tool: {
          name: 'x',
          result: (() => {
            const a: Record<string, unknown> = {};
            a['self'] = a;
            return a;
          })(),
        },
      },
      'event.tool',
      /JSON data/,
    ],
    [
      'violations that are not an array',
      { outcome: 'done', now: 2000, violations: 'bad' },
      'event.violations',
      /array of at most 100/,
    ],
    [
      'too many violations',
      { outcome: 'done', now: 2000, violations: Array.from({ length: 101 }, () => 'v') },
      'event.violations',
      /at most 100/,
    ],
    [
      'a huge violation',
      { outcome: 'done', now: 2000, violations: ['v'.repeat(501)] },
      'event.violations[0]',
      /1-500 characters/,
    ],
    [
      'an adaptation without summary',
      { outcome: 'done', now: 2000, adaptations: [{ kind: 'x' }] },
      'event.adaptations[0].summary',
      /1-2000/,
    ],
    [
      'an adaptation by someone unknown',
      {
        outcome: 'done',
        now: 2000,
        adaptations: [{ kind: 'x', summary: 'y', introduced_by: 'alien' }],
      },
      'event.adaptations[0].introduced_by',
      /system, user_feedback or ai_adaptation/,
    ],
    [
      'a huge reason',
      { outcome: 'done', now: 2000, reason: 'r'.repeat(2001) },
      'event.reason',
      /at most 2000/,
    ],
  ];

  it.each(nasty)('refuses %s with input_invalid naming the field', (_, event, field, message) => {
    const error = err(transition(work, start(), event as never));
    expect(error.code).toBe('input_invalid');
    expect(error.field).toBe(field);
    expect(error.message).toMatch(message);
  });

  it('accepts a plain JSON copy of a snapshot, and refuses a tampered one', () => {
    const snapshot = run(start(), [{ outcome: 'done', now: 1100 }]);
    const copy = JSON.parse(JSON.stringify(snapshot));
    expect(ok(transition(work, copy, { outcome: 'ok', now: 1200 })).state).toBe('review');
    const tampered = { ...copy, state: 'nowhere' };
    expect(err(transition(work, tampered, { outcome: 'ok', now: 1200 }))).toMatchObject({
      code: 'snapshot_invalid',
      field: 'state',
    });
    const other = { ...copy, machine: 'other' };
    expect(err(transition(work, other, { outcome: 'ok', now: 1200 })).message).toMatch(
      /belongs to machine "other"/,
    );
    expect(err(transition(work, 'snapshot' as never, { outcome: 'ok', now: 1200 })).code).toBe(
      'snapshot_invalid',
    );
  });
});

describe('caps', () => {
  it('sends a turn past the cap to the target without counting it', () => {
    const machine = defineMachine({
      id: 'loop',
      initial: 'a',
      caps: { turns: 3, retries: null },
      onCap: { default: 'out' },
      states: { a: { on: { next: 'b' } }, b: { on: { next: 'a' } }, out: { kind: 'final' } },
    });
    let snapshot = initialSnapshot(machine, { now: 0 });
    for (let i = 1; i <= 3; i++)
      snapshot = ok(transition(machine, snapshot, { outcome: 'next', now: i }));
    expect(snapshot.counters.turns).toBe(3);
    const capped = ok(transition(machine, snapshot, { outcome: 'next', now: 4 }));
    expect(capped.state).toBe('out');
    expect(capped.counters.turns).toBe(3);
    expect(capped.trace.at(-1)?.cap).toEqual({
      name: 'turns',
      action: 'goto',
      limit: 3,
      value: 4,
      message: 'turns: turn 4 of this run would exceed the cap of 3',
    });
    expect(capped.signals).toEqual([
      { type: 'cap_reached', cap: 'turns', action: 'goto', target: 'out' },
    ]);
  });

  it('counts re-entries of a stage as retries and caps them, a self-transition included', () => {
    const retried = run(start(), [
      { outcome: 'done', now: 1100 },
      { outcome: 'redo', now: 1200 },
    ]);
    expect(retried.counters.retries).toEqual({ draft: 1, check: 0 });
    const capped = ok(transition(work, retried, { outcome: 'again', now: 1300 }));
    expect(capped.state).toBe('stuck');
    expect(capped.trace.at(-1)?.cap?.message).toBe(
      'retries: entering draft again would be retry 2 in this run, over the cap of 1',
    );
    expect(capped.counters.retries).toEqual({ draft: 1, check: 0 });
  });

  it("uses a state's own retry limit over the machine's", () => {
    const machine = defineMachine({
      id: 'rounds',
      initial: 'workshop',
      caps: { retries: 0 },
      onCap: { default: 'stop' },
      states: {
        workshop: { retries: 3, on: { round: 'workshop', stable: 'stop' } },
        stop: { kind: 'final' },
      },
    });
    let snapshot = initialSnapshot(machine, { now: 0 });
    for (let i = 1; i <= 3; i++)
      snapshot = ok(transition(machine, snapshot, { outcome: 'round', now: i }));
    expect(snapshot.counters.retries).toEqual({ workshop: 3 });
    expect(
      ok(transition(machine, snapshot, { outcome: 'round', now: 4 })).trace.at(-1)?.cap?.name,
    ).toBe('retries');
  });

  it('charges wall time in work states only, and caps it', () => {
    const slow = ok(transition(work, start(0), { outcome: 'done', now: 10_001 }));
    expect(slow.state).toBe('aborted');
    expect(slow.counters.elapsedMs).toBe(10_001);
    expect(slow.trace.at(-1)?.cap).toMatchObject({
      name: 'wallTimeMs',
      limit: 10_000,
      value: 10_001,
    });
    const onTime = ok(transition(work, start(0), { outcome: 'done', now: 10_000 }));
    expect(onTime.state).toBe('check');
  });

  it('caps session cost and tokens once the event takes them over', () => {
    const costly = ok(transition(work, start(), { outcome: 'done', now: 1001, costUsd: 1.000001 }));
    expect(costly.trace.at(-1)?.cap?.message).toBe(
      'costUsd: 1.000001 USD spent in this session, over the cap of 1 USD',
    );
    expect(ok(transition(work, start(), { outcome: 'done', now: 1001, costUsd: 1 })).state).toBe(
      'check',
    );
    const wordy = ok(transition(work, start(), { outcome: 'done', now: 1001, tokens: 1001 }));
    expect(wordy.trace.at(-1)?.cap?.name).toBe('tokens');
  });

  it('sums costs in micro-dollars, so they never drift', () => {
    const free = defineMachine({
      id: 'free',
      initial: 'a',
      caps: { retries: null, turns: null },
      onCap: { default: 'z' },
      states: { a: { on: { again: 'a' } }, z: { kind: 'final' } },
    });
    let snapshot = initialSnapshot(free, { now: 0 });
    for (let i = 1; i <= 3; i++)
      snapshot = ok(transition(free, snapshot, { outcome: 'again', now: i, costUsd: 0.1 }));
    // 0.1 + 0.1 + 0.1 is 0.30000000000000004 in floating point.
    expect(snapshot.counters.costUsd).toBe(0.3);
    expect(snapshot.state).toBe('a');
  });
});

describe('stall detection', () => {
  const call = (now: number, result: unknown = 'same') => ({
    outcome: 'again' as const,
    now,
    tool: { name: 'search', args: { q: 'x' }, result },
  });
  const loose = defineMachine({
    id: 'loose',
    initial: 'a',
    caps: { retries: null, stall: 2 },
    onCap: { default: 'halt' },
    states: { a: { on: { again: 'a' } }, halt: { kind: 'final' } },
  });

  it('counts identical signatures in a row; another signature or none restarts the count', () => {
    const patient = defineMachine({
      id: 'patient',
      initial: 'a',
      caps: { retries: null, stall: 3 },
      onCap: { default: 'halt' },
      states: { a: { on: { again: 'a' } }, halt: { kind: 'final' } },
    });
    const first = ok(transition(patient, initialSnapshot(patient, { now: 0 }), call(1)));
    const twice = ok(transition(patient, first, call(2)));
    expect(twice.stall).toMatchObject({ tool: 'search', count: 2 });
    expect(twice.state).toBe('a');
    const changed = ok(transition(patient, twice, call(3, 'different')));
    expect(changed.stall.count).toBe(1);
    const nameOnly = ok(transition(patient, twice, { outcome: 'again', now: 3, tool: 'search' }));
    expect(nameOnly.stall).toEqual({ tool: null, signature: null, count: 0 });
    const none = ok(transition(patient, twice, { outcome: 'again', now: 3 }));
    expect(none.stall.count).toBe(0);
    expect(ok(transition(patient, twice, call(3))).state).toBe('halt');
  });

  it('routes the stall through the state when it accepts stalled', () => {
    const machine = defineMachine({
      id: 'stall-route',
      initial: 'a',
      caps: { retries: null, stall: 3 },
      onCap: { default: 'halt' },
      states: {
        a: { on: { again: 'a', stalled: 'help' } },
        help: { kind: 'wait', on: { go: 'a' } },
        halt: { kind: 'final' },
      },
    });
    let snapshot = initialSnapshot(machine, { now: 0 });
    for (let i = 1; i <= 3; i++) snapshot = ok(transition(machine, snapshot, call(i)));
    expect(snapshot.state).toBe('help');
    expect(snapshot.stall.count).toBe(0);
    expect(snapshot.counters.turns).toBe(3);
    expect(snapshot.signals).toEqual([{ type: 'stalled', tool: 'search', repeats: 3 }]);
    expect(snapshot.trace.at(-1)?.cap).toMatchObject({ name: 'stall', action: 'route', value: 3 });
  });

  it("falls back to the stall cap's target when the state does not route it", () => {
    const halted = ok(
      transition(
        loose,
        ok(transition(loose, initialSnapshot(loose, { now: 0 }), call(1))),
        call(2),
      ),
    );
    expect(halted.state).toBe('halt');
    expect(halted.signals).toEqual([
      { type: 'stalled', tool: 'search', repeats: 2 },
      { type: 'cap_reached', cap: 'stall', action: 'goto', target: 'halt' },
    ]);
    expect(halted.trace.at(-1)?.cap?.message).toBe(
      'stall: search was called 2 times in a row with the same arguments and result',
    );
  });

  it('gives the same signature to equal data whatever the key order', () => {
    const first = ok(
      transition(loose, initialSnapshot(loose, { now: 0 }), {
        ...call(1),
        tool: { name: 's', args: { a: 1, b: [1, { c: 2, d: 3 }] } },
      }),
    );
    const second = ok(
      transition(loose, first, {
        ...call(2),
        tool: { name: 's', args: { b: [1, { d: 3, c: 2 }], a: 1 } },
      }),
    );
    expect(second.trace[0]?.tool_signature).toMatch(/^[0-9a-f]{14}$/);
    expect(second.trace[0]?.tool_signature).toBe(first.trace[0]?.tool_signature);
    expect(second.state).toBe('halt');
  });
});

describe('soft limits', () => {
  it('raises wrap_up once, on the step that reaches the soft turn limit', () => {
    const three = run(start(), [
      { outcome: 'done', now: 1001 },
      { outcome: 'redo', now: 1002 },
      { outcome: 'done', now: 1003 },
    ]);
    expect(three.signals).toEqual([]);
    expect(isWrappingUp(three)).toBe(false);
    const four = ok(transition(work, three, { outcome: 'ok', now: 1004 }));
    expect(four.signals).toEqual([{ type: 'wrap_up', limit: 'turns', value: 4, threshold: 4 }]);
    expect(isWrappingUp(four)).toBe(true);
  });

  it('raises wrap_up when the session cost reaches the soft limit', () => {
    const cheap = ok(transition(work, start(), { outcome: 'done', now: 1001, costUsd: 0.49 }));
    expect(cheap.signals).toEqual([]);
    const dear = ok(transition(work, cheap, { outcome: 'redo', now: 1002, costUsd: 0.01 }));
    expect(dear.signals).toEqual([
      { type: 'wrap_up', limit: 'costUsd', value: 0.5, threshold: 0.5 },
    ]);
    const more = ok(transition(work, dear, { outcome: 'done', now: 1003, costUsd: 0.01 }));
    expect(more.signals).toEqual([]);
    expect(isWrappingUp(more)).toBe(true);
  });

  it('refuses a value that is not a snapshot', () => {
    expect(() => isWrappingUp(null as never)).toThrow(/must be a machine snapshot/);
  });
});

describe('runs and waiting', () => {
  it('starts a machine whose initial state waits as waiting, and its first answer starts run 2', () => {
    const inbox = defineMachine({
      id: 'inbox',
      initial: 'waiting_for_brief',
      onCap: { default: 'closed' },
      states: {
        waiting_for_brief: { kind: 'wait', on: { brief: 'drafting' } },
        drafting: { on: { done: 'closed' } },
        closed: { kind: 'final' },
      },
    });
    const start = initialSnapshot(inbox, { now: 0 });
    expect(start.status).toBe('waiting');
    const next = ok(transition(inbox, start, { outcome: 'brief', now: 3_600_000 }));
    expect(next.counters).toMatchObject({
      run: 2,
      turns: 1,
      elapsedMs: 0,
      retries: { drafting: 0 },
    });
  });

  it('starts a new run when leaving a wait state, without charging the wait', () => {
    const waiting = run(start(0), [
      { outcome: 'done', now: 1000 },
      { outcome: 'redo', now: 2000 },
      { outcome: 'done', now: 3000 },
      { outcome: 'ok', now: 4000 },
    ]);
    expect(waiting.status).toBe('waiting');
    expect(waiting.counters).toMatchObject({ run: 1, turns: 4, elapsedMs: 4000 });
    // A person answers a day later.
    const back = ok(transition(work, waiting, { outcome: 'reject', now: 86_400_000 }));
    expect(back.state).toBe('draft');
    expect(back.counters).toEqual({
      run: 2,
      turns: 1,
      retries: { draft: 0 },
      elapsedMs: 0,
      totalTurns: 5,
      costUsd: 0,
      tokens: 0,
    });
    expect(back.trace.at(-1)).toMatchObject({ run: 2, duration_ms: 86_396_000 });
  });
});

describe('transition: deep JSON', () => {
  it('signs deeply nested tool args and results without throwing', () => {
    let deep: unknown = 0;
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const next = transition(work, start(), {
      outcome: 'done',
      now: 1500,
      tool: { name: 'writer', args: deep, result: { deep } },
    });
    expect(next.ok).toBe(true);
  });
});

describe('transition: times a Date cannot hold', () => {
  it('refuses a now beyond +-8.64e15 ms, so durations and run time stay finite and storable', () => {
    expect(() => initialSnapshot(work, { now: -1e308 })).toThrow(/options.now/);
    const error = err(transition(work, start(), { outcome: 'done', now: 1e308 }));
    expect(error).toMatchObject({ code: 'input_invalid', field: 'event.now' });
    expect(error.message).toMatch(/epoch milliseconds within \+-8.64e15, got 1e\+308/);
    const early = initialSnapshot(work, { now: -8.64e15 });
    const late = ok(transition(work, early, { outcome: 'done', now: 8.64e15 }));
    expect(Number.isFinite(late.counters.elapsedMs)).toBe(true);
  });
});

describe('transition: session totals a snapshot cannot store', () => {
  const open = defineMachine({
    id: 'open',
    initial: 'work',
    caps: { turns: null, retries: null, wallTimeMs: null },
    onCap: { default: 'end' },
    states: { work: { on: { again: 'work', stop: 'end' } }, end: { kind: 'final' } },
  });

  it('refuses tokens or costs that would take a total past what a snapshot reads back', () => {
    const first = ok(
      transition(open, initialSnapshot(open, { now: 0 }), {
        outcome: 'again',
        now: 1,
        tokens: Number.MAX_SAFE_INTEGER,
        costUsd: 1e9,
      }),
    );
    const tokens = err(transition(open, first, { outcome: 'again', now: 2, tokens: 1 }));
    expect(tokens).toMatchObject({ code: 'input_invalid', field: 'event.tokens' });
    expect(tokens.message).toBe(
      "transition: event.tokens would take the session's tokens past 9007199254740991, more than a snapshot stores.",
    );
    let snapshot = first;
    for (let now = 2; now < 10; now++) {
      snapshot = ok(transition(open, snapshot, { outcome: 'again', now, costUsd: 1e9 }));
    }
    expect(snapshot.counters.costUsd).toBe(9e9);
    const over = err(transition(open, snapshot, { outcome: 'again', now: 10, costUsd: 0.000001 }));
    expect(over).toMatchObject({ code: 'input_invalid', field: 'event.costUsd' });
    expect(over.message).toMatch(
      /^transition: event\.costUsd would take the session's cost to 9000000000\.\d+ USD, over the 9000000000 USD a snapshot stores\.$/,
    );
    expect(machineSnapshotFromJSON(open, JSON.stringify(snapshot)).ok).toBe(true);
  });

  it('still takes free events on a stored snapshot whose total is already past that line', () => {
    let snapshot = initialSnapshot(open, { now: 0 });
    for (let now = 1; now < 10; now++) {
      snapshot = ok(transition(open, snapshot, { outcome: 'again', now, costUsd: 1e9 }));
    }
    // Stored by a build with a looser line: the counter and its trace agree, past 9e9.
    const stored = JSON.parse(JSON.stringify(snapshot));
    stored.trace.at(-1).cost_delta = 1_005_000_000;
    stored.counters.costUsd = 9_005_000_000;
    const read = ok(machineSnapshotFromJSON(open, stored));
    expect(ok(transition(open, read, { outcome: 'again', now: 10 })).counters.costUsd).toBe(
      9.005e9,
    );
    expect(err(transition(open, read, { outcome: 'again', now: 10, costUsd: 1 }))).toMatchObject({
      field: 'event.costUsd',
    });
  });
});

describe('transition: quoting what it refuses', () => {
  it('clips a long outcome it quotes without splitting a surrogate pair', () => {
    const machine = defineMachine({
      id: 'short',
      initial: 'work',
      onCap: { default: 'end' },
      states: { work: { on: { done: 'end' } }, end: { kind: 'final' } },
    });
    // The pair sits where a 40-character quote is cut (code units 36 and 37).
    const outcome = `${'a'.repeat(36)}\u{1F600}${'b'.repeat(20)}`;
    const error = err(
      transition(machine, initialSnapshot(machine, { now: 0 }), {
        outcome: outcome as never,
        now: 1,
      }),
    );
    expect(error.message).toContain(`does not accept "${'a'.repeat(36)}..."`);
    expect(error.message).not.toMatch(/\\ud83d/);
  });
});

describe('transition: a state with many outcomes', () => {
  it('keeps outcome_rejected under 2,000 characters however long the list it accepts', () => {
    const on: Record<string, string> = {};
    for (let i = 0; i < 60; i++) on[`outcome_${i}_${'x'.repeat(50)}`] = 'end';
    const machine = defineMachine({
      id: 'many',
      initial: 'work',
      onCap: { default: 'end' },
      states: { work: { on }, end: { kind: 'final' } },
    } as never);
    const error = err(
      transition(machine, initialSnapshot(machine, { now: 0 }), {
        outcome: 'nope' as never,
        now: 1,
      }),
    );
    expect(error).toMatchObject({ code: 'outcome_rejected', field: 'event.outcome' });
    expect(error.message).toMatch(/^transition: many in work does not accept "nope"; it accepts /);
    expect(error.message.length).toBeLessThan(2000);
  });
});
