/**
 * One side of the cross-process goal test: `run` sets a goal by command, works two turns,
 * pauses the goal, prints `paused <goal as JSON>` once the store has every change, then waits
 * to be killed (no detach, no close). `finish`, in another process, restores the session,
 * prints `restored <goal as JSON>`, resumes the goal by command and works it to its end, then
 * prints the session it leaves as JSON on its last line.
 */
import {
  allStepsDone,
  decideGoal,
  type Goal,
  GoalState,
  goals,
  PauseGoal,
  ResumeGoal,
  SetGoal,
} from '@plankit/controller/goal';
import {
  createPlanningTools,
  invokeTool,
  Plan,
  Session,
  selectLatest,
  snapshotToJSON,
} from '@plankit/core';
import { attachStore } from '../attach-store.ts';
import type { WorkerStore } from './process-tests.ts';
import { openWorkerStore, print } from './worker-io.ts';

interface Config {
  readonly store: WorkerStore;
  readonly step: 'run' | 'finish';
  readonly sessionId: string;
}

const config = JSON.parse(process.argv[2] ?? '{}') as Config;

function check<T>(result: { ok: true; value: T } | { ok: false; error: Error }): T {
  if (!result.ok) throw result.error;
  return result.value;
}

const store = await openWorkerStore(config.store);
let tick = config.step === 'run' ? 1_000 : 100_000;
const session = new Session({ sessionId: config.sessionId, clock: () => tick++ });
const tools = createPlanningTools(session, { extensions: [goals()] });
const attachment = check(await attachStore(session, store, { snapshotEvery: 3 }));
const verifier = allStepsDone();

/** One scripted turn: turn 0 sets up the plan, each later one finishes a step; then decide. */
async function turn(index: number): Promise<string> {
  const now = tick++;
  const called =
    index === 0
      ? await invokeTool(
          tools.planning_setup_plan,
          {
            objective: 'Ship it',
            initial_steps: [{ title: 'Fix' }, { title: 'Test' }, { title: 'Release' }],
          },
          { session, now },
        )
      : await invokeTool(
          tools.planning_mark_step,
          { step_id: `S00${index}`, status: 'done' },
          { session, now },
        );
  if (!called.success) throw called.error;
  const goal = selectLatest(session, GoalState) as Goal;
  const plan = selectLatest(session, Plan);
  const verdict = await verifier({ goal, plan });
  const usage = { tokens: 700, costUsd: 0.02, elapsedMs: 900 };
  const step = check(decideGoal(goal, { plan, usage, verdict, now }));
  check(session.dispatch(GoalState, step.goal, { now }));
  return step.decision.action;
}

if (config.step === 'run') {
  if (attachment.resumed) throw new Error('the session should be new');
  check(session.dispatch(SetGoal, { objective: 'Ship it', budget: { tokens: 10_000 } }));
  for (const index of [0, 1]) {
    const action = await turn(index);
    if (action !== 'continue') throw new Error(`turn ${index}: expected continue, got ${action}`);
  }
  check(session.dispatch(PauseGoal, { reason: 'Deploy window' }));
  check(await attachment.flush());
  await print(`paused ${JSON.stringify(selectLatest(session, GoalState))}`);
  // Killed here by the test, mid-goal: never detached, the store never closed.
  setInterval(() => undefined, 60_000);
} else {
  if (!attachment.resumed) throw new Error('the paused session was not found');
  await print(`restored ${JSON.stringify(selectLatest(session, GoalState))}`);
  check(session.dispatch(ResumeGoal, {}));
  let action = 'continue';
  for (let index = 2; action === 'continue' && index < 10; index++) action = await turn(index);
  check(await attachment.detach());
  await store.close();
  await print(JSON.stringify(snapshotToJSON(session.snapshot())));
}
