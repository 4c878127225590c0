import { isRecord } from '@plankit/core/internal-unstable';
import type { TodoRange } from '@plankit/prompt';
import { argumentError, isInteger } from '../internal/checks.ts';

/** A todo as written in `todos.yaml` or predefined: an integer id and what to do. @public */
export interface TodoSpec {
  /** A safe integer, unique in its list. */
  readonly id: number;
  /** What to do, not blank. */
  readonly content: string;
}

/** The todos the controller loads itself, for the three kinds of strategic phase. @public */
export interface PredefinedTodos {
  /** The first strategic phase of a job. */
  readonly initial: readonly TodoSpec[];
  /** A strategic phase after a tactical one. */
  readonly transition: readonly TodoSpec[];
  /** A strategic phase after a reviewer requested changes. */
  readonly revision: readonly TodoSpec[];
}

/** The default todo count: 5-20 per tactical phase. @public */
export const DEFAULT_TODO_RANGE: TodoRange = Object.freeze({ min: 5, max: 20 });

function list(items: readonly (readonly [number, string])[]): readonly TodoSpec[] {
  return Object.freeze(items.map(([id, content]) => Object.freeze({ id, content })));
}

/**
 * The predefined strategic todos in their standard wording (`initial`, `transition`), with the
 * todo count of `range` in the initial phase's third todo, plus our `revision` todos for the
 * strategic iteration that follows review feedback.
 *
 * @throws WorkflowError `argument_invalid` for a range that is not `1 <= min <= max`
 * @example
 * ```ts
 * predefinedTodos({ min: 3, max: 8 }).initial[2].content;
 * // 'Divide the plan into phases, where each phase contains 3-8 concrete, actionable todos.'
 * ```
 * @public
 */
export function predefinedTodos(range: TodoRange = DEFAULT_TODO_RANGE): PredefinedTodos {
  if (
    !isRecord(range) ||
    !isInteger(range.min, 1, 1000) ||
    !isInteger(range.max, range.min, 1000)
  ) {
    throw argumentError(
      'predefinedTodos',
      'range',
      'must be integers with 1 <= min <= max <= 1000',
    );
  }
  return Object.freeze({
    initial: list([
      [
        1,
        'Explore the workspace and populate workspace.md with an overview of the environment, available tools, and any existing context.',
      ],
      [
        2,
        'Read the instructions.md file and create an execution plan in main_plan.md. The plan should outline the phases needed to complete the task.',
      ],
      [
        3,
        `Divide the plan into phases, where each phase contains ${range.min}-${range.max} concrete, actionable todos.`,
      ],
      [4, 'Write the todos for the first phase to todos.yaml using the todo_write tool.'],
    ]),
    transition: list([
      [
        1,
        'Summarize what was accomplished in the previous tactical phase. Note any issues encountered, decisions made, or discoveries.',
      ],
      [
        2,
        'Update workspace.md with new learnings, patterns discovered, or important context for future phases.',
      ],
      [
        3,
        'Update main_plan.md to mark completed phases and adjust upcoming phases if needed based on learnings.',
      ],
      [
        4,
        'Write todos for the next phase to todos.yaml, or call job_complete if the plan is fully executed.',
      ],
    ]),
    revision: list([
      [
        1,
        'Read the review feedback in the first message and in the Review Feedback section of workspace.md, and decide how to address each point.',
      ],
      [
        2,
        'Revise main_plan.md to address the feedback, adjusting phases and methodology as needed.',
      ],
      [3, 'Update workspace.md with the constraints, decisions and context the review added.'],
      [4, 'Write the revised todos for the first phase to todos.yaml using the todo_write tool.'],
    ]),
  });
}

/** The predefined strategic todos for the default range, 5-20. @public */
export const PREDEFINED_TODOS: PredefinedTodos = predefinedTodos();
