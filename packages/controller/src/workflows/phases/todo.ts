/** Where a todo stands. @public */
export type TodoStatus = 'pending' | 'in_progress' | 'completed';

/** A todo of the current phase. @public */
export interface Todo {
  /** The todo's id, unique in its phase. */
  readonly id: number;
  /** What to do. */
  readonly content: string;
  /** `pending`, `in_progress` (where a rejected hand-off leaves its todo) or `completed`. */
  readonly status: TodoStatus;
}
