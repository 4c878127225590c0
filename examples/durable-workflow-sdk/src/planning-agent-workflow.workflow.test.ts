import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForHook } from '@workflow/vitest';
import { describe, expect, it } from 'vitest';
import { resumeHook, start } from 'workflow/api';
import { readLedger } from './ledger.ts';
import { approvalToken, planningAgent } from './planning-agent-workflow.ts';
import { SCRIPT } from './steps.ts';

function ledger(): string {
  return join(mkdtempSync(join(tmpdir(), 'plankit-workflow-')), 'ledger.jsonl');
}

describe('a planning agent as a Workflow SDK workflow', () => {
  it('plans, waits for approval on a hook, works, and survives a crash mid-step with nothing applied twice', async () => {
    const path = ledger();
    const run = await start(planningAgent, [{ task: 'ship', ledger: path, crashDeployOnce: true }]);
    // The workflow suspends on the hook: no step runs and no process waits for the reply.
    await waitForHook(run, { token: approvalToken(run.runId) });
    expect(readLedger(path)).toEqual([]);
    await resumeHook(approvalToken(run.runId), { approved: true, reviewer: 'Dana' });
    const result = await run.returnValue;

    expect(result.state).toBe('COMPLETE');
    expect(result.turns).toBe(SCRIPT.length);
    expect(result.plan?.steps.map((step) => [step.step_id, step.status])).toEqual([
      ['S001', 'done'],
      ['S002', 'done'],
    ]);
    // Each tool call is in the log once, in the script's order: none lost, none twice.
    expect(result.calls).toEqual(
      SCRIPT.flatMap((action) => (action.kind === 'tool' ? [action.tool] : [])),
    );
    // The deploy step died after its side effect and ran again; the effect happened once.
    const effects = readLedger(path);
    expect(effects.map((entry) => entry.kind)).toEqual(['build', 'deploy']);
    const attempts = readLedger(`${path}.attempts`).filter((entry) =>
      entry.key.startsWith('deploy'),
    );
    expect(attempts.map((entry) => entry.attempt)).toEqual([1, 2]);
  });

  it('records the reviewer and goes back to drafting on a rejection', async () => {
    const path = ledger();
    const run = await start(planningAgent, [
      { task: 'ship', ledger: path, crashDeployOnce: false },
    ]);
    await waitForHook(run, { token: approvalToken(run.runId) });
    await resumeHook(approvalToken(run.runId), { approved: false, reviewer: 'Sam' });
    const result = await run.returnValue;
    // Rejected, the controller drafts again; the scripted model does not, so the run ends there.
    expect(result.state).toBe('DRAFT_OUTLINE');
    expect(readLedger(path)).toEqual([]);
    expect(JSON.stringify(result.session)).toContain('rejected by Sam');
  });
});
