import { clipText, escapeControl } from '../../internal/refusal-text.ts';
import type { Plan, PlanStep } from '../plan.ts';
import { blockedSteps, readySteps } from './ready-steps.ts';

const SHOWN = 20;

const id = (step: PlanStep): string => escapeControl(clipText(step.step_id, 64));

function list(items: readonly string[], separator: string): string {
  if (items.length <= SHOWN) return items.join(separator);
  return `${items.slice(0, SHOWN).join(separator)}${separator}and ${items.length - SHOWN} more`;
}

/**
 * Two lines on where a plan's dependencies leave it: `Ready: S001, S004` (pending steps whose
 * dependencies are done, or `none`) and `Blocked: S003 (waiting on S001, S002); ...` (or
 * `none`). At most 20 entries are listed, then `and N more`, so the text stays short however
 * big the plan.
 *
 * @public
 */
export function dependencySummary(plan: Plan): string {
  const ready = readySteps(plan).map(id);
  const blocked = blockedSteps(plan).map(
    ({ step, waitingOn }) =>
      `${id(step)} (waiting on ${list(
        waitingOn.map((w) => escapeControl(clipText(w, 64))),
        ', ',
      )})`,
  );
  return `Ready: ${ready.length === 0 ? 'none' : list(ready, ', ')}\nBlocked: ${
    blocked.length === 0 ? 'none' : list(blocked, '; ')
  }`;
}
