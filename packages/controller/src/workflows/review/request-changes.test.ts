import { describe, expect, it } from 'vitest';
import type { PhaseJob } from '../phases/phase-job.ts';
import { phaseJobFromJSON } from '../phases/phase-job-from-json.ts';
import { PREDEFINED_TODOS } from '../phases/predefined-todos.ts';
import { planned, waitingJob } from '../testing/review-fixtures.ts';
import { refusal, todosYaml, unwrap } from '../testing/unwrap.ts';
import { approvePlan } from './approve-plan.ts';
import { requestChanges } from './request-changes.ts';
import { withReviewFeedback } from './with-review-feedback.ts';

const T0 = Date.UTC(2026, 0, 15, 9);
const HOUR = 3600 * 1000;

/** Stores the job as JSON and reads it back, as a host does between two requests. */
function stored(job: PhaseJob): PhaseJob {
  return unwrap(phaseJobFromJSON(JSON.stringify(job)));
}

describe('requestChanges', () => {
  it('clips long feedback in the trace without splitting a surrogate pair', () => {
    // A pair straddles the cut at 1,997 code units, where the clipped reason ends before "...".
    const feedback = `${'a'.repeat(1996)}\u{1F600}${'b'.repeat(100)}`;
    const job = stored(
      unwrap(requestChanges(stored(waitingJob(T0)), { now: T0 + HOUR, feedback })),
    );
    const reason = job.machine.trace.at(-1)?.reason ?? '';
    expect(reason).toBe(`${'a'.repeat(1996)}...`);
    expect(reason).not.toMatch(/\p{Cs}/u);
  });

  it('runs two rounds of feedback then approval, through a JSON snapshot between every step', () => {
    let memory = '# Workspace\n\nThe job extracts requirements.\n';
    let job = stored(waitingJob(T0));
    const feedback = [
      'Split the analysis into two phases.',
      'Name an owner for each phase.\nKeep it short.',
    ];
    for (const [index, words] of feedback.entries()) {
      const now = T0 + (index + 1) * HOUR;
      job = stored(unwrap(requestChanges(job, { now, feedback: words })));
      const cycle = index + 1;
      expect(job).toMatchObject({
        phase: 'strategic',
        phaseNumber: 2 + index,
        phaseKind: 'revision',
        handoff: null,
        review: { status: 'required', cycles: cycle },
      });
      expect(job.todos.map(({ id, content }) => ({ id, content }))).toEqual(
        PREDEFINED_TODOS.revision,
      );
      const signal = job.signals.find((s) => s.type === 'review_feedback');
      expect(signal).toMatchObject({ cycle, feedback: words });
      expect(signal?.type === 'review_feedback' && signal.message).toContain(words);
      memory = withReviewFeedback(memory, { cycle, feedback: words });
      // The agent revises the plan; the valid hand-off waits for review again.
      job = stored(planned(job, now + 1, todosYaml(5 + index, `Phase 1, revision ${cycle}`)));
      expect(job.machine.state).toBe('pending_review');
      expect(job.signals).toEqual([
        expect.objectContaining({ type: 'todos_consumed', action: 'archive' }),
        { type: 'review_pending', cycle },
      ]);
    }
    job = stored(unwrap(approvePlan(job, { now: T0 + 10 * HOUR })));
    expect(job).toMatchObject({ phase: 'tactical', phaseNumber: 4, title: 'Phase 1, revision 2' });
    expect(job.todos).toHaveLength(6);
    expect(job.review).toEqual({
      status: 'approved',
      cycles: 2,
      feedback: [
        { cycle: 1, at: T0 + HOUR, feedback: feedback[0] },
        { cycle: 2, at: T0 + 2 * HOUR, feedback: feedback[1] },
      ],
    });
    expect(job.machine.trace.map((entry) => entry.outcome)).toEqual([
      'handoff_held',
      'changes_requested',
      'handoff_held',
      'changes_requested',
      'handoff_held',
      'review_approved',
    ]);
    expect(memory).toBe(
      [
        '# Workspace',
        '',
        'The job extracts requirements.',
        '',
        '## Review Feedback',
        '',
        '### Cycle 1',
        '',
        '> Split the analysis into two phases.',
        '',
        '### Cycle 2',
        '',
        '> Name an owner for each phase.',
        '> Keep it short.',
        '',
      ].join('\n'),
    );
  });

  it('signals history_reset, the feedback message, then the new phase', () => {
    const job = unwrap(
      requestChanges(waitingJob(T0), { now: T0, feedback: 'More detail on phase 2.' }),
    );
    expect(job.signals).toEqual([
      { type: 'history_reset' },
      {
        type: 'review_feedback',
        cycle: 1,
        feedback: 'More detail on phase 2.',
        message: [
          'A reviewer read your plan and requested changes (review cycle 1):',
          '',
          'More detail on phase 2.',
          '',
          'Address every point in main_plan.md, workspace.md and todos.yaml; the feedback is also in the Review Feedback section of workspace.md. When your last todo is complete, the revised plan goes back for review.',
        ].join('\n'),
      },
      { type: 'phase_started', phase: 'strategic', phaseNumber: 2, kind: 'revision' },
    ]);
  });

  it('signals the soft limit on review cycles, and never refuses past it', () => {
    let job = waitingJob(T0, { reviewLimit: 2 });
    const limits: unknown[] = [];
    for (let cycle = 1; cycle <= 3; cycle++) {
      job = unwrap(requestChanges(job, { now: T0, feedback: `round ${cycle}` }));
      limits.push(job.signals.find((s) => s.type === 'review_limit_reached') ?? null);
      job = planned(job, T0);
    }
    expect(limits).toEqual([
      null,
      { type: 'review_limit_reached', cycles: 2, limit: 2 },
      { type: 'review_limit_reached', cycles: 3, limit: 2 },
    ]);
    const unlimited = unwrap(
      requestChanges(waitingJob(T0, { reviewLimit: null }), { now: T0, feedback: 'x' }),
    );
    expect(unlimited.signals.some((s) => s.type === 'review_limit_reached')).toBe(false);
  });

  it('refuses blank, oversized or missing feedback, and a job that is not waiting', () => {
    const job = waitingJob(T0);
    for (const feedback of ['', '   ', 'x'.repeat(20_001), 42]) {
      expect(refusal(requestChanges(job, { now: T0, feedback: feedback as string })).field).toBe(
        'input.feedback',
      );
    }
    const approved = unwrap(approvePlan(job, { now: T0 }));
    expect(refusal(requestChanges(approved, { now: T0, feedback: 'late' })).code).toBe(
      'review_not_pending',
    );
  });
});
