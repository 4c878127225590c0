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

/**
 * The code of a {@link ToolValidationError}: one of plankit's {@link ToolValidationCode}s, or
 * any other string a custom tool names for its own refusals.
 *
 * @public
 */
export type ToolValidationErrorCode = ToolValidationCode | (string & {}); // `& {}` keeps completion

/** Options of {@link ToolValidationError}. @public */
export interface ToolValidationErrorOptions extends PlankitErrorOptions {
  /** The stable reason; `'invalid'` when omitted. */
  readonly code?: ToolValidationErrorCode | undefined;
  /** Every schema problem, for `code: 'schema'`. */
  readonly issues?: readonly ToolIssue[] | undefined;
}

/**
 * A tool refused its input. Tool handlers throw it; {@link invokeTool} turns it into a failed
 * result whose message reads `Tool validation failed: <message>`, which the model can fix.
 *
 * @example
 * ```ts
 * import { ToolValidationError } from '@plankit/core';
 *
 * const error = new ToolValidationError('Title must not be empty.', {
 *   code: 'title_empty',
 *   field: 'title',
 * });
 * ```
 *
 * @public
 */
export class ToolValidationError extends PlankitError<ToolValidationErrorCode> {
  /** The name every instance takes, kept as a literal so minified bundles keep it. */
  static override readonly errorName: string = 'ToolValidationError';

  /** Every schema problem, in the order found (empty unless `code` is `schema`). */
  readonly issues: readonly ToolIssue[];

  /**
   * Creates the error.
   *
   * @param message - the message the model reads
   * @param options - the stable code (default `'invalid'`), the field at fault, schema issues
   *   and the cause
   */
  constructor(message: string, options?: ToolValidationErrorOptions);
  /**
   * Creates the error, code first.
   *
   * @deprecated Pass the message first: `new ToolValidationError(message, { code, ...options })`.
   * This form goes away in the next minor release.
   * @param code - the stable reason
   * @param message - the message the model reads
   * @param options - the field at fault, schema issues and the cause
   */
  constructor(code: ToolValidationErrorCode, message: string, options?: ToolValidationErrorOptions);
  constructor(
    first: string,
    second?: string | ToolValidationErrorOptions,
    third?: ToolValidationErrorOptions,
  ) {
    // Two leading strings can only be the deprecated code-first form.
    const legacy = typeof second === 'string';
    const options = (legacy ? third : second) ?? {};
    const message = legacy ? second : first;
    const code = legacy ? first : (options.code ?? 'invalid');
    super(code, message, options);
    this.issues = Object.freeze([...(options.issues ?? [])]);
  }

  /** True for a {@link ToolValidationError}, from this copy of the package or another one. */
  static override isInstance(value: unknown): value is ToolValidationError {
    return PlankitError.hasBrand(value, ToolValidationError.errorName);
  }
}
