import { describe, expect, it } from 'vitest';
import { startWorkshop } from './start-workshop.ts';
import { workshopMachine } from './workshop-machine.ts';
import { DEFAULT_WORKSHOP_ARTIFACTS } from './workshop-state.ts';

describe('startWorkshop', () => {
  it('starts in draft with only the brief', () => {
    const state = startWorkshop({ now: 7, brief: 'Add SSO.' });
    expect(state).toMatchObject({
      format: 'plankit.workshop',
      brief: 'Add SSO.',
      artifactNames: DEFAULT_WORKSHOP_ARTIFACTS,
      artifacts: [],
      round: 0,
      attempt: 1,
      transcript: [],
      archivedEntries: 0,
      redos: [],
      problems: [],
      startedAt: 7,
      updatedAt: 7,
    });
    expect(state.machine).toMatchObject({ machine: workshopMachine.id, state: 'draft' });
    expect(Object.isFrozen(state)).toBe(true);
  });

  it('refuses bad options and artifact lists', () => {
    expect(() => startWorkshop({ now: 0, brief: ' ' })).toThrow(/options.brief/);
    expect(() => startWorkshop({ now: Number.NaN, brief: 'b' })).toThrow(/options.now/);
    expect(() => startWorkshop({ now: 0, brief: 'b', rounds: 3 } as never)).toThrow(
      /options.rounds/,
    );
    expect(() => startWorkshop({ now: 0, brief: 'b', artifacts: [] })).toThrow(/options.artifacts/);
    expect(() => startWorkshop({ now: 0, brief: 'b', artifacts: ['a.md', 'a.md'] })).toThrow(
      /artifacts\[1\]/,
    );
    expect(() => startWorkshop({ now: 0, brief: 'b', artifacts: ['../a.md'] })).toThrow(
      /artifacts\[0\]/,
    );
    expect(() => startWorkshop({ now: 0, brief: 'b', artifacts: ['plan.md'] })).toThrow(
      'startWorkshop: options.artifacts lists plan.md, which needs planning.ai.json.',
    );
  });
});
