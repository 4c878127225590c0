import { describe, expect, it } from 'vitest';
import { refusal, unwrap } from '../testing/unwrap.ts';
import { startWorkshop } from './start-workshop.ts';
import type { RoundSignals } from './workshop-round.ts';
import { workshopRound } from './workshop-round.ts';
import type { WorkshopState } from './workshop-state.ts';

const BRIEF = 'Add SSO to the admin console.';

function round(state: WorkshopState, signals: RoundSignals = {}, content = 'talk'): WorkshopState {
  return unwrap(
    workshopRound(state, {
      now: state.updatedAt + 1,
      entries: [{ actor: 'planner', content }],
      signals,
    }),
  );
}

describe('workshopRound', () => {
  it('starts planning from draft and appends each round to the transcript', () => {
    const draft = startWorkshop({ now: 0, brief: BRIEF });
    expect(draft).toMatchObject({ round: 0, attempt: 1, transcript: [], artifacts: [] });
    const clarifying = unwrap(
      workshopRound(draft, {
        now: 5,
        entries: [
          { actor: 'planner', content: 'Which provider?' },
          { actor: 'user', content: 'Okta.' },
        ],
      }),
    );
    expect(clarifying.machine.state).toBe('clarifying');
    expect(clarifying.round).toBe(1);
    expect(clarifying.transcript).toEqual([
      { round: 1, actor: 'planner', phase: 'draft', content: 'Which provider?' },
      { round: 1, actor: 'user', phase: 'draft', content: 'Okta.' },
    ]);
    expect(clarifying.machine.trace.at(-1)).toMatchObject({
      outcome: 'questions_needed',
      reason: 'no signal raised',
    });
  });

  it('clarifying: blocking questions stay; no new info or readiness formalize; else workshop', () => {
    const clarifying = round(startWorkshop({ now: 0, brief: BRIEF }));
    const cases: [RoundSignals, string, string][] = [
      [{ blocking_questions: true }, 'clarifying', 'questions_blocking'],
      [{ blocking_questions: true, no_new_info: true }, 'clarifying', 'questions_blocking'],
      [{ no_new_info: true }, 'formalizing', 'questions_resolved'],
      [{ commitment_readiness: true }, 'formalizing', 'questions_resolved'],
      [{}, 'workshop', 'answers_provided'],
      [{ blocking_questions: false, file_plan_consistency: true }, 'workshop', 'answers_provided'],
    ];
    for (const [signals, state, outcome] of cases) {
      const next = round(clarifying, signals);
      expect(
        [next.machine.state, next.machine.trace.at(-1)?.outcome],
        JSON.stringify(signals),
      ).toEqual([state, outcome]);
    }
  });

  it('workshop: rounds go on until the structure stabilizes, counting every round', () => {
    let state = round(round(startWorkshop({ now: 0, brief: BRIEF })));
    expect(state.machine.state).toBe('workshop');
    state = round(state, { blocking_questions: true, commitment_readiness: true });
    state = round(state);
    expect(state.machine.state).toBe('workshop');
    expect(state.round).toBe(4);
    expect(round(state, { commitment_readiness: true }).machine.state).toBe('formalizing');
    const stabilized = round(state, { no_new_info: true });
    expect(stabilized.machine).toMatchObject({ state: 'formalizing' });
    expect(stabilized.machine.trace.at(-1)).toMatchObject({
      outcome: 'structure_stabilized',
      reason: 'signals: no_new_info',
    });
    expect(stabilized.transcript.map((entry) => [entry.round, entry.phase])).toEqual([
      [1, 'draft'],
      [2, 'clarifying'],
      [3, 'workshop'],
      [4, 'workshop'],
      [5, 'workshop'],
    ]);
  });

  it('refuses rounds without entries, bad entries and unknown signals', () => {
    const state = startWorkshop({ now: 10, brief: BRIEF });
    const bad: [unknown, string][] = [
      [{ now: 10, entries: [] }, 'input.entries'],
      [{ now: 10, entries: [{ actor: '', content: 'x' }] }, 'input.entries[0].actor'],
      [{ now: 10, entries: [{ actor: 'a\nb', content: 'x' }] }, 'input.entries[0].actor'],
      [{ now: 10, entries: [{ actor: 'a', content: '  ' }] }, 'input.entries[0].content'],
      [{ now: 10, entries: [{ actor: 'a', content: 'x', round: 3 }] }, 'input.entries[0]'],
      [
        { now: 10, entries: [{ actor: 'a', content: 'x' }], signals: { ready: true } },
        'input.signals.ready',
      ],
      [
        { now: 10, entries: [{ actor: 'a', content: 'x' }], signals: { no_new_info: 'yes' } },
        'input.signals.no_new_info',
      ],
      [{ now: 9, entries: [{ actor: 'a', content: 'x' }] }, 'input.now'],
    ];
    for (const [input, field] of bad) {
      const error = refusal(workshopRound(state, input as never));
      expect([error.code, error.field]).toEqual(['input_invalid', field]);
    }
  });
});
