import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runMultiAgentPlan } from './run-multi-agent-plan.ts';

const directory = await mkdtemp(path.join(os.tmpdir(), 'plankit-multi-agent-'));
try {
  await runMultiAgentPlan(directory, (line) => console.log(line));
} finally {
  await rm(directory, { recursive: true, force: true });
}
