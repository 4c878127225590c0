import { describe, expect, it } from 'vitest';
import { transition } from '../../engine/transition.ts';
import { completeJob } from '../phases/complete-job.ts';
import { phaseController } from '../phases/phase-controller.ts';
import { step } from '../phases/phase-step.ts';
import { startPhaseJob } from '../phases/start-phase-job.ts';
import { refusal, unwrap } from '../testing/unwrap.ts';
import { startWorkshop } from '../workshop/start-workshop.ts';
import { stepWorkshop } from '../workshop/workshop-step.ts';

const T0 = Date.UTC(2026, 0, 15, 9);

describe('stepMachine', () => {
  it("words the phase controller's refusal, naming the outcome and the engine's reason", () => {
    const job = startPhaseJob({ jobId: 'job-1', now: T0 });
    // A job whose snapshot is in tactical while its fields say strategic: only a hand edit
    // makes one, and the engine refuses the step.
    const tactical = unwrap(
      transition(phaseController, job.machine, { outcome: 'handoff_accepted', now: T0 }),
    );
    const error = refusal(completeJob({ ...job, machine: tactical }, { now: T0 + 1 }));
    expect(error).toMatchObject({ code: 'machine_refused', field: 'job.machine' });
    expect(error.message).toBe(
      'completeJob: the phase controller refused job_completed: transition: plankit.phase-controller in tactical does not accept "job_completed"; it accepts phase_completed.',
    );
    expect(error.cause).toMatchObject({ code: 'outcome_rejected' });
  });

  it("words the workshop machine's refusal the same way", () => {
    const state = startWorkshop({ now: T0, brief: 'Add SSO to the admin console.' });
    const error = refusal(stepWorkshop('workshopRound', state, 'plan_synthesized', T0, null));
    expect(error).toMatchObject({ code: 'machine_refused', field: 'state.machine' });
    expect(error.message).toBe(
      'workshopRound: the workshop machine refused plan_synthesized: transition: plankit.workshop in draft does not accept "plan_synthesized"; it accepts questions_needed.',
    );
  });

  it('clips the reason to the 2,000 characters the trace keeps', () => {
    const job = startPhaseJob({ jobId: 'job-1', now: T0 });
    const next = unwrap(step('completeJob', job, 'job_completed', T0, 'r'.repeat(5000)));
    const reason = next.trace.at(-1)?.reason ?? '';
    expect(reason.length).toBeLessThanOrEqual(2000);
    expect(reason.startsWith('r'.repeat(1900))).toBe(true);
  });
});
