import { describe, expect, it } from 'vitest';
import { completeJob } from '../phases/complete-job.ts';
import { startPhaseJob } from '../phases/start-phase-job.ts';
import { planned, waitingJob } from '../testing/review-fixtures.ts';
import { refusal, unwrap } from '../testing/unwrap.ts';
import { requestChanges } from './request-changes.ts';
import { skipReview } from './skip-review.ts';

const T0 = Date.UTC(2026, 0, 15, 9);

describe('skipReview', () => {
  it('from pending_review, runs the plan as an approval would, recorded as skipped', () => {
    const job = unwrap(skipReview(waitingJob(T0), { now: T0, reason: 'deadline' }));
    expect(job).toMatchObject({ phase: 'tactical', phaseNumber: 2, review: { status: 'skipped' } });
    expect(job.machine.trace.at(-1)).toMatchObject({
      outcome: 'review_skipped',
      reason: 'deadline',
    });
  });

  it('during a revision, lets the next hand-off go straight to tactical', () => {
    const revising = unwrap(requestChanges(waitingJob(T0), { now: T0, feedback: 'shorter' }));
    const skipped = unwrap(skipReview(revising, { now: T0 }));
    expect(skipped.review.status).toBe('skipped');
    expect(skipped.machine).toBe(revising.machine);
    expect(skipped.signals).toEqual([]);
    expect(planned(skipped, T0).phase).toBe('tactical');
  });

  it('refuses when there is no review to skip', () => {
    const plain = startPhaseJob({ jobId: 'job-7', now: T0 });
    expect(refusal(skipReview(plain, { now: T0 }))).toMatchObject({
      code: 'review_not_required',
      message: 'skipReview: job job-7 has no review to skip; its review is off.',
    });
    const skipped = unwrap(skipReview(waitingJob(T0), { now: T0 }));
    expect(refusal(skipReview(skipped, { now: T0 })).code).toBe('review_not_required');
    const interactive = startPhaseJob({ jobId: 'job-7', now: T0, interactive: true });
    const done = unwrap(completeJob(interactive, { now: T0 }));
    expect(refusal(skipReview(done, { now: T0 })).code).toBe('job_done');
    expect(refusal(skipReview(interactive, { now: T0 - 1 })).field).toBe('input.now');
  });
});
