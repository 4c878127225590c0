import { clipText } from '../internal/refusal-text.ts';
import { stringProblem } from '../internal/storable-problem.ts';
import type { Plan, PlanStatus } from './plan.ts';
import { stepIdProblem } from './step-id.ts';

/** A broken plan invariant: where (a zod-style path) and what. */
export interface PlanProblem {
  /** The path of the offending field, such as `['steps', 2, 'step_id']`. */
  readonly path: readonly (string | number)[];
  /** The rule it breaks, without a final full stop. */
  readonly message: string;
}

/** The status the reducers give a plan with these steps, unless it was abandoned. */
function derivedStatus(plan: Plan): PlanStatus {
  const steps = plan.steps;
  if (steps.length === 0) return 'active';
  for (let i = 0; i < steps.length; i++) if (steps[i]?.status !== 'done') return 'active';
  return 'completed';
}

/**
 * The first plan invariant `plan` breaks, or undefined. Every plan the planning reducers
 * build keeps them, so a restored or hand-dispatched plan must too:
 * - step ids are well formed (1-64 printable ASCII characters, no spaces; an all-digit
 *   suffix numbers at most `MAX_STEP_NUMBER`) and unique, so new ids never collide;
 * - the status agrees with the steps: `abandoned` with no steps, `completed` when there are
 *   steps and all are done, `active` otherwise;
 * - every text can be stored (no U+0000, no lone surrogates).
 * Linear in the size of the plan. @internal
 */
export function planProblem(plan: Plan): PlanProblem | undefined {
  const objective = stringProblem(plan.objective);
  if (objective !== undefined) return { path: ['objective'], message: `Objective ${objective}` };
  const seen = new Set<string>();
  const steps = plan.steps;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as Plan['steps'][number];
    const id = step.step_id;
    const idRule = stepIdProblem(id);
    if (idRule !== undefined) {
      return {
        path: ['steps', i, 'step_id'],
        message: `Step id ${JSON.stringify(clipText(id, 80))} ${idRule}`,
      };
    }
    if (seen.has(id))
      return { path: ['steps', i, 'step_id'], message: `Step id ${id} appears more than once` };
    seen.add(id);
    const title = stringProblem(step.title);
    if (title !== undefined) return { path: ['steps', i, 'title'], message: `Title ${title}` };
    const details = step.details === null ? undefined : stringProblem(step.details);
    if (details !== undefined)
      return { path: ['steps', i, 'details'], message: `Details ${details}` };
    for (let n = 0; n < step.notes.length; n++) {
      const note = stringProblem(step.notes[n] as string);
      if (note !== undefined) return { path: ['steps', i, 'notes', n], message: `Note ${note}` };
    }
  }
  if (plan.status === 'abandoned') {
    return steps.length === 0
      ? undefined
      : { path: ['status'], message: 'An abandoned plan has no steps' };
  }
  const expected = derivedStatus(plan);
  if (plan.status !== expected) {
    return {
      path: ['status'],
      message: `Plan status ${plan.status} does not match its steps, which make it ${expected}`,
    };
  }
  return undefined;
}
