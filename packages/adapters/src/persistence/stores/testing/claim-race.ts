import { fileURLToPath } from 'node:url';
import { createPlanningTools, invokeTool, Plan, Session, selectLatest } from '@plankit/core';
import {
  dependencies,
  history,
  owners,
  PLAN_MODEL_COMMANDS,
  planHistory,
} from '@plankit/core/plan-model';
import { expect } from 'vitest';
import { attachStore } from '../attach-store.ts';
import type { SessionStore } from '../session-store.ts';
import type { WorkerStore } from './process-tests.ts';
import { startWorker } from './run-worker.ts';

const WORKER = fileURLToPath(new URL('./claim-worker.ts', import.meta.url));

async function open(store: SessionStore, sessionId: string, agent: string) {
  const session = new Session({ sessionId });
  const tools = createPlanningTools(session, {
    extensions: [dependencies(), owners({ agent }), history()],
  });
  const attached = await attachStore(session, store, { dataTypes: PLAN_MODEL_COMMANDS });
  if (!attached.ok) throw attached.error;
  return { session, tools, attachment: attached.value };
}

/**
 * A lead sets up a plan of `count` steps in `store`; two agents in their own processes race
 * to claim every step, in the same order. Each step must be won by exactly one agent, the
 * other told who holds it; the stored plan and history must agree with the winners.
 */
export async function checkClaimRace(
  store: SessionStore,
  target: WorkerStore,
  count: number,
): Promise<{ conflicts: number; wins: Record<string, number> }> {
  const sessionId = 'shared-plan';
  const lead = await open(store, sessionId, 'lead');
  const initial_steps = Array.from({ length: count }, (_, i) => ({ title: `step ${i + 1}` }));
  const setup = await invokeTool(
    lead.tools.planning_setup_plan,
    { objective: 'race', initial_steps, explanation: 'the lead sets up' },
    { session: lead.session },
  );
  expect(setup.success).toBe(true);
  expect((await lead.attachment.detach()).ok).toBe(true);

  const steps = initial_steps.map((_, i) => `S${String(i + 1).padStart(3, '0')}`);
  const agents = ['agent-a', 'agent-b'];
  const workers = agents.map((agent) =>
    startWorker(WORKER, { store: target, sessionId, agent, steps }),
  );
  await Promise.all(workers.map((worker) => worker.waitFor(/^ready$/)));
  for (const worker of workers) worker.child.stdin?.end('go\n');
  const exits = await Promise.all(workers.map((worker) => worker.exited));
  for (const exit of exits) expect(exit, exit.stderr).toMatchObject({ code: 0, signal: null });

  const winners = new Map<string, string>();
  const wins: Record<string, number> = { 'agent-a': 0, 'agent-b': 0 };
  let conflicts = 0;
  for (const [i, worker] of workers.entries()) {
    const agent = agents[i] as string;
    const other = agents[1 - i] as string;
    for (const line of worker.lines) {
      const [kind, step, ...rest] = line.split(' ');
      if (kind === 'won') {
        expect(winners.has(step as string), `${step} won twice`).toBe(false);
        winners.set(step as string, agent);
        wins[agent] = (wins[agent] ?? 0) + 1;
      } else if (kind === 'lost') {
        expect(rest.join(' ')).toBe(
          `Tool validation failed: Step ${step} is held by ${other}; claim another step or ask ${other} to release it.`,
        );
      } else if (kind === 'done') {
        conflicts += Number(step);
      }
    }
    expect(worker.lines.filter((line) => /^(won|lost) /.test(line))).toHaveLength(count);
  }
  expect(winners.size).toBe(count);

  // The stored state, read back by a fresh session, agrees with the winners.
  const check = await open(store, sessionId, 'lead');
  const plan = selectLatest(check.session, Plan) as Plan;
  for (const step of plan.steps) expect(step.owner).toBe(winners.get(step.step_id));
  const claims = planHistory(check.session).filter((r) => r.command === 'plankit.ClaimStep');
  expect(claims).toHaveLength(count);
  for (const revision of claims) {
    const change = revision.diff?.steps[0];
    expect(change?.change).toBe('edited');
    expect(winners.get(change?.step_id as string)).toBe(revision.actor);
    expect(revision.explanation).toBe(`${revision.actor} takes it`);
  }
  await check.attachment.detach();
  return { conflicts, wins };
}
