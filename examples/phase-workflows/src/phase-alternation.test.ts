import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runPhaseAlternation } from './phase-alternation.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'plankit-example-phases-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

it('alternates strategic and tactical phases, with a rejected hand-off the agent fixes', async () => {
  const lines: string[] = [];
  const job = await runPhaseAlternation(root, (line) => lines.push(line));
  const output = lines.join('\n');
  expect(output).toContain(
    'todo_complete({"id":4}) -> Phase transition rejected: Expected 5-20 todos, got 4.',
  );
  expect(output).toContain(
    'Tool validation failed: job_complete is only available in strategic phases',
  );
  expect(lines.filter((line) => line.startsWith('== ')).map((line) => line.split(' (')[0])).toEqual(
    [
      '== strategic phase 1',
      '== tactical phase 2',
      '== strategic phase 3',
      '== job complete: All GoBD requirements extracted and validated.',
    ],
  );
  expect(job.machine.state).toBe('complete');
  expect(job.machine.trace.map((entry) => entry.outcome)).toEqual([
    'handoff_rejected',
    'handoff_accepted',
    'phase_completed',
    'job_completed',
  ]);
  await expect(output).toMatchFileSnapshot('./__snapshots__/phase-alternation.txt');
});
