/**
 * A planning agent as a DBOS workflow, run as its own process by the crash tests.
 *
 * Its configuration is one JSON argument (see `startWorker`):
 *
 *   WORKER_MODE=start    launches DBOS, starts the workflow WORKFLOW_ID, prints its plan
 *   WORKER_MODE=recover  launches DBOS (whose recovery resumes the workflow), prints its plan
 *   WORKER_MODE=approve  sends the approval to WORKFLOW_ID and exits
 *   WORKER_MODE=fork     forks WORKFLOW_ID from FORK_STEP as FORK_ID, prints the fork's plan
 *
 * The model is scripted: each turn's call is a DBOS step that records, in the table
 * `model_calls`, that it ran. The deploy is a step whose effect is keyed by the workflow and
 * step ids, so a step re-run after a crash finds its effect done. Before each point where the
 * tests kill it, the worker prints `at:<point>`; when its KILL_AT names that point, it stops
 * there and waits for the SIGKILL.
 */
import { DBOS } from '@dbos-inc/dbos-sdk';
import { createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';
import pg from 'pg';
import { sendApproval, waitForApproval } from '../approval.ts';
import { invokeToolInWorkflow } from '../invoke-tool-in-workflow.ts';

const config: Record<string, unknown> = JSON.parse(process.argv[2] ?? '{}');
const env = (name: string): string => {
  const value = config[name];
  if (typeof value !== 'string' || value === '') throw new Error(`${name} is not set`);
  return value;
};

const url = env('PLANKIT_PG_URL');
const appSchema = env('APP_SCHEMA');
const pool = new pg.Pool({ connectionString: url, max: 2 });

type Turn =
  | { readonly tool: 'planning_setup_plan' | 'planning_mark_step'; readonly args: object }
  | { readonly tool: 'approval' }
  | { readonly tool: 'deploy' };

/** What the scripted model asks for, turn by turn; `undefined` once it is done. */
const SCRIPT: readonly Turn[] = [
  {
    tool: 'planning_setup_plan',
    args: { objective: 'ship v2', initial_steps: [{ title: 'build' }, { title: 'deploy' }] },
  },
  { tool: 'planning_mark_step', args: { step_id: 'S001', status: 'in_progress' } },
  { tool: 'planning_mark_step', args: { step_id: 'S001', status: 'done' } },
  { tool: 'planning_mark_step', args: { step_id: 'S002', status: 'in_progress' } },
  { tool: 'approval' },
  { tool: 'deploy' },
  { tool: 'planning_mark_step', args: { step_id: 'S002', status: 'done' } },
];

async function reached(point: string): Promise<void> {
  process.stdout.write(`at:${point}\n`);
  if (config['KILL_AT'] === point) await new Promise<never>(() => {});
}

async function callModel(turn: number): Promise<Turn | null> {
  await pool.query(`INSERT INTO ${appSchema}.model_calls (workflow_id, turn) VALUES ($1, $2)`, [
    DBOS.workflowID,
    turn,
  ]);
  return SCRIPT[turn] ?? null;
}

async function deploy(): Promise<void> {
  const key = `${DBOS.workflowID}:${DBOS.stepID}`;
  await pool.query(`INSERT INTO ${appSchema}.deploy_attempts (key) VALUES ($1)`, [key]);
  await pool.query(
    `INSERT INTO ${appSchema}.deploys (key) VALUES ($1) ON CONFLICT (key) DO NOTHING`,
    [key],
  );
  await reached('mid-deploy');
}

async function planningAgent(): Promise<{ plan: Plan | null; approved: boolean }> {
  const session = new Session({ sessionId: DBOS.workflowID ?? 'local' });
  const tools = createPlanningTools(session);
  let approved = false;
  for (let turn = 0; ; turn++) {
    const call = await DBOS.runStep(() => callModel(turn), { name: 'model' });
    if (call === null) break;
    if (call.tool === 'approval') {
      await reached('approval');
      approved = (await waitForApproval())?.approved === true;
      if (!approved) break;
    } else if (call.tool === 'deploy') {
      await DBOS.runStep(deploy, { name: 'deploy' });
    } else {
      const result = await invokeToolInWorkflow(tools[call.tool], call.args, { session });
      if (!result.success) throw new Error(result.message);
    }
    await reached(`after-turn-${turn}`);
  }
  return { plan: selectLatest(session, Plan) ?? null, approved };
}

const agent = DBOS.registerWorkflow(planningAgent, { name: 'planningAgent' });

DBOS.setConfig({
  name: 'plankit-dbos-test',
  systemDatabaseUrl: url,
  systemDatabaseSchemaName: env('DBOS_SCHEMA'),
  logLevel: 'error',
});
await DBOS.launch();
const workflowId = env('WORKFLOW_ID');
const mode = env('WORKER_MODE');
let result: unknown;
if (mode === 'start') {
  const handle = await DBOS.startWorkflow(agent, { workflowID: workflowId })();
  result = await handle.getResult();
} else if (mode === 'recover') {
  result = await DBOS.retrieveWorkflow(workflowId).getResult();
} else if (mode === 'approve') {
  await sendApproval(workflowId, { approved: true, note: 'go' }, `approve:${workflowId}`);
} else if (mode === 'fork') {
  const handle = await DBOS.forkWorkflow(workflowId, Number(env('FORK_STEP')), {
    newWorkflowID: env('FORK_ID'),
  });
  result = await handle.getResult();
} else {
  throw new Error(`unknown WORKER_MODE ${mode}`);
}
process.stdout.write(`result:${JSON.stringify(result ?? null)}\n`);
await DBOS.shutdown();
await pool.end();
