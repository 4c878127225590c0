import type { PlanStep, StepStatus } from '../planning/plan.ts';

/** The three statuses most agents' lists use (LangChain, Codex, ACP, Claude). @public */
export type TodoStatus = 'pending' | 'in_progress' | 'completed';

/** The plankit status each {@link TodoStatus} asks for. @internal */
export const TODO_STATUSES: Readonly<Record<TodoStatus, StepStatus>> = {
  pending: 'pending',
  in_progress: 'in_progress',
  completed: 'done',
};

/** A step's status as a three-status list shows it: `blocked` has no word there, so `pending`. @internal */
export function todoStatus(status: StepStatus): TodoStatus {
  switch (status) {
    case 'pending':
    case 'blocked':
      return 'pending';
    case 'in_progress':
      return 'in_progress';
    case 'done':
      return 'completed';
    default: {
      const unknown: never = status;
      return unknown;
    }
  }
}

/** What a three-status list shows of a step, in plankit's terms. @internal */
export function todoView(step: PlanStep): StepStatus {
  return step.status === 'blocked' ? 'pending' : step.status;
}
