import type * as z from 'zod';
import { dataTypeName } from './define-data-type.ts';
import type { AnyTool, Tool } from './define-tool.ts';
import { invalidArgument } from './internal/invalid-argument.ts';
import { deepFreeze } from './internal/produce.ts';
import { PlankitError } from './plankit-error.ts';
import { Session } from './session.ts';
import { SessionError } from './session-error.ts';
import type { ToolFailure, ToolResult } from './tool-result.ts';
import { type ToolIssue, ToolValidationError } from './tool-validation-error.ts';

/** The result value type of a tool. @public */
export type ToolResultValue<T> = T extends Tool<infer _P, infer R, infer _I> ? R : never;

/** Options of {@link invokeTool}. @public */
export interface InvokeToolOptions {
  /** The session the tool reads and whose reducers receive the result. */
  readonly session: Session;
  /** When, in epoch milliseconds; the session's clock by default. */
  readonly now?: number | undefined;
}

const MAX_ISSUE_LENGTH = 200;

function clip(text: string): string {
  return text.length <= MAX_ISSUE_LENGTH ? text : `${text.slice(0, MAX_ISSUE_LENGTH - 3)}...`;
}

/** Formats a path the way a model would write it: `initial_steps[0].title`. */
function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? clip(String(part)) : `.${clip(String(part))}`;
  }
  return out;
}

function schemaError(error: z.ZodError): ToolValidationError {
  const issues: ToolIssue[] = error.issues.map((issue) => ({
    path: formatPath(issue.path),
    message: clip(issue.message),
  }));
  const message = issues
    .map((issue) => (issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`))
    .join('; ');
  return new ToolValidationError('schema', message, {
    field: issues[0]?.path || undefined,
    issues,
  });
}

function failure(message: string, error: PlankitError): ToolFailure {
  return Object.freeze({ success: false, message, value: null, error });
}

function validationFailure(error: ToolValidationError): ToolFailure {
  return failure(`Tool validation failed: ${error.message}`, error);
}

function executionFailure(toolName: string, cause: unknown): ToolFailure {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const error = new PlankitError(
    'tool_execution_failed',
    `Tool '${toolName}' execution failed: ${reason}`,
    { cause },
  );
  return failure(error.message, error);
}

async function run<P, R>(
  tool: Tool<P, R, unknown>,
  rawArgs: unknown,
  session: Session,
  now: number,
): Promise<{ params: unknown; result: ToolResult<R> }> {
  const parsed = tool.parameters.safeParse(rawArgs);
  if (!parsed.success)
    return { params: rawArgs, result: validationFailure(schemaError(parsed.error)) };
  const params = deepFreeze(parsed.data);
  try {
    const returned = await tool.handler(params, { session, now, toolName: tool.name });
    if (
      typeof returned !== 'object' ||
      returned === null ||
      typeof returned.message !== 'string' ||
      !('value' in returned)
    ) {
      return {
        params,
        result: executionFailure(tool.name, 'the handler must return { message, value }'),
      };
    }
    return {
      params,
      result: Object.freeze({ success: true, message: returned.message, value: returned.value }),
    };
  } catch (error) {
    const result = ToolValidationError.isInstance(error)
      ? validationFailure(error)
      : executionFailure(tool.name, error);
    return { params, result };
  }
}

/**
 * Runs a tool the way a model calls it: parses `rawArgs` with the tool's schema (unknown keys
 * refused, every problem reported with its field path), runs the handler, publishes
 * `ToolInvoked` on the session's bus (which reduces a successful result into the session),
 * and returns `{ success, message, value }`.
 *
 * Never throws for bad input: a refused call resolves to `success: false` with the message
 * `Tool validation failed: ...` (or `Tool '<name>' execution failed: ...` when the handler or a
 * reducer broke), and leaves the session exactly as it was.
 *
 * @example
 * ```ts
 * const result = await invokeTool(setup, { objective: 'ship v2' }, { session });
 * if (!result.success) console.log(result.message); // hand it back to the model
 * ```
 * @public
 */
export async function invokeTool<T extends AnyTool>(
  tool: T,
  rawArgs: unknown,
  options: InvokeToolOptions,
): Promise<ToolResult<ToolResultValue<T>>> {
  if (
    typeof tool !== 'object' ||
    tool === null ||
    typeof tool.handler !== 'function' ||
    typeof tool.name !== 'string'
  ) {
    throw invalidArgument('invokeTool', 'tool', 'must be a tool made by defineTool');
  }
  const session = options?.session;
  if (!(session instanceof Session))
    throw invalidArgument('invokeTool', 'options.session', 'must be a Session');
  const now = options.now ?? session.clock();
  if (typeof now !== 'number' || !Number.isFinite(now))
    throw invalidArgument('invokeTool', 'options.now', 'must be a finite number');

  const { params, result } = await run(tool, rawArgs, session, now);
  const resultType = tool.resultType === null ? null : dataTypeName(tool.resultType);
  const published = session.bus.publish(
    Object.freeze({
      type: 'ToolInvoked',
      sessionId: session.sessionId,
      tool: tool.name,
      params,
      result,
      resultType,
      at: now,
    }),
  );
  if (!result.success) return result;
  // The session reduces the result while the event is delivered; if its reducers refused it,
  // the call failed and the session is unchanged.
  for (const { error } of published.failures) {
    if (SessionError.isInstance(error) && error.sessionId === session.sessionId) {
      const cause = error.cause;
      return ToolValidationError.isInstance(cause)
        ? validationFailure(cause)
        : executionFailure(tool.name, error);
    }
  }
  return result;
}
