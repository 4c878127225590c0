import { PlankitError, type PlankitErrorOptions } from '@plankit/core';

/**
 * Codes of {@link WorkflowError}. The set is stable: codes are added, never renamed.
 *
 * Thrown (programmer errors): `argument_invalid`, `config_invalid`. Returned as
 * `{ ok: false, error }` (expected failures): every other code. The `todos_*` and `todo_*`
 * codes are the rules of the todos document, in the order `validateTodos` applies them.
 *
 * @public
 */
export type WorkflowErrorCode =
  | 'argument_invalid'
  | 'config_invalid'
  | 'input_invalid'
  | 'todos_missing'
  | 'todos_too_large'
  | 'todos_yaml_invalid'
  | 'todos_list_missing'
  | 'todos_count'
  | 'todo_invalid'
  | 'todo_id_duplicate'
  | 'todo_unknown'
  | 'todo_completed'
  | 'phase_mismatch'
  | 'review_pending'
  | 'review_not_pending'
  | 'review_not_required'
  | 'job_done'
  | 'state_invalid'
  | 'state_version_unknown'
  | 'artifact_unknown'
  | 'artifact_invalid'
  | 'artifact_projection'
  | 'artifact_out_of_phase'
  | 'workshop_done'
  | 'machine_refused';

/**
 * What the workflow functions report: a stable `code` and the input `field` at fault. Use
 * {@link WorkflowError.isInstance} rather than `instanceof` to test for it.
 *
 * @public
 */
export class WorkflowError extends PlankitError<WorkflowErrorCode> {
  /** The name every instance takes, kept as a literal so minified bundles keep it. */
  static override readonly errorName: string = 'WorkflowError';

  /**
   * Creates the error.
   *
   * @param code - the stable reason
   * @param message - a sentence a person (or a model) can act on
   * @param options - the field at fault and the cause
   */
  constructor(code: WorkflowErrorCode, message: string, options: PlankitErrorOptions = {}) {
    super(code, message, options);
  }

  /** True for a {@link WorkflowError}, from this copy of the package or another one. */
  static override isInstance(value: unknown): value is WorkflowError {
    return PlankitError.hasBrand(value, WorkflowError.errorName);
  }
}
