import { approvalPauses, createPlanningController, replay } from '@plankit/controller';
import { expect, it } from 'vitest';
import { runCadence, runCadences } from './run-cadences.ts';

it('runs the same plan under each approval policy, pausing where the policy says', async () => {
  const lines: string[] = [];
  const [single, milestone, strict] = runCadences((line) => lines.push(line), { verbose: true });
  const output = lines.join('\n');
  for (const snapshot of [single, milestone, strict]) expect(snapshot?.state).toBe('COMPLETE');
  // single_final: the plan is rejected once, so it is shown twice.
  expect(output).toContain('COMPLETE after 2 pauses');
  // milestone_approvals: the outline is rejected and redrafted, then outline, roadmap, plan.
  expect(output).toContain('APPROVE_OUTLINE: The validated outline is ready for your review.');
  expect(output).toContain('COMPLETE after 4 pauses');
  // strict_every_step: the context is rejected and collected again, then seven pauses.
  expect(output).toContain('-> rejected -> COLLECT_CONTEXT');
  expect(output).toContain('COMPLETE after 8 pauses');
  expect(output).not.toContain('ABORTED');
  await expect(output).toMatchFileSnapshot('./__snapshots__/cadence-output.txt');
});

it.each(['single_final', 'milestone_approvals', 'strict_every_step'] as const)(
  '%s: the printed run is the real one (its trace replays)',
  (policy) => {
    const snapshot = runCadence(policy, () => {});
    const controller = createPlanningController({ approval_policy: policy });
    // One rejection, then each of the policy's pauses approved once.
    const approved = snapshot.trace.filter((entry) => entry.outcome === 'approved').length;
    expect(approved).toBe(approvalPauses(policy).length);
    expect(replay(controller, snapshot.trace, { now: snapshot.startedAt })).toEqual({
      ok: true,
      value: snapshot,
    });
  },
);

it('prints one line per policy by default, with the same counts as the verbose run', async () => {
  const lines: string[] = [];
  const snapshots = runCadences((line) => lines.push(line));
  expect(lines).toHaveLength(3);
  expect(snapshots.map((snapshot) => snapshot.state)).toEqual(['COMPLETE', 'COMPLETE', 'COMPLETE']);
  expect(lines[0]).toMatch(/^single_final +COMPLETE after 2 pauses, /);
  expect(lines[1]).toMatch(/^milestone_approvals +COMPLETE after 4 pauses, /);
  expect(lines[2]).toMatch(/^strict_every_step +COMPLETE after 8 pauses, /);
  await expect(lines.join('\n')).toMatchFileSnapshot('./__snapshots__/cadence-summary.txt');
});
