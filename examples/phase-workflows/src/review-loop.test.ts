import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { phaseJobFromJSON } from '@plankit/controller/workflows';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runReviewLoop } from './review-loop.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'plankit-example-review-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

it('freezes for review, takes two rounds of feedback through JSON, and is approved', async () => {
  const lines: string[] = [];
  const job = await runReviewLoop(root, (line) => lines.push(line));
  expect(job).toMatchObject({
    phase: 'tactical',
    phaseNumber: 4,
    review: { status: 'approved', cycles: 2 },
  });
  expect(job.machine.trace.map((entry) => entry.outcome)).toEqual([
    'handoff_held',
    'changes_requested',
    'handoff_held',
    'changes_requested',
    'handoff_held',
    'review_approved',
  ]);
  // The job stored last is the job returned.
  const stored = phaseJobFromJSON(await readFile(path.join(root, '.job/job.json'), 'utf8'));
  expect(stored).toEqual({ ok: true, value: job });
  const memory = await readFile(path.join(root, 'workspace.md'), 'utf8');
  expect(memory).toContain('## Review Feedback\n\n### Cycle 1\n\n> Split the extraction');
  await expect(lines.join('\n')).toMatchFileSnapshot('./__snapshots__/review-loop.txt');
});
