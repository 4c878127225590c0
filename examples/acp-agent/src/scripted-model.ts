import { randomUUID } from 'node:crypto';
import type { Plan, PlanStep } from '@plankit/core';
import type { ModelReply, ModelRequest, ModelToolCall, PlanningModel } from './planning-model.ts';

/** The steps the scripted model plans for any prompt. */
export const SCRIPTED_STEPS: readonly string[] = [
  'Read the code',
  'Make the change',
  'Run the tests',
];

const call = (name: string, args: unknown): ModelToolCall => ({
  id: `call_${randomUUID()}`,
  name,
  arguments: args,
});

/** The prompt as a plan objective: one line of at most 200 characters. */
function objectiveOf(prompt: string): string {
  const line = prompt
    .replace(/[\p{Cc}\p{Cf}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return Array.from(line).slice(0, 200).join('') || 'Do what was asked';
}

const unfinished = (plan: Plan): PlanStep | undefined =>
  plan.steps.find((step) => step.status === 'pending' || step.status === 'blocked');

/**
 * A model that needs no key: each turn moves the plan one step on, so an editor's plan panel
 * shows every status. The first turn plans {@link SCRIPTED_STEPS}, starts and finishes the
 * first and marks the second blocked; each later turn finishes the next step.
 */
export function createScriptedModel(): PlanningModel {
  return {
    reply: async (request: ModelRequest): Promise<ModelReply> => {
      const { plan, step } = request;
      const active = plan?.status === 'active' ? plan : undefined;
      if (step === 0) {
        if (active === undefined)
          return {
            text: '',
            calls: [
              call('planning_setup_plan', {
                objective: objectiveOf(request.prompt),
                initial_steps: SCRIPTED_STEPS.map((title) => ({ title })),
              }),
              call('planning_mark_step', { step_id: 'S001', status: 'in_progress' }),
            ],
          };
        const next = unfinished(active);
        if (next === undefined) return { text: 'Every step of the plan is done.', calls: [] };
        return {
          text: '',
          calls: [call('planning_mark_step', { step_id: next.step_id, status: 'in_progress' })],
        };
      }
      const doing = active?.steps.find((s) => s.status === 'in_progress');
      if (step === 1 && active !== undefined && doing !== undefined) {
        const calls = [call('planning_mark_step', { step_id: doing.step_id, status: 'done' })];
        const first = active.steps[0]?.step_id === doing.step_id;
        const next = unfinished(active);
        // The first turn leaves the next step blocked, so the panel shows that rule too.
        if (first && next !== undefined)
          calls.push(
            call('planning_mark_step', {
              step_id: next.step_id,
              status: 'blocked',
              note: 'Waits for a review of the first step.',
            }),
          );
        return { text: '', calls };
      }
      const done = active?.steps.filter((s) => s.status === 'done').length ?? 0;
      const failed = request.outcomes.find((outcome) => !outcome.success);
      const text =
        failed !== undefined
          ? `A planning call was refused: ${failed.text}`
          : `${done} of ${active?.steps.length ?? 0} steps done.`;
      return { text, calls: [] };
    },
  };
}
