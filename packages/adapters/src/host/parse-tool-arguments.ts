import { type Result, ToolValidationError } from '@plankit/core';
import { clipText, escapeControl, isRecord } from '@plankit/core/internal-unstable';

const MAX_REASON = 120;

/** Options of {@link parseToolArguments}. @public */
export interface ParseToolArgumentsOptions {
  /**
   * True when the host hands over the arguments already parsed from the model's JSON
   * (Anthropic, MCP, LangChain, the AI SDK, the OpenAI Agents SDK): a string is then a JSON
   * string the model sent (arguments encoded twice, say), refused as not an object rather than
   * parsed again. False by default: a string is the JSON text (OpenAI's `arguments`).
   */
  readonly parsed?: boolean | undefined;
}

/**
 * Reads a tool call's arguments as hosts deliver them: a JSON string (OpenAI, raw
 * transcripts) or an already parsed value (Anthropic, MCP, LangChain; say so with
 * `{ parsed: true }`, so that a string there is refused, as the same model output is on a host
 * that delivers text). A blank string reads as `{}`. Anything that is not a JSON object is
 * refused with `arguments_malformed`, as a value the model can read, never a throw.
 *
 * @public
 */
export function parseToolArguments(
  raw: unknown,
  options: ParseToolArgumentsOptions = {},
): Result<Readonly<Record<string, unknown>>, ToolValidationError> {
  let value = raw;
  if (typeof raw === 'string' && options.parsed !== true) {
    if (raw.trim() === '') return { ok: true, value: {} };
    try {
      value = JSON.parse(raw);
    } catch (cause) {
      // The parser quotes the text it failed on: escaped, so a control character the model
      // sent cannot start a line of its own in the refusal.
      const reason = escapeControl(cause instanceof Error ? cause.message : String(cause));
      const clipped = clipText(reason, MAX_REASON);
      return {
        ok: false,
        error: new ToolValidationError(
          `Arguments must be a JSON object; the JSON is invalid: ${clipped}`,
          { code: 'arguments_malformed', cause },
        ),
      };
    }
  }
  if (!isRecord(value)) {
    const kind =
      value === null
        ? 'null'
        : value === undefined
          ? 'none'
          : Array.isArray(value)
            ? 'an array'
            : `a ${typeof value}`;
    return {
      ok: false,
      error: new ToolValidationError(`Arguments must be a JSON object, got ${kind}.`, {
        code: 'arguments_malformed',
      }),
    };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
