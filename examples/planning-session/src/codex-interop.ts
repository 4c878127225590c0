import { createPlanningTools, Plan, renderPlan, Session, selectLatest } from '@plankit/core';
import {
  applyPlanningCalls,
  type CodexPlanArgs,
  fromCodexPlan,
  toCodexPlan,
} from '@plankit/core/interop';

/** Three `update_plan` calls as Codex would send them, one per turn. */
const UPDATES: readonly CodexPlanArgs[] = [
  {
    explanation: 'Start on the bug report.',
    plan: [
      { step: 'Reproduce the crash', status: 'in_progress' },
      { step: 'Fix the parser', status: 'pending' },
      { step: 'Add a regression test', status: 'pending' },
    ],
  },
  {
    plan: [
      { step: 'Reproduce the crash', status: 'completed' },
      { step: 'Fix the tokenizer', status: 'in_progress' },
      { step: 'Add a regression test', status: 'pending' },
    ],
  },
  {
    plan: [
      { step: 'Reproduce the crash', status: 'completed' },
      { step: 'Fix the tokenizer', status: 'completed' },
      { step: 'Add a regression test', status: 'completed' },
      { step: 'Update the changelog', status: 'in_progress' },
    ],
  },
];

/**
 * A Codex agent's `update_plan` calls carried into a plankit session and back: each call
 * becomes planning tool calls (ids stay stable through a rename), the plan is rendered as
 * plankit's own tools show it, and sent back to Codex as an `update_plan`. Offline and
 * deterministic: no model, injected time.
 */
export async function runCodexInterop(print: (line: string) => void): Promise<void> {
  const session = new Session({ sessionId: 'demo-codex', clock: () => Date.UTC(2026, 0, 15) });
  const tools = createPlanningTools(session, { inProgress: 'single' });
  for (const [turn, update] of UPDATES.entries()) {
    const write = fromCodexPlan(selectLatest(session, Plan), update, {
      objective: 'Fix the crash on empty input',
    });
    if (!write.ok) throw write.error;
    print(`Turn ${turn + 1}: ${write.value.calls.map((call) => call.tool).join(', ')}`);
    const applied = await applyPlanningCalls(tools, write.value.calls, { session });
    if (!applied.ok) throw applied.error;
  }
  const plan = selectLatest(session, Plan);
  if (plan === undefined) throw new Error('The first update_plan sets up the plan.');
  print(renderPlan(plan));
  print(`Back to Codex: ${JSON.stringify(toCodexPlan(plan, { explanation: 'From plankit.' }))}`);
  // A status outside the format is refused before any call: Codex says `completed`, not `done`.
  const refused = fromCodexPlan(plan, { plan: [{ step: 'Ship', status: 'done' }] });
  print(`Refused: ${refused.ok ? 'no' : `${refused.error.code}: ${refused.error.message}`}`);
}
