import {
  PlankitError,
  type PlankitErrorOptions,
  type ToolValidationCode,
} from './plankit-error.ts';

/** One problem found while checking a tool's arguments against its schema. @public */
export interface ToolIssue {
  /** Dotted path of the field, empty for the arguments as a whole. */
  readonly path: string;
  /** What rule the value broke. */
  readonly message: string;
}

/** Options of {@link ToolValidationError}. @public */
export interface ToolValidationErrorOptions extends PlankitErrorOptions {
  /** Every schema problem, for `code: 'schema'`. */
  readonly issues?: readonly ToolIssue[] | undefined;
}

/**
 * A tool refused its input. Tool handlers throw it; {@link invokeTool} turns it into a failed
 * result whose message reads `Tool validation failed: <message>`, which the model can fix.
 *
 * @public
 */
export class ToolValidationError extends PlankitError<ToolValidationCode> {
  /** Every schema problem, in the order found (empty unless `code` is `schema`). */
  readonly issues: readonly ToolIssue[];

  /**
   * Creates the error.
   *
   * @param code - the stable reason
   * @param message - the message the model reads
   * @param options - the field at fault, schema issues and the cause
   */
  constructor(code: ToolValidationCode, message: string, options: ToolValidationErrorOptions = {}) {
    super(code, message, options);
    this.issues = Object.freeze([...(options.issues ?? [])]);
  }

  /** True for a {@link ToolValidationError}, from this copy of the package or another one. */
  static override isInstance(value: unknown): value is ToolValidationError {
    return PlankitError.hasBrand(value, 'ToolValidationError');
  }
}
