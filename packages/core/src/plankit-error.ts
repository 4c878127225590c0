/**
 * Every error code plankit reports. The set is stable: codes are added, never renamed.
 *
 * @public
 */
export type PlankitErrorCode =
  | ToolValidationCode
  | 'argument_invalid'
  | 'data_type_invalid'
  | 'tool_definition_invalid'
  | 'tool_execution_failed'
  | 'reducer_failed'
  | 'slice_unregistered'
  | 'snapshot_invalid'
  | 'snapshot_version_unknown'
  | 'value_invalid';

/**
 * The codes plankit's own tools give a {@link ToolValidationError}: input a model sent that a
 * tool refused. The model can read the message and correct the call. `'invalid'` is the
 * default when a tool names no code.
 *
 * @public
 */
export type ToolValidationCode =
  | 'invalid'
  | 'schema'
  | 'tool_unknown'
  | 'arguments_malformed'
  | 'plan_missing'
  | 'plan_not_active'
  | 'plan_abandoned'
  | 'step_unknown'
  | 'step_in_progress'
  | 'steps_empty'
  | 'update_empty'
  | 'status_invalid'
  | 'text_empty'
  | 'text_too_long'
  | 'text_not_ascii'
  | 'text_control_char'
  | 'text_untrimmed'
  | 'step_ids_exhausted'
  | 'arguments_unstorable'
  | 'dependency_invalid'
  | 'dependency_cycle'
  | 'dependency_open'
  | 'batch_refused';

/** Options shared by every plankit error. @public */
export interface PlankitErrorOptions {
  /** The input field the error is about, as a dotted path (`initial_steps[1].title`). */
  readonly field?: string | undefined;
  /** The underlying error, when one caused this one. */
  readonly cause?: unknown;
}

// A registry-wide symbol, so `isInstance` works even when two copies of the package are loaded.
const brand = Symbol.for('plankit.error');

function brandOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const tag = (value as Record<symbol, unknown>)[brand];
  return typeof tag === 'string' ? tag : undefined;
}

/**
 * The base class of every error plankit reports, with a stable code: {@link PlankitErrorCode}
 * for the core, and each other package's own union for its errors.
 * Use {@link PlankitError.isInstance} rather than `instanceof` to test for it.
 *
 * @public
 */
export class PlankitError<C extends string = PlankitErrorCode> extends Error {
  /** The stable, machine-readable reason. */
  readonly code: C;
  /** The input field at fault, when there is one. */
  readonly field: string | undefined;

  /**
   * Creates the error.
   *
   * @param code - the stable reason
   * @param message - a sentence a person (or a model) can act on
   * @param options - the field at fault and the cause
   */
  constructor(code: C, message: string, options: PlankitErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.field = options.field;
    this.name = new.target.name;
    Object.defineProperty(this, brand, { value: new.target.name });
  }

  /** True for any plankit error, from this copy of the package or another one. */
  static isInstance(value: unknown): value is PlankitError<string> {
    return brandOf(value) !== undefined;
  }

  /**
   * True when `value` carries the brand of the subclass named `name`; subclasses build their
   * own `isInstance` on it.
   */
  protected static hasBrand(value: unknown, name: string): boolean {
    return brandOf(value) === name;
  }
}
