import { invalidArgument } from './internal/invalid-argument.ts';
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
 * How many issues a {@link ToolValidationError} keeps by default: the first 100. A refused
 * call with 100,000 bad items would otherwise hold 100,000 issue objects (megabytes) on a
 * result a host may log or keep; `issueCount` still says how many were found. Pass
 * `maxIssues` (to the error, or to `invokeTool`) to keep more.
 *
 * @public
 */
export const MAX_TOOL_ISSUES = 100;

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
  /** The schema problems, for `code: 'schema'`; only the first `maxIssues` are kept. */
  readonly issues?: readonly ToolIssue[] | undefined;
  /**
   * How many problems were found, when `issues` holds only the first ones (the caller stopped
   * collecting); `issues.length` by default. The error's `issueCount` is the larger of the two.
   */
  readonly issueCount?: number | undefined;
  /**
   * How many of `issues` to keep: {@link MAX_TOOL_ISSUES} by default, `Infinity` for all. A
   * whole number, at least 0.
   */
  readonly maxIssues?: number | undefined;
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

  /**
   * The schema problems, in the order found: the first `maxIssues` ({@link MAX_TOOL_ISSUES}
   * by default) of {@link ToolValidationError.issueCount}. Empty unless `code` is `schema`.
   */
  readonly issues: readonly ToolIssue[];
  /** How many schema problems were found; more than `issues.length` when some were not kept. */
  readonly issueCount: number;

  /**
   * Creates the error.
   *
   * @param message - the message the model reads
   * @param options - the stable code (default `'invalid'`), the field at fault, schema issues
   *   (the first `maxIssues` kept, and how many were found) and the cause
   * @throws PlankitError `argument_invalid` when `maxIssues` is not a whole number >= 0, or
   *   `options` is not an object (a code passed first)
   */
  constructor(message: string, options: ToolValidationErrorOptions = {}) {
    // A second string is the code-first form this class no longer takes: refused rather than
    // read as options, which would drop the code and the message the caller meant.
    if (typeof options !== 'object' || options === null)
      throw invalidArgument(
        'ToolValidationError',
        'options',
        'must be an object: pass the message first, new ToolValidationError(message, { code })',
      );
    super(options.code ?? 'invalid', message, options);
    const max = options.maxIssues ?? MAX_TOOL_ISSUES;
    if (!(max === Number.POSITIVE_INFINITY || (Number.isSafeInteger(max) && max >= 0)))
      throw invalidArgument(
        'ToolValidationError',
        'options.maxIssues',
        'must be a whole number >= 0',
      );
    const issues = options.issues ?? [];
    this.issues = Object.freeze(issues.length <= max ? [...issues] : issues.slice(0, max));
    this.issueCount = Math.max(issues.length, options.issueCount ?? 0);
  }

  /** True for a {@link ToolValidationError}, from this copy of the package or another one. */
  static override isInstance(value: unknown): value is ToolValidationError {
    return PlankitError.hasBrand(value, ToolValidationError.errorName);
  }
}
