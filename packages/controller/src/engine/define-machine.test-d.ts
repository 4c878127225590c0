import type { Result } from '@plankit/core';
import { describe, expectTypeOf, it } from 'vitest';
import type { ControllerError } from '../controller-error.ts';
import { allowedOutcomes } from './allowed-outcomes.ts';
import type { CapName } from './default-caps.ts';
import { type CapCoverage, defineMachine, type MachineDefinition } from './define-machine.ts';
import { initialSnapshot } from './initial-snapshot.ts';
import type { Machine } from './machine.ts';
import type { MachineSnapshot } from './machine-snapshot.ts';
import { renderMachineMermaid } from './render-machine-mermaid.ts';
import { replay } from './replay.ts';
import { resume } from './resume.ts';
import { transition } from './transition.ts';

const review = defineMachine({
  id: 'review',
  initial: 'draft',
  onCap: { default: 'aborted' },
  states: {
    draft: { on: { done: 'pending_review' } },
    pending_review: {
      kind: 'wait',
      on: {
        approve: { target: 'approved', guard: ({ confidence }) => (confidence ?? 0) > 0.5 },
        request_changes: ['draft'],
      },
    },
    approved: { kind: 'final' },
    aborted: { kind: 'final' },
  },
});
type State = 'draft' | 'pending_review' | 'approved' | 'aborted';
type Outcome = 'done' | 'approve' | 'request_changes';

describe('defineMachine types', () => {
  it('infers the state names and the outcomes', () => {
    expectTypeOf(review).toEqualTypeOf<Machine<State, Outcome>>();
    expectTypeOf(review.initial).toEqualTypeOf<State>();
    expectTypeOf(review.outcomes).toEqualTypeOf<readonly Outcome[]>();
  });

  it('refuses targets, initial states and cap targets that name no state', () => {
    defineMachine({
      id: 'typo',
      initial: 'a',
      onCap: { default: 'z' },
      // @ts-expect-error 'zz' is not a state
      states: { a: { on: { go: 'zz' } }, z: { kind: 'final' } },
    });
    defineMachine({
      id: 'typo',
      // @ts-expect-error 'b' is not a state
      initial: 'b',
      onCap: { default: 'z' },
      states: { a: { on: { go: 'z' } }, z: { kind: 'final' } },
    });
    defineMachine({
      id: 'typo',
      initial: 'a',
      // @ts-expect-error 'y' is not a state
      onCap: { default: 'y' },
      states: { a: { on: { go: 'z' } }, z: { kind: 'final' } },
    });
  });

  it('types snapshots, events and results by the machine', () => {
    const snapshot = initialSnapshot(review, { now: 0 });
    expectTypeOf(snapshot).toEqualTypeOf<MachineSnapshot<State, Outcome>>();
    expectTypeOf(snapshot.state).toEqualTypeOf<State>();
    expectTypeOf(transition(review, snapshot, { outcome: 'done', now: 1 })).toEqualTypeOf<
      Result<MachineSnapshot<State, Outcome>, ControllerError>
    >();
    // @ts-expect-error the machine never accepts 'publish'
    transition(review, snapshot, { outcome: 'publish', now: 1 });
    // @ts-expect-error now is required
    transition(review, snapshot, { outcome: 'done' });
    expectTypeOf(allowedOutcomes(review, snapshot)).toEqualTypeOf<readonly Outcome[]>();
    expectTypeOf(resume(review, snapshot, { now: 2, caps: { costUsd: 3 } })).toEqualTypeOf<
      Result<MachineSnapshot<State, Outcome>, ControllerError>
    >();
    expectTypeOf(replay(review, snapshot.trace, { now: 0 })).toEqualTypeOf<
      Result<MachineSnapshot<State, Outcome>, ControllerError>
    >();
  });

  it('lets a specific machine go where any machine is expected', () => {
    expectTypeOf(review).toExtend<Machine>();
    expectTypeOf(renderMachineMermaid(review)).toEqualTypeOf<string>();
  });
});

describe('defineMachine requires what its run-time check requires', () => {
  const states = { a: { on: { go: 'z' } }, z: { kind: 'final' } } as const;

  it('refuses a definition without onCap when some cap does not freeze', () => {
    // @ts-expect-error onCap is missing: wallTimeMs and the other caps have no target
    defineMachine({ id: 'bare', initial: 'a', states });
    defineMachine({
      id: 'partial',
      initial: 'a',
      // @ts-expect-error only wallTimeMs has a target; the other caps have none
      onCap: { wallTimeMs: 'z' },
      states,
    });
    defineMachine({
      id: 'some-frozen',
      initial: 'a',
      freezeOn: ['costUsd'],
      // @ts-expect-error costUsd freezes, but turns and the others still need a target
      onCap: { wallTimeMs: 'z' },
      states,
    });
  });

  it('accepts a default target, one target per cap, or a freezeOn of every cap', () => {
    defineMachine({ id: 'default', initial: 'a', onCap: { default: 'z' }, states });
    defineMachine({
      id: 'each',
      initial: 'a',
      onCap: { wallTimeMs: 'z', costUsd: 'z', tokens: 'z', turns: 'z', stall: 'z', retries: 'z' },
      states,
    });
    defineMachine({
      id: 'rest',
      initial: 'a',
      freezeOn: ['costUsd', 'tokens'],
      onCap: { wallTimeMs: 'z', turns: 'z', stall: 'z', retries: 'z' },
      states,
    });
    defineMachine({
      id: 'frozen',
      initial: 'a',
      freezeOn: ['wallTimeMs', 'costUsd', 'tokens', 'turns', 'stall', 'retries'],
      states,
    });
  });

  it('refuses a target for a cap that freezes', () => {
    defineMachine({
      id: 'both',
      initial: 'a',
      freezeOn: ['costUsd'],
      // @ts-expect-error costUsd freezes, so it may not also have a target
      onCap: { default: 'z', costUsd: 'z' },
      states,
    });
  });

  it('counts a freezeOn list of unknown contents as freezing nothing', () => {
    const freezeOn: readonly CapName[] = ['costUsd'];
    // @ts-expect-error a plain CapName[] may freeze nothing, so onCap is required
    defineMachine({ id: 'wide', initial: 'a', freezeOn, states });
    defineMachine({ id: 'wide', initial: 'a', freezeOn, onCap: { default: 'z' }, states });
  });

  it('spells the rule out in CapCoverage', () => {
    expectTypeOf<CapCoverage<'z'>>().toHaveProperty('onCap');
    expectTypeOf<{ onCap: { default: 'z' } }>().toExtend<CapCoverage<'z'>>();
    expectTypeOf<{ onCap: { turns: 'z' } }>().not.toExtend<CapCoverage<'z'>>();
    expectTypeOf<{ onCap: { turns: 'z' } }>().toExtend<
      CapCoverage<'z', readonly ['wallTimeMs', 'costUsd', 'tokens', 'stall', 'retries']>
    >();
    expectTypeOf<object>().toExtend<
      CapCoverage<'z', readonly ['wallTimeMs', 'costUsd', 'tokens', 'turns', 'stall', 'retries']>
    >();
    expectTypeOf<object>().not.toExtend<CapCoverage<'z'>>();
    expectTypeOf<MachineDefinition<'a' | 'z', 'go'>>().toHaveProperty('onCap');
  });
});
