import type { Todo } from './todo.ts';

/** A finished tactical phase, as archived to `archive/phase_N.yaml`. @public */
export interface PhaseArchive {
  /** The tactical phase's number. */
  readonly phaseNumber: number;
  /** The todos document's `phase` title, or null. */
  readonly title: string | null;
  /** The todos document's `description`, or null. */
  readonly description: string | null;
  /** The phase's todos, all completed. */
  readonly todos: readonly Todo[];
}
