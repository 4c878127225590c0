import { attachStore, FileStore, type SessionAttachment } from '@plankit/adapters/stores';
import { createPlanningTools, invokeTool, Plan, Session, selectLatest } from '@plankit/core';
import {
  dependencies,
  history,
  owners,
  planHistory,
  readySteps,
  renderPlanDiff,
  renderPlanMermaid,
  renderPlanRevision,
} from '@plankit/core/plan-model';

const SESSION_ID = 'release-plan';

/** Every agent's tools: dependencies, owners and history on; `agent` names who acts. */
const toolsFor = (session: Session, agent: string) =>
  createPlanningTools(session, { extensions: [dependencies(), owners({ agent }), history()] });

type Tools = ReturnType<typeof toolsFor>;

/** One agent's view of the shared plan: a fresh session loaded from the store. */
interface View {
  readonly session: Session;
  readonly tools: Tools;
  readonly attachment: SessionAttachment;
}

/**
 * A lead and two sub-agents share one plan through a FileStore in `directory`. Each agent
 * works on its own session loaded from the store and appends its changes with optimistic
 * concurrency: when another agent wrote first, the append conflicts, and the agent reloads
 * and tries again, so two claims on one step never both win. Scripted, offline and
 * deterministic: the interleaving is fixed, including one stale claim that loses.
 */
export async function runMultiAgentPlan(
  directory: string,
  print: (line: string) => void,
): Promise<void> {
  const store = new FileStore({ directory });
  let tick = 1_700_000_000_000;
  const clock = () => tick++;

  async function open(agent: string): Promise<View> {
    const session = new Session({ sessionId: SESSION_ID, clock });
    const tools = toolsFor(session, agent);
    const attached = await attachStore(session, store);
    if (!attached.ok) throw attached.error;
    return { session, tools, attachment: attached.value };
  }

  /** The plan as the store holds it now. */
  async function readPlan(): Promise<Plan | undefined> {
    const view = await open('reader');
    await view.attachment.detach();
    return selectLatest(view.session, Plan);
  }

  /** Runs one tool call as `agent`, retrying from the stored state after a conflict. */
  async function act(
    agent: string,
    call: (tools: Tools, session: Session) => Promise<{ success: boolean; message: string }>,
    stale?: View,
  ): Promise<boolean> {
    let view = stale ?? (await open(agent));
    for (;;) {
      const result = await call(view.tools, view.session);
      const saved = await view.attachment.detach();
      if (!result.success) {
        print(`  ${agent}: refused: ${result.message}`);
        return false;
      }
      if (saved.ok) {
        print(`  ${agent}: ${result.message}`);
        return true;
      }
      if (saved.error.code !== 'conflict') throw saved.error;
      print(`  ${agent}: another agent wrote first; reloading the plan and trying again`);
      view = await open(agent);
    }
  }

  print('Lead sets up the plan:');
  await act('lead', (tools, session) =>
    invokeTool(
      tools.planning_setup_plan,
      {
        objective: 'Release the parser v2',
        initial_steps: [
          { title: 'Write the grammar spec' },
          { title: 'Build the parser', depends_on: ['S001'] },
          { title: 'Build the pretty-printer', depends_on: ['S001'] },
          { title: 'Integrate and release', depends_on: ['S002', 'S003'] },
        ],
        explanation: 'Split the release so two sub-agents can work in parallel.',
      },
      { session },
    ),
  );
  const planned = await readPlan();
  await act('lead', (tools, session) =>
    invokeTool(tools.planning_claim_step, { step_id: 'S001' }, { session }),
  );
  await act('lead', (tools, session) =>
    invokeTool(
      tools.planning_mark_step,
      { step_id: 'S001', status: 'done', note: 'grammar.md merged', explanation: 'Spec agreed.' },
      { session },
    ),
  );

  print('');
  print('Both sub-agents read the plan and see the same ready steps:');
  const one = await open('worker-1');
  const two = await open('worker-2');
  const ready = readySteps(selectLatest(two.session, Plan));
  print(`  ready: ${ready.map((step) => step.step_id).join(', ')}`);
  // worker-1 claims first; worker-2 claims the same step from its now stale view.
  await act(
    'worker-1',
    (tools, session) =>
      invokeTool(
        tools.planning_claim_step,
        { step_id: 'S002', explanation: 'I know the parser code.' },
        { session },
      ),
    one,
  );
  const won = await act(
    'worker-2',
    (tools, session) => invokeTool(tools.planning_claim_step, { step_id: 'S002' }, { session }),
    two,
  );
  if (!won) {
    await act('worker-2', (tools, session) =>
      invokeTool(
        tools.planning_claim_step,
        { step_id: 'S003', explanation: 'S002 is taken.' },
        { session },
      ),
    );
  }

  print('');
  print('The sub-agents finish their steps:');
  await act('worker-2', (tools, session) =>
    invokeTool(tools.planning_mark_step, { step_id: 'S002', status: 'in_progress' }, { session }),
  );
  await act('worker-1', (tools, session) =>
    invokeTool(
      tools.planning_mark_step,
      { step_id: 'S002', status: 'done', note: 'parser.ts, 98% coverage' },
      { session },
    ),
  );
  await act('worker-2', (tools, session) =>
    invokeTool(
      tools.planning_mark_step,
      { step_id: 'S003', status: 'done', note: 'printer.ts' },
      { session },
    ),
  );
  await act('worker-2', (tools, session) =>
    invokeTool(
      tools.planning_release_step,
      { step_id: 'S003', explanation: 'Done; free for review.' },
      { session },
    ),
  );
  await act('worker-1', (tools, session) =>
    invokeTool(tools.planning_claim_step, { step_id: 'S004' }, { session }),
  );
  await act('worker-1', (tools, session) =>
    invokeTool(
      tools.planning_mark_step,
      { step_id: 'S004', status: 'done', note: 'v2.0.0 tagged', explanation: 'Released.' },
      { session },
    ),
  );

  print('');
  print('The lead reads the history (who changed what, and why):');
  const lead = await open('lead');
  const history = planHistory(lead.session);
  for (const revision of history) print(renderPlanRevision(revision));
  print('');
  print('From the plan as set up to the plan now:');
  print(renderPlanDiff(planned, selectLatest(lead.session, Plan)));
  print('');
  print(renderPlanMermaid(selectLatest(lead.session, Plan) as Plan));
  await lead.attachment.detach();
  await store.close();
}
