import { type PlankitError, type ToolFailure, ToolValidationError } from '@plankit/core';
import { refusalText, toolFailure } from '@plankit/core/internal';
import type { SessionResolveError } from '../sessions/session-resolve-error.ts';

/** What every refusal the model reads starts with, whichever host carries it. */
const PREFIX = 'Tool validation failed: ';

/** The text the model reads for a refused call, clipped to the refusal limit. */
export function refusalMessage(reason: string): string {
  return refusalText(`${PREFIX}${reason}`);
}

/**
 * A refused call as a failed result, in plankit's refusal form: `success: false`, the
 * `Tool validation failed: ...` text, and the error that says why.
 */
export function refusal(error: ToolValidationError | SessionResolveError): ToolFailure {
  return toolFailure({
    success: false,
    message: refusalMessage(error.message),
    value: null,
    error: error as unknown as PlankitError,
  });
}

/** A call the host delivered in a shape no tool can run, refused like any bad call. */
export function malformedCall(
  message: string,
  field: string,
  code: 'arguments_malformed' | 'tool_unknown' = 'arguments_malformed',
): ToolFailure {
  return refusal(new ToolValidationError(message, { code, field }));
}
