import { describe, expect, it } from 'vitest';
import { ControllerError } from '../controller-error.ts';
import { DEFAULT_CAPS } from './default-caps.ts';
import { defineMachine, type MachineDefinition } from './define-machine.ts';

const base = {
  id: 'review',
  initial: 'draft',
  onCap: { default: 'aborted' },
  states: {
    draft: { on: { done: 'pending_review' } },
    pending_review: {
      kind: 'wait',
      description: 'a person reads the plan',
      on: { approve: 'approved', request_changes: 'draft' },
    },
    approved: { kind: 'final' },
    aborted: { kind: 'final' },
  },
} as const;

function definitionError(definition: unknown): ControllerError {
  try {
    defineMachine(definition as MachineDefinition<string, string>);
  } catch (error) {
    if (ControllerError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected defineMachine to throw');
}

function withState(name: string, state: unknown): unknown {
  return { ...base, states: { ...base.states, [name]: state } };
}

describe('defineMachine', () => {
  it('normalises a definition into a frozen machine', () => {
    const machine = defineMachine(base);
    expect(machine.id).toBe('review');
    expect(machine.initial).toBe('draft');
    expect(machine.stateNames).toEqual(['draft', 'pending_review', 'approved', 'aborted']);
    expect(machine.outcomes).toEqual(['done', 'approve', 'request_changes']);
    expect(machine.states.pending_review).toEqual({
      kind: 'wait',
      outcomes: ['approve', 'request_changes'],
      on: {
        approve: [{ target: 'approved', guard: null }],
        request_changes: [{ target: 'draft', guard: null }],
      },
      description: 'a person reads the plan',
    });
    expect(machine.states.approved).toEqual({
      kind: 'final',
      outcomes: [],
      on: {},
      description: null,
    });
    expect(machine.caps).toEqual(DEFAULT_CAPS);
    expect(machine.soft).toEqual({ turns: null, costUsd: null });
    expect(machine.onCap).toEqual({ default: 'aborted' });
    expect(machine.freezeOn).toEqual([]);
    expect(Object.isFrozen(machine)).toBe(true);
    expect(Object.isFrozen(machine.states.pending_review.on)).toBe(true);
  });

  it('keeps guarded candidates in order, names their guards, and merges caps and soft limits', () => {
    const machine = defineMachine({
      id: 'guards',
      initial: 'a',
      caps: { turns: 3, costUsd: 1.5 },
      soft: { turns: 2 },
      onCap: { default: 'stop', retries: 'stop' },
      freezeOn: ['costUsd'],
      states: {
        a: {
          retries: 5,
          on: {
            go: [
              {
                target: 'b',
                guard: function sure() {
                  return true;
                },
              },
              { target: 'stop', guard: () => false },
              'a',
            ],
          },
        },
        b: { on: { back: 'a' }, retries: null },
        stop: { kind: 'final' },
      },
    });
    expect(machine.states.a.on.go).toEqual([
      { target: 'b', guard: 'sure' },
      { target: 'stop', guard: 'guard' },
      { target: 'a', guard: null },
    ]);
    expect(machine.states.a.retries).toBe(5);
    expect(machine.states.b.retries).toBeNull();
    expect(machine.caps).toEqual({ ...DEFAULT_CAPS, turns: 3, costUsd: 1.5 });
    expect(machine.soft).toEqual({ turns: 2, costUsd: null });
    expect(machine.freezeOn).toEqual(['costUsd']);
  });

  it('accepts state and outcome names that shadow Object.prototype members', () => {
    const machine = defineMachine({
      id: 'shadow',
      initial: 'constructor',
      onCap: { default: 'toString' },
      states: { constructor: { on: { hasOwnProperty: 'toString' } }, toString: { kind: 'final' } },
    });
    expect(machine.states.constructor.outcomes).toEqual(['hasOwnProperty']);
  });

  const cases: [string, unknown, { field: string; state?: string; message: RegExp }][] = [
    ['a non-object', null, { field: 'definition', message: /must be an object/ }],
    ['a bad id', { ...base, id: '1x' }, { field: 'id', message: /id must match/ }],
    [
      'an unknown key',
      { ...base, colour: 'red' },
      { field: 'colour', message: /not a definition key/ },
    ],
    ['no states', { ...base, states: {} }, { field: 'states', message: /at least one state/ }],
    [
      'a bad state name',
      withState('bad-name', { kind: 'final' }),
      { field: 'states.bad-name', message: /name that must match/ },
    ],
    [
      'a __proto__ state',
      JSON.parse(
        '{"id":"p","initial":"a","onCap":{"default":"z"},"states":{"a":{"on":{"go":"z"}},"z":{"kind":"final"},"__proto__":{"kind":"final"}}}',
      ),
      { field: 'states.__proto__', message: /name that must match/ },
    ],
    [
      'a huge state name',
      withState('s'.repeat(65), { kind: 'final' }),
      { field: `states.${'s'.repeat(65)}`, message: /must match/ },
    ],
    [
      'a state that is not an object',
      withState('x', 'final'),
      { field: 'states.x', state: 'x', message: /must be an object/ },
    ],
    [
      'an unknown state key',
      withState('x', { kind: 'final', colour: 1 }),
      { field: 'states.x.colour', state: 'x', message: /not a state option/ },
    ],
    [
      'a bad kind',
      withState('x', { kind: 'done' }),
      { field: 'states.x.kind', state: 'x', message: /work, wait or final/ },
    ],
    [
      'bad retries',
      withState('x', { on: { go: 'approved' }, retries: -1 }),
      { field: 'states.x.retries', state: 'x', message: /non-negative integer/ },
    ],
    [
      'NaN retries',
      withState('x', { on: { go: 'approved' }, retries: Number.NaN }),
      { field: 'states.x.retries', state: 'x', message: /non-negative integer/ },
    ],
    [
      'a multi-line description',
      withState('x', { kind: 'final', description: 'a\nb' }),
      { field: 'states.x.description', state: 'x', message: /one line/ },
    ],
    [
      'a huge description',
      withState('x', { kind: 'final', description: 'd'.repeat(201) }),
      { field: 'states.x.description', state: 'x', message: /at most 200/ },
    ],
    [
      'an unknown target',
      withState('x', { on: { go: 'nowhere' } }),
      { field: 'states.x.on.go', state: 'x', message: /"nowhere", which is not a state/ },
    ],
    [
      'a bad outcome name',
      withState('x', { on: { 'go!': 'approved' } }),
      { field: 'states.x.on.go!', state: 'x', message: /outcome whose name must match/ },
    ],
    [
      'an empty candidate list',
      withState('x', { on: { go: [] } }),
      { field: 'states.x.on.go', state: 'x', message: /at least one target/ },
    ],
    [
      'a non-function guard',
      withState('x', { on: { go: { target: 'approved', guard: true } } }),
      { field: 'states.x.on.go.guard', state: 'x', message: /must be a function/ },
    ],
    [
      'an unknown candidate key',
      withState('x', { on: { go: { target: 'approved', when: 1 } } }),
      { field: 'states.x.on.go.when', state: 'x', message: /not a candidate key/ },
    ],
    [
      'a candidate after an unguarded one',
      withState('x', { on: { go: ['approved', 'aborted'] } }),
      { field: 'states.x.on.go[1]', state: 'x', message: /never tried/ },
    ],
    [
      'a final state with outcomes',
      withState('x', { kind: 'final', on: { go: 'approved' } }),
      { field: 'states.x.on', state: 'x', message: /the state is final/ },
    ],
    [
      'a final state with a retry limit',
      withState('x', { kind: 'final', retries: 1 }),
      { field: 'states.x.retries', state: 'x', message: /the state is final/ },
    ],
    [
      'a work state with no outcomes',
      withState('x', {}),
      { field: 'states.x.on', state: 'x', message: /at least one outcome/ },
    ],
    [
      'an unreachable state',
      withState('x', { on: { go: 'approved' } }),
      { field: 'states.x', state: 'x', message: /not reachable from draft/ },
    ],
    [
      'an unknown initial state',
      { ...base, initial: 'nope' },
      { field: 'initial', message: /must name a state/ },
    ],
    [
      'a final initial state',
      { ...base, initial: 'approved' },
      { field: 'initial', state: 'approved', message: /must not be a final state/ },
    ],
    [
      'no final state',
      {
        id: 'loop',
        initial: 'a',
        onCap: { default: 'w' },
        states: { a: { on: { go: 'w' } }, w: { kind: 'wait', on: { back: 'a' } } },
      },
      { field: 'states', message: /must include a final state/ },
    ],
    [
      'a bad cap',
      { ...base, caps: { turns: 1.5 } },
      { field: 'caps.turns', message: /non-negative integer, got 1.5/ },
    ],
    [
      'an Infinity cost cap',
      { ...base, caps: { costUsd: Number.POSITIVE_INFINITY } },
      { field: 'caps.costUsd', message: /USD amount/ },
    ],
    [
      'a negative cost cap',
      { ...base, caps: { costUsd: -1 } },
      { field: 'caps.costUsd', message: /USD amount/ },
    ],
    ['a stall cap of 1', { ...base, caps: { stall: 1 } }, { field: 'caps.stall', message: />= 2/ }],
    [
      'an unknown cap',
      { ...base, caps: { money: 1 } },
      { field: 'caps.money', message: /not a cap/ },
    ],
    ['a bad soft limit', { ...base, soft: { turns: 0 } }, { field: 'soft.turns', message: />= 1/ }],
    [
      'an unknown soft limit',
      { ...base, soft: { tokens: 5 } },
      { field: 'soft.tokens', message: /not a soft limit/ },
    ],
    [
      'an unknown cap target key',
      { ...base, onCap: { default: 'aborted', money: 'aborted' } },
      { field: 'onCap.money', message: /not a cap/ },
    ],
    [
      'a cap target that is not a state',
      { ...base, onCap: { default: 'gone' } },
      { field: 'onCap.default', message: /not a state/ },
    ],
    [
      'a work state as cap target',
      { ...base, onCap: { default: 'draft' } },
      { field: 'onCap.default', state: 'draft', message: /must be final or wait/ },
    ],
    [
      'a cap without a target',
      { ...base, onCap: { turns: 'aborted' } },
      { field: 'onCap.wallTimeMs', message: /has no target/ },
    ],
    [
      'freezeOn that is not an array',
      { ...base, freezeOn: 'costUsd' },
      { field: 'freezeOn', message: /array of cap names/ },
    ],
    [
      'freezeOn with an unknown cap',
      { ...base, freezeOn: ['money'] },
      { field: 'freezeOn[0]', message: /must be a cap name/ },
    ],
    [
      'freezeOn repeating a cap',
      { ...base, freezeOn: ['turns', 'turns'] },
      { field: 'freezeOn[1]', message: /repeats turns/ },
    ],
    [
      'a cap both frozen and routed',
      { ...base, onCap: { default: 'aborted', turns: 'aborted' }, freezeOn: ['turns'] },
      { field: 'freezeOn[0]', message: /onCap also sends/ },
    ],
  ];

  it.each(cases)('refuses %s, naming the field and state', (_, definition, expected) => {
    const error = definitionError(definition);
    expect(error.code).toBe('definition_invalid');
    expect(error.field).toBe(expected.field);
    expect(error.state).toBe(expected.state);
    expect(error.message).toMatch(expected.message);
  });

  it('names the machine in every message', () => {
    expect(definitionError(withState('x', { on: { go: 'nowhere' } })).message).toMatch(
      /^defineMachine\(review\) \(state x\): /,
    );
  });

  it('reaches states through cap targets and self-loops', () => {
    const machine = defineMachine({
      id: 'caps-only',
      initial: 'work',
      onCap: { default: 'stopped', turns: 'review' },
      states: {
        work: { on: { again: 'work', done: 'finished' } },
        review: { kind: 'wait', on: { resume: 'work' } },
        finished: { kind: 'final' },
        stopped: { kind: 'final' },
      },
    });
    expect(machine.stateNames).toContain('review');
  });
});
