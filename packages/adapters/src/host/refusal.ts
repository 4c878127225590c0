import { PlankitError, type ToolFailure, ToolValidationError } from '@plankit/core';
import {
  clipText,
  escapeRefusedText,
  refusalText,
  toolFailure,
} from '@plankit/core/internal-unstable';
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

/** The longest tool name a refusal quotes whole: longer ones keep this many code units. */
const MAX_NAME = 64;

/**
 * A name the model sent, as a refusal quotes it: the first 64 code units and `...` (never
 * splitting a surrogate pair), control characters escaped so it stays on its line, and a lone
 * surrogate (or a bidirectional control, an invisible character) written as `\uXXXX`
 * (`escapeRefusedText`): text with a lone surrogate is not valid UTF-16, and a model's API may
 * refuse the whole request that carries the refusal back.
 */
export function quotedName(name: string): string {
  return escapeRefusedText(clipText(name, MAX_NAME + 3));
}

/** The longest part of a tool name or a thrown reason a call failure quotes. */
const MAX_QUOTED = 500;

/**
 * A call that broke outside the tool's own checks (a store that threw while loading the
 * session, a host bug), in `invokeTool`'s form for a tool that broke: `Tool '<name>'
 * execution failed: <reason>`, code `tool_execution_failed`. The model's arguments were not
 * at fault, so it is not told they were; both quoted parts are clipped and escaped.
 */
export function callFailure(toolName: string, cause: unknown): ToolFailure {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const quote = (text: string): string => escapeRefusedText(clipText(text, MAX_QUOTED));
  const error = new PlankitError(
    'tool_execution_failed',
    refusalText(`Tool '${quote(toolName)}' execution failed: ${quote(reason)}`),
    { cause },
  );
  return toolFailure({ success: false, message: error.message, value: null, error });
}
