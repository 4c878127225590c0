import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attachStore, FileStore } from '@plankit/adapters/stores';
import { ControllerSnapshot, registerControllerReducers } from '@plankit/controller';
import { BudgetState, registerBudgetReducers } from '@plankit/controller/budget';
import { createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { HOSTS, runDemo } from './run-demo.ts';

let directory: string | undefined;
afterEach(async () => {
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  directory = undefined;
});

describe('the agent loop, offline, for every host', () => {
  for (const host of HOSTS) {
    it(`${host}: plans the release to COMPLETE, corrects the refused call, and saves the session`, async () => {
      directory = await mkdtemp(join(tmpdir(), 'plankit-demo-'));
      const lines: string[] = [];
      // No keys: OpenAI and Anthropic replay their transcripts through the real SDK clients.
      await runDemo({
        host,
        print: (line) => lines.push(line),
        storeDirectory: directory,
        env: {},
      });
      const output = lines.join('\n').replaceAll(directory, '<store>');
      await expect(output).toMatchFileSnapshot(`./__snapshots__/demo-${host}.txt`);
      expect(output).toContain(
        '! planning_update_step: Tool validation failed: Title must be ASCII.',
      );
      expect(output).toContain('planning_status: complete');
      // Each refusal and the approval request print under their own stage's row.
      const rows = output.split('\n');
      const refusal = rows.findIndex((row) => row.startsWith('  ! planning_update_step'));
      expect(rows[refusal - 1]).toMatch(/^DRAFT_ROADMAP /);
      const approval = rows.findIndex((row) => row.startsWith('  ? '));
      expect(rows[approval - 1]).toMatch(/^SEEK_APPROVAL .*\(scripted person replied: approve\)/);
      // Offline, the output says the costs are replayed and the person is scripted.
      const counts =
        host === 'openai' || host === 'anthropic'
          ? 'replayed from the transcript'
          : "the scripted model's";
      expect(output).toContain(`Offline: the token counts are ${counts}, so the costs`);
      expect(output).toContain('at example prices (nothing billed)');

      // A fresh process would see the same: plan, controller and budget come back from the store.
      const session = new Session({ sessionId: `demo-${host}` });
      createPlanningTools(session);
      registerControllerReducers(session);
      registerBudgetReducers(session);
      const attached = await attachStore(session, new FileStore({ directory }));
      expect(attached.ok).toBe(true);
      expect(selectLatest(session, Plan)?.status).toBe('completed');
      expect(selectLatest(session, ControllerSnapshot)?.state).toBe('COMPLETE');
      expect(selectLatest(session, BudgetState)?.session.spentUsd).toBeGreaterThan(0);
      if (attached.ok) await attached.value.detach();
    }, 30_000);
  }
});
