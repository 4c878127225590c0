import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { runMultiAgentPlan } from './run-multi-agent-plan.ts';

it('a lead and two sub-agents share one plan through a FileStore; a stale claim loses; the lead renders the history', async () => {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'plankit-multi-agent-test-'));
  const lines: string[] = [];
  try {
    await runMultiAgentPlan(directory, (line) => lines.push(line));
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
  const output = lines.join('\n');
  expect(output).toContain(
    'worker-2: another agent wrote first; reloading the plan and trying again',
  );
  expect(output).toContain(
    'worker-2: refused: Tool validation failed: Step S002 is held by worker-1; claim another step or ask worker-1 to release it.',
  );
  expect(output).toContain(
    'worker-2: refused: Tool validation failed: Step S002 is held by worker-1; only worker-1 can mark it.',
  );
  expect(output).toContain('#1 plankit.SetupPlanWithDependencies by lead: "Split the release');
  await expect(output).toMatchFileSnapshot('./__snapshots__/multi-agent-output.txt');
});
