import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runWorkshop } from './workshop.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'plankit-example-workshop-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

it('plans through the workshop, is blocked by an inconsistent file plan, redoes, and keeps the transcript', async () => {
  const lines: string[] = [];
  const state = await runWorkshop(root, (line) => lines.push(line));
  const output = lines.join('\n');
  expect(output).toContain('round 6: formalizing --plan_blocked--> formalizing');
  expect(output).toContain('round 7: formalizing --plan_synthesized--> review_ready');
  expect(state).toMatchObject({ attempt: 2, round: 8 });
  expect(state.machine.state).toBe('clarifying');
  expect(state.redos[0]).toMatchObject({ attempt: 1, stage: 'review_ready', round: 7 });
  expect(state.transcript).toHaveLength(9);
  expect(output).toContain('transcript: 9 entries in the state, 9 in planning/meeting.jsonl');
  expect(await readdir(path.join(root, 'planning/attempt_1'))).toEqual([
    'plan.files.json',
    'plan.md',
    'planning.ai.json',
  ]);
  await expect(output).toMatchFileSnapshot('./__snapshots__/workshop.txt');
});
