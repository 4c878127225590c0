import { describe, expect, it } from 'vitest';
import { refusal, unwrap } from '../testing/unwrap.ts';
import { compiled, round } from '../testing/workshop-steps.ts';
import { redoWorkshop } from './redo-workshop.ts';

describe('redoWorkshop', () => {
  it('snapshots the artifacts, restarts at draft and keeps the transcript', () => {
    const ready = round(compiled(), {}, 'Everything compiles.');
    expect(ready.machine.state).toBe('review_ready');
    const again = unwrap(
      redoWorkshop(ready, { now: ready.updatedAt + 100, reason: 'The scope changed.' }),
    );
    expect(again.machine).toMatchObject({ state: 'draft', status: 'running', trace: [] });
    expect(again.artifacts).toEqual([]);
    expect(again.attempt).toBe(2);
    expect(again.transcript).toEqual(ready.transcript);
    expect(again.round).toBe(ready.round);
    expect(again.brief).toBe(ready.brief);
    expect(again.redos).toEqual([
      {
        attempt: 1,
        at: ready.updatedAt + 100,
        round: 3,
        stage: 'review_ready',
        reason: 'The scope changed.',
        artifacts: ready.artifacts,
        trace: ready.machine.trace,
      },
    ]);
    // Planning runs again; the new rounds continue the count, after the old transcript.
    const next = round(again, {}, 'Which scope now?');
    expect(next.transcript.slice(0, ready.transcript.length)).toEqual(ready.transcript);
    expect(next.transcript.at(-1)).toEqual({
      round: 4,
      actor: 'planner',
      phase: 'draft',
      content: 'Which scope now?',
    });
  });

  it('works from any state, and refuses bad input', () => {
    const clarifying = round(round(unwrap(redoWorkshop(compiled(), { now: 50 }))));
    expect(clarifying.machine.state).toBe('workshop');
    expect(unwrap(redoWorkshop(clarifying, { now: clarifying.updatedAt })).redos[1]).toMatchObject({
      attempt: 2,
      stage: 'workshop',
      reason: null,
      artifacts: [],
    });
    expect(refusal(redoWorkshop(clarifying, { now: 0 })).field).toBe('input.now');
    expect(
      refusal(redoWorkshop(clarifying, { now: clarifying.updatedAt, reason: 5 as never })).field,
    ).toBe('input.reason');
  });
});
