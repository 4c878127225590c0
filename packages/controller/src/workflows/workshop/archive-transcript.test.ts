import { describe, expect, it } from 'vitest';
import { refusal, unwrap } from '../testing/unwrap.ts';
import { formalizing, round } from '../testing/workshop-steps.ts';
import { archiveTranscript } from './archive-transcript.ts';

describe('archiveTranscript', () => {
  it('is the only step that lets go of entries, and counts them', () => {
    const state = formalizing();
    expect(state.transcript).toHaveLength(2);
    const archived = unwrap(archiveTranscript(state, { now: state.updatedAt }));
    expect(archived.transcript).toEqual([]);
    expect(archived.archivedEntries).toBe(2);
    const more = round(archived);
    expect(more.transcript).toEqual([
      { round: 3, actor: 'planner', phase: 'formalizing', content: 'talk' },
    ]);
    expect(unwrap(archiveTranscript(more, { now: more.updatedAt })).archivedEntries).toBe(3);
    expect(refusal(archiveTranscript(more, { now: more.updatedAt, keep: 1 } as never)).field).toBe(
      'input.keep',
    );
  });
});
