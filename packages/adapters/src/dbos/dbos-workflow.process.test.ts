import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dropSchema,
  freshSchema,
  POSTGRES_URL,
  SKIPPED_WITHOUT_SERVER,
  warnWhenSkipped,
} from '../persistence/postgres/testing/postgres-url.ts';
import { startWorker } from '../persistence/stores/testing/run-worker.ts';

warnWhenSkipped('DBOS workflow tests');

const WORKER = 'packages/adapters/src/dbos/testing/planning-agent-worker.ts';
const appSchema = freshSchema();
const dbosSchema = freshSchema();

async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

interface Finished {
  readonly plan: { readonly steps: readonly { step_id: string; status: string }[] } | null;
  readonly approved: boolean;
}

/** Runs one worker to its `result:` line, or to `at:<killAt>` where it is SIGKILLed. */
async function run(config: Record<string, string>): Promise<Finished | undefined> {
  const worker = startWorker(WORKER, {
    PLANKIT_PG_URL: POSTGRES_URL,
    APP_SCHEMA: appSchema,
    DBOS_SCHEMA: dbosSchema,
    ...config,
  });
  const killAt = config['KILL_AT'];
  if (killAt !== undefined) {
    await worker.waitFor((line) => line === `at:${killAt}`);
    worker.child.kill('SIGKILL');
    const { signal } = await worker.exited;
    expect(signal).toBe('SIGKILL');
    return undefined;
  }
  const line = await worker.waitFor(/^result:/);
  const { code, stderr } = await worker.exited;
  expect(code, stderr).toBe(0);
  return JSON.parse(line.slice('result:'.length)) as Finished;
}

/** Runs a workflow to the approval, kills it there, approves it from another process. */
async function startAndApprove(workflowId: string, killAt?: string): Promise<void> {
  await run({ WORKER_MODE: 'start', WORKFLOW_ID: workflowId, KILL_AT: killAt ?? 'approval' });
  if (killAt !== undefined && killAt !== 'approval') return;
  await run({ WORKER_MODE: 'approve', WORKFLOW_ID: workflowId });
}

const modelCalls = async (workflowId: string) =>
  (
    await query<{ turn: number }>(
      `SELECT turn FROM ${appSchema}.model_calls WHERE workflow_id = $1 ORDER BY turn`,
      [workflowId],
    )
  ).map((row) => row.turn);

const planStream = async (workflowId: string) =>
  (
    await query<{ value: string }>(
      `SELECT value FROM ${dbosSchema}.streams WHERE workflow_uuid = $1 ORDER BY "offset"`,
      [workflowId],
    )
  ).map((row) => row.value);

const EVERY_TURN = [0, 1, 2, 3, 4, 5, 6, 7];
const DONE = [
  { step_id: 'S001', status: 'done' },
  { step_id: 'S002', status: 'done' },
];
const stepsOf = (finished: Finished | undefined) =>
  finished?.plan?.steps.map(({ step_id, status }) => ({ step_id, status }));

describe.skipIf(POSTGRES_URL === undefined)(
  `a planning agent as a DBOS workflow${SKIPPED_WITHOUT_SERVER}`,
  () => {
    const id = (name: string) => `${name}-${randomBytes(4).toString('hex')}`;
    let reference = '';
    let referencePlans: string[] = [];

    beforeAll(async () => {
      await query(`CREATE SCHEMA ${appSchema}`);
      await query(`CREATE TABLE ${appSchema}.model_calls (workflow_id text, turn int)`);
      await query(`CREATE TABLE ${appSchema}.deploy_attempts (key text)`);
      await query(`CREATE TABLE ${appSchema}.deploys (key text PRIMARY KEY)`);
      // The uninterrupted run every crashed one is compared with; its approval wait also
      // outlives its process: the worker is killed while it waits.
      reference = id('reference');
      await startAndApprove(reference);
      expect(stepsOf(await run({ WORKER_MODE: 'recover', WORKFLOW_ID: reference }))).toEqual(DONE);
      referencePlans = await planStream(reference);
    }, 120_000);

    afterAll(async () => {
      await dropSchema(appSchema);
      await dropSchema(dbosSchema);
    });

    it('waits for its approval without a process and resumes on DBOS.send', async () => {
      expect(await modelCalls(reference)).toEqual(EVERY_TURN);
      expect(referencePlans).toHaveLength(5);
    });

    it('finishes with the same plan when killed between a tool call and the next model call', async () => {
      const workflowId = id('between');
      await startAndApprove(workflowId, 'after-turn-2');
      await run({ WORKER_MODE: 'recover', WORKFLOW_ID: workflowId, KILL_AT: 'approval' });
      await run({ WORKER_MODE: 'approve', WORKFLOW_ID: workflowId });
      const finished = await run({ WORKER_MODE: 'recover', WORKFLOW_ID: workflowId });
      expect(stepsOf(finished)).toEqual(DONE);
      // Each model call ran once: the recovery replayed the recorded ones.
      expect(await modelCalls(workflowId)).toEqual(EVERY_TURN);
      // Every version of the plan was published once, in order, as in the uninterrupted run.
      expect(await planStream(workflowId)).toEqual(referencePlans);
    }, 120_000);

    it('applies a deploy once when killed in the middle of its step', async () => {
      const workflowId = id('mid-step');
      await startAndApprove(workflowId);
      await run({ WORKER_MODE: 'recover', WORKFLOW_ID: workflowId, KILL_AT: 'mid-deploy' });
      const finished = await run({ WORKER_MODE: 'recover', WORKFLOW_ID: workflowId });
      expect(stepsOf(finished)).toEqual(DONE);
      expect(await modelCalls(workflowId)).toEqual(EVERY_TURN);
      expect(await planStream(workflowId)).toEqual(referencePlans);
      // DBOS runs an unfinished step again; its effect is keyed by the step, so it lands once.
      const attempts = await query<{ key: string }>(
        `SELECT key FROM ${appSchema}.deploy_attempts WHERE key LIKE $1`,
        [`${workflowId}:%`],
      );
      expect(attempts).toHaveLength(2);
      expect(attempts[0]?.key).toBe(attempts[1]?.key);
      const deploys = await query(`SELECT key FROM ${appSchema}.deploys WHERE key LIKE $1`, [
        `${workflowId}:%`,
      ]);
      expect(deploys).toHaveLength(1);
    }, 120_000);

    it('reproduces the plan when forked from a step', async () => {
      const steps = await query<{ function_id: number; function_name: string }>(
        `SELECT function_id, function_name FROM ${dbosSchema}.operation_outputs
          WHERE workflow_uuid = $1 ORDER BY function_id`,
        [reference],
      );
      // Fork at the sixth model call, after the approval: what came before is copied.
      const sixth = steps.filter((step) => step.function_name === 'model')[5];
      expect(sixth).toBeDefined();
      const forkId = id('fork');
      const finished = await run({
        WORKER_MODE: 'fork',
        WORKFLOW_ID: reference,
        FORK_ID: forkId,
        FORK_STEP: String(sixth?.function_id),
      });
      expect(stepsOf(finished)).toEqual(DONE);
      expect(await planStream(forkId)).toEqual(referencePlans);
      // The fork called the model only from its sixth turn on.
      expect(await modelCalls(forkId)).toEqual([5, 6, 7]);
    }, 120_000);
  },
);
