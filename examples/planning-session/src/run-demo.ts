import {
  type AnyTool,
  createPlanningTools,
  InProcessEventBus,
  invokeTool,
  Plan,
  type PlanningToolsByName,
  renderPlan,
  Session,
  selectAll,
  selectLatest,
  snapshotFromJSON,
  snapshotToJSON,
  ToolCall,
} from '@plankit/core';

/** One tool call as a model would send it. */
interface ScriptedCall {
  readonly tool: keyof PlanningToolsByName;
  readonly args: unknown;
}

// What a model might send while planning a release: a setup, additions, an update, progress,
// one call the tool refuses (a non-ASCII title), its correction, and completion.
const SCRIPT: readonly ScriptedCall[] = [
  {
    tool: 'planning_setup_plan',
    args: {
      objective: 'Publish the v2.0 release of the CLI',
      initial_steps: [
        { title: 'Freeze the main branch', details: 'Announce the freeze in #release' },
        { title: 'Write the changelog' },
      ],
    },
  },
  {
    tool: 'planning_add_step',
    args: { steps: [{ title: 'Tag v2.0.0 and push' }, { title: 'Publish to npm' }] },
  },
  {
    tool: 'planning_mark_step',
    args: { step_id: 'S001', status: 'done', note: 'Freeze announced at 09:00' },
  },
  { tool: 'planning_mark_step', args: { step_id: 'S002', status: 'in_progress' } },
  {
    tool: 'planning_update_step',
    args: { step_id: 'S002', title: 'Write the changelog \u2013 user-facing only' },
  },
  {
    tool: 'planning_update_step',
    args: { step_id: 'S002', title: 'Write the changelog - user-facing only' },
  },
  {
    tool: 'planning_mark_step',
    args: { step_id: 'S002', status: 'done', note: 'Reviewed by docs team' },
  },
  { tool: 'planning_mark_step', args: { step_id: 'S003', status: 'done' } },
  {
    tool: 'planning_mark_step',
    args: { step_id: 'S004', status: 'done', note: 'npm i -g cli@2 works' },
  },
  { tool: 'planning_read_plan', args: {} },
];

/**
 * Runs the scripted planning session, writing each result and the final plan through `print`.
 * Time is injected, so the output is the same on every run.
 */
export async function runDemo(print: (line: string) => void): Promise<void> {
  let now = Date.UTC(2026, 0, 15, 9, 0, 0);
  const bus = new InProcessEventBus();
  const session = new Session({ bus, sessionId: 'demo-release', clock: () => now });
  const tools = createPlanningTools(session, { inProgress: 'single' });
  const refused: string[] = [];
  bus.subscribe('ToolInvoked', (event) => {
    if (!event.result.success) refused.push(event.tool);
  });

  print('plankit demo: a planning session driven through invokeTool\n');
  for (const [index, call] of SCRIPT.entries()) {
    now += 60_000;
    const tool: AnyTool = tools[call.tool];
    print(`${index + 1}. ${call.tool} ${JSON.stringify(call.args)}`);
    const result = await invokeTool(tool, call.args, { session });
    const revision = session.snapshot().revision;
    print(`   -> ${result.success ? 'ok' : 'refused'}: ${result.message} [revision ${revision}]`);
  }

  const plan = selectLatest(session, Plan);
  if (plan === undefined) throw new Error('The demo ended without a plan.');
  print(`\nFinal plan:\n${renderPlan(plan)}`);

  // The whole session survives a JSON round trip, e.g. to a file or a database row.
  const text = JSON.stringify(snapshotToJSON(session.snapshot()));
  const restored = new Session({ sessionId: 'demo-release' });
  createPlanningTools(restored);
  const snapshot = snapshotFromJSON(text, restored);
  if (!snapshot.ok) throw snapshot.error;
  restored.rollback(snapshot.value);
  const same = JSON.stringify(selectLatest(restored, Plan)) === JSON.stringify(plan);
  const logged = selectAll(session, ToolCall).length;
  print(`\nTool-call log: ${logged} successful calls; refused on the bus: ${refused.join(', ')}.`);
  print(
    `Snapshot: ${text.length} bytes of JSON, restored into a new session: ${same ? 'identical' : 'DIFFERENT'}.`,
  );
}
