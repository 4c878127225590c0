import { clipText } from '../../internal/refusal-text.ts';
import { ToolValidationError } from '../../tool-validation-error.ts';
import type { Plan, PlanStep, StepStatus } from '../plan.ts';
import type { OpenDependencyMode } from './dependency-options.ts';
import { doneIds, openDependencies } from './ready-steps.ts';

function idList(ids: readonly string[]): string {
  const shown = ids.slice(0, 10).map((id) => clipText(id, 64));
  return ids.length > 10 ? `${shown.join(', ')} and ${ids.length - 10} more` : shown.join(', ');
}

/**
 * Applies the open-dependency rule to marking `stepId` as `status`: starting
 * (`in_progress`) or finishing (`done`) a step whose dependencies are not all done is
 * refused (`'refuse'`, code `dependency_open`) or allowed with the warning this returns
 * (`'warn'`). Returns `null` when the rule has nothing to say. @internal
 */
export function openDependencyRule(
  plan: Plan,
  index: number,
  status: StepStatus,
  mode: OpenDependencyMode,
): string | null {
  if (status !== 'in_progress' && status !== 'done') return null;
  const step = plan.steps[index] as PlanStep;
  const open = openDependencies(step, doneIds(plan));
  if (open.length === 0) return null;
  const id = clipText(step.step_id, 64);
  const waits = `Step ${id} depends on ${idList(open)}, which ${open.length === 1 ? 'is' : 'are'} not done`;
  if (mode === 'warn') return `Warning: ${waits}.`;
  throw new ToolValidationError(`${waits}; mark ${open.length === 1 ? 'it' : 'them'} done first.`, {
    code: 'dependency_open',
    field: 'status',
  });
}
