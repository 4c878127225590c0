import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { getStepMetadata } from 'workflow';

/** A side effect the agent can cause. */
export type Effect = 'build' | 'deploy';

/** What the scripted model does on one turn. */
export type AgentAction =
  | { readonly kind: 'tool'; readonly tool: string; readonly args: unknown }
  | { readonly kind: 'outcome'; readonly outcome: string }
  | { readonly kind: 'finish' };

/** The scripted model: a plan, the controller's stages to approval, then the work. */
export const SCRIPT: readonly AgentAction[] = [
  {
    kind: 'tool',
    tool: 'planning_setup_plan',
    args: {
      objective: 'Ship the release to staging',
      initial_steps: [{ title: 'Build the release' }, { title: 'Deploy to staging' }],
    },
  },
  { kind: 'outcome', outcome: 'sufficient_context' },
  // The outline, the roadmap and the schedule, each drafted then validated.
  { kind: 'outcome', outcome: 'success' },
  { kind: 'outcome', outcome: 'valid' },
  { kind: 'outcome', outcome: 'success' },
  { kind: 'outcome', outcome: 'valid' },
  { kind: 'outcome', outcome: 'success' },
  { kind: 'outcome', outcome: 'valid' },
  // SEEK_APPROVAL: the workflow asks the hook, whatever the model proposes.
  { kind: 'outcome', outcome: 'approved' },
  { kind: 'tool', tool: 'planning_mark_step', args: { step_id: 'S001', status: 'in_progress' } },
  { kind: 'tool', tool: 'build_release', args: {} },
  { kind: 'tool', tool: 'planning_mark_step', args: { step_id: 'S001', status: 'done' } },
  { kind: 'tool', tool: 'planning_mark_step', args: { step_id: 'S002', status: 'in_progress' } },
  { kind: 'tool', tool: 'deploy_staging', args: {} },
  { kind: 'tool', tool: 'planning_mark_step', args: { step_id: 'S002', status: 'done' } },
  { kind: 'finish' },
];

/**
 * One model call, as a step. It records the session it was called with (as JSON) and hands it
 * back: on a replay the workflow compares that recording with the session it computed again.
 */
export async function modelTurn(
  turn: number,
  task: string,
  session: string,
): Promise<{ action: AgentAction; recorded: string }> {
  'use step';
  const action = SCRIPT[turn] ?? { kind: 'finish' };
  if (task.length === 0) throw new Error('task must not be empty');
  return { action, recorded: session };
}

/**
 * A side effect, as a step: it writes to the ledger once per step, keyed by the step's id, so a
 * retry after a crash finds its own entry and does not apply it again. With `crashOnce`, the
 * first deploy attempt dies after writing, before it returns: the worst moment for a crash.
 */
export async function applyEffect(
  kind: Effect,
  ledger: string,
  crashOnce: boolean,
): Promise<string> {
  'use step';
  const { stepId, attempt } = getStepMetadata();
  const key = `${kind}:${stepId}`;
  const entries = existsSync(ledger) ? readFileSync(ledger, 'utf8') : '';
  const applied = entries.split('\n').some((line) => line.includes(`"key":${JSON.stringify(key)}`));
  if (!applied) appendFileSync(ledger, `${JSON.stringify({ key, kind, attempt })}\n`);
  appendFileSync(`${ledger}.attempts`, `${JSON.stringify({ key, attempt })}\n`);
  if (crashOnce && kind === 'deploy' && attempt === 1) {
    throw new Error('worker lost mid-step (simulated)');
  }
  return key;
}
