import * as z from 'zod';
import { dataTypeName } from './define-data-type.ts';
import type { AnyTool, Tool, ToolReturn } from './define-tool.ts';
import { diagnosticsChannel, nextCallId } from './diagnostics/diagnostics-channel.ts';
import { PLAN_CHANNEL, TOOL_CALL_CHANNEL } from './diagnostics/diagnostics-channels.ts';
import type { ToolCallEnded, ToolCallStarted } from './diagnostics/diagnostics-event.ts';
import { formatPath } from './internal/format-path.ts';
import { invalidArgument } from './internal/invalid-argument.ts';
import { deepFreeze } from './internal/produce.ts';
import { clipText, escapeControl, REFUSAL_LIMIT, refusalText } from './internal/refusal-text.ts';
import { storableProblem } from './internal/storable-problem.ts';
import { type ToolDelivery, toolDeliveries } from './internal/tool-delivery.ts';
import { toolFailure, toolSuccess } from './internal/tool-outcome.ts';
import { PlankitError } from './plankit-error.ts';
import type { ToolInvoked } from './plankit-event.ts';
import { Session } from './session.ts';
import type { ToolFailure, ToolResult } from './tool-result.ts';
import { MAX_TOOL_ISSUES, type ToolIssue, ToolValidationError } from './tool-validation-error.ts';

/** The result value type of a tool. @public */
export type ToolResultValue<T> = T extends Tool<infer _P, infer R, infer _I> ? R : never;

/** Options of {@link invokeTool}. @public */
export interface InvokeToolOptions {
  /** The session the tool reads and whose reducers receive the result. */
  readonly session: Session;
  /** When, in epoch milliseconds; the session's clock by default. */
  readonly now?: number | undefined;
  /**
   * How many schema issues a refusal keeps on `error.issues`: `MAX_TOOL_ISSUES` (100) by
   * default, `Infinity` for every one. `error.issueCount` counts them all either way; the
   * model's message lists what fits in 2,000 characters.
   */
  readonly maxIssues?: number | undefined;
  /**
   * The host's id of this tool call (1-256 characters), which the `plankit:tool-call` and
   * `plankit:plan` channels report; a generated `plankit-call-<n>` by default.
   */
  readonly callId?: string | undefined;
  /** The conversation the call belongs to (1-256 characters), for `plankit:tool-call`. */
  readonly conversationId?: string | undefined;
}

const MAX_ISSUE_LENGTH = 200;
// Room for the issues in the message: the limit less the prefix and an "; and N more" tail.
const ISSUES_BUDGET = REFUSAL_LIMIT - 100;

/** One issue as the model reads it, clipped and with control characters escaped. */
function issueText(issue: ToolIssue): string {
  return escapeControl(issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`);
}

/** The field an issue is about: its path, or for unknown keys the first key itself. */
function issueField(issue: z.core.$ZodIssue): string | undefined {
  const key = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
  return formatPath(key === undefined ? issue.path : [...issue.path, key]) || undefined;
}

function schemaError(error: z.ZodError, maxIssues: number): ToolValidationError {
  // Only the issues kept or listed become ToolIssues: 100,000 bad items cost no more than 100.
  const listable = Math.min(error.issues.length, Math.max(maxIssues, ISSUES_BUDGET));
  const issues: ToolIssue[] = [];
  for (let i = 0; i < listable; i++) {
    const issue = error.issues[i];
    if (issue === undefined) break;
    issues.push({
      path: formatPath(issue.path),
      message: clipText(issue.message, MAX_ISSUE_LENGTH),
    });
  }
  // List issues while they fit, then count the rest; error.issueCount counts them all.
  let message = '';
  let listed = 0;
  for (const issue of issues) {
    const text = issueText(issue);
    const next = listed === 0 ? text : `${message}; ${text}`;
    if (listed > 0 && next.length > ISSUES_BUDGET) break;
    message = clipText(next, ISSUES_BUDGET);
    listed++;
  }
  if (listed < error.issues.length) message += `; and ${error.issues.length - listed} more`;
  return new ToolValidationError(message, {
    code: 'schema',
    field: error.issues[0] === undefined ? undefined : issueField(error.issues[0]),
    issues,
    issueCount: error.issues.length,
    maxIssues,
  });
}

/** A diagnostics id: absent, or 1-256 characters. */
function checkId(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > 256)
    throw invalidArgument('invokeTool', field, 'must be a string of 1-256 characters');
  return value;
}

/** What the start of a call told `plankit:tool-call`, so its end can say the same. */
type Traced = Omit<ToolCallStarted, 'type' | 'phase' | 'arguments'>;

// Payloads are built field by field: spreads and conditional spreads allocate on every call.
function traceStart(
  tool: AnyTool,
  rawArgs: unknown,
  session: Session,
  now: number,
  callId: string,
  conversationId: string | undefined,
): Traced {
  const started: { -readonly [K in keyof ToolCallStarted]: ToolCallStarted[K] } = {
    type: 'tool-call-start',
    phase: 'start',
    callId,
    toolName: tool.name,
    sessionId: session.sessionId,
    at: now,
    arguments: rawArgs,
  };
  if (conversationId !== undefined) started.conversationId = conversationId;
  diagnosticsChannel(TOOL_CALL_CHANNEL).publish(Object.freeze(started));
  return started;
}

function traceEnd(traced: Traced, result: ToolResult<unknown>): void {
  const channel = diagnosticsChannel(TOOL_CALL_CHANNEL);
  if (!channel.hasSubscribers) return;
  const ended: { -readonly [K in keyof ToolCallEnded]: ToolCallEnded[K] } = {
    type: 'tool-call-end',
    phase: 'end',
    callId: traced.callId,
    toolName: traced.toolName,
    sessionId: traced.sessionId,
    at: traced.at,
    ok: result.success,
    code: result.success ? null : result.error.code,
    field: result.success ? null : (result.error.field ?? null),
    message: result.message,
    value: result.value,
  };
  if (traced.conversationId !== undefined) ended.conversationId = traced.conversationId;
  channel.publish(Object.freeze(ended));
}

function failure(message: string, error: ToolFailure['error']): ToolFailure {
  return toolFailure({ success: false, message: refusalText(message), value: null, error });
}

function validationFailure(error: ToolValidationError): ToolFailure {
  return failure(`Tool validation failed: ${error.message}`, error);
}

function executionFailure(toolName: string, cause: unknown): ToolFailure {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const error = new PlankitError(
    'tool_execution_failed',
    refusalText(`Tool '${toolName}' execution failed: ${reason}`),
    { cause },
  );
  return failure(error.message, error);
}

interface Outcome<R> {
  readonly params: unknown;
  readonly result: ToolResult<R>;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function settle<R>(
  tool: Tool<unknown, R, unknown>,
  params: unknown,
  returned: unknown,
): Outcome<R> {
  if (
    typeof returned !== 'object' ||
    returned === null ||
    typeof (returned as ToolReturn<R>).message !== 'string' ||
    !('value' in returned)
  ) {
    return {
      params,
      result: executionFailure(tool.name, 'the handler must return { message, value }'),
    };
  }
  // Parameters that passed the schema may still hold what no store can (U+0000, say); the
  // call would be logged with them, so refuse it here, naming the field.
  const problem = storableProblem(params);
  if (problem !== undefined) {
    const field = problem.path === '' ? 'arguments' : problem.path;
    const error = new ToolValidationError(escapeControl(`${field}: ${problem.rule}.`), {
      code: 'arguments_unstorable',
      field: problem.path || undefined,
    });
    return { params, result: validationFailure(error) };
  }
  const { message, value } = returned as ToolReturn<R>;
  return { params, result: toolSuccess(message, value) };
}

function thrown<R>(tool: Tool<unknown, R, unknown>, params: unknown, error: unknown): Outcome<R> {
  const result = ToolValidationError.isInstance(error)
    ? validationFailure(error)
    : executionFailure(tool.name, error);
  return { params, result };
}

type Parsed = z.ZodSafeParseResult<unknown>;

/**
 * Parses and runs the handler. A synchronous handler's outcome comes back synchronously, so
 * the caller can commit it before any other call runs: the check and the commit are one step.
 * A schema that throws on the input (a transform or refinement breaking on what the model
 * sent) fails the call as a throwing handler does; one with an asynchronous refinement or
 * transform (zod throws `$ZodAsyncError` for those) is parsed asynchronously.
 */
function start<R>(
  tool: Tool<unknown, R, unknown>,
  rawArgs: unknown,
  session: Session,
  now: number,
  maxIssues: number,
): Outcome<R> | Promise<Outcome<R>> {
  let parsed: Parsed;
  try {
    parsed = tool.parameters.safeParse(rawArgs);
  } catch (error) {
    if (!(error instanceof z.core.$ZodAsyncError)) return thrown(tool, rawArgs, error);
    return tool.parameters.safeParseAsync(rawArgs).then(
      (done) => run(tool, rawArgs, done, session, now, maxIssues),
      (cause: unknown) => thrown(tool, rawArgs, cause),
    );
  }
  return run(tool, rawArgs, parsed, session, now, maxIssues);
}

/** Runs the handler on parameters the schema accepted, or refuses them with its issues. */
function run<R>(
  tool: Tool<unknown, R, unknown>,
  rawArgs: unknown,
  parsed: Parsed,
  session: Session,
  now: number,
  maxIssues: number,
): Outcome<R> | Promise<Outcome<R>> {
  if (!parsed.success)
    return { params: rawArgs, result: validationFailure(schemaError(parsed.error, maxIssues)) };
  const params = deepFreeze(parsed.data);
  let returned: unknown;
  try {
    returned = tool.handler(params, { session, now, toolName: tool.name });
  } catch (error) {
    return thrown(tool, params, error);
  }
  if (!isThenable(returned)) return settle(tool, params, returned);
  return Promise.resolve(returned).then(
    (value) => settle(tool, params, value),
    (error: unknown) => thrown(tool, params, error),
  );
}

/**
 * Runs a tool the way a model calls it: parses `rawArgs` with the tool's schema (unknown keys
 * refused, every problem reported with its field path), runs the handler, publishes
 * `ToolInvoked` on the session's bus (which reduces a successful result into the session),
 * and returns `{ success, message, value }`.
 *
 * Never throws for bad input: a refused call resolves to `success: false` with the message
 * `Tool validation failed: ...` (or `Tool '<name>' execution failed: ...` when the handler, a
 * reducer, or a transform or refinement of the schema broke), under 2,000 characters whatever
 * the input (schema problems are listed, then counted), and leaves the session exactly as it
 * was. The error keeps the first `MAX_TOOL_ISSUES` schema problems on `error.issues` and
 * counts them all in `error.issueCount` (the `maxIssues` option keeps more), so a refusal of
 * 100,000 bad items stays small on the host side too.
 *
 * Only the session given here reduces the result, even if another session on its bus has the
 * same id; a success means it stored the call. A synchronous handler's result commits before
 * any other call can run, so concurrent calls serialise; an asynchronous handler's result
 * commits when it resolves, as a delta the reducers check against the state by then.
 *
 * While someone subscribes to `plankit:tool-call` (`node:diagnostics_channel`, see
 * `@plankit/core/diagnostics`), the call publishes a `tool-call-start` before the schema runs
 * and a `tool-call-end` with its outcome and refusal code; nothing is built otherwise.
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

  const maxIssues = options.maxIssues ?? MAX_TOOL_ISSUES;
  if (
    !(maxIssues === Number.POSITIVE_INFINITY || (Number.isSafeInteger(maxIssues) && maxIssues >= 0))
  )
    throw invalidArgument('invokeTool', 'options.maxIssues', 'must be a whole number >= 0');
  const hostCallId = checkId(options.callId, 'options.callId');
  const conversationId = checkId(options.conversationId, 'options.conversationId');
  // Ids and payloads are made only while someone listens: without subscribers a call costs
  // two checks.
  let traced: Traced | undefined;
  let callId: string | undefined;
  if (diagnosticsChannel(TOOL_CALL_CHANNEL).hasSubscribers) {
    callId = hostCallId ?? nextCallId();
    traced = traceStart(tool, rawArgs, session, now, callId, conversationId);
  } else if (diagnosticsChannel(PLAN_CHANNEL).hasSubscribers) {
    callId = hostCallId ?? nextCallId();
  }
  const started = start(tool, rawArgs, session, now, maxIssues);
  // Only an asynchronous handler waits here; its result is then a delta applied to the
  // session as it is by then, which the reducers check again.
  const outcome = started instanceof Promise ? await started : started;
  if (traced === undefined) return deliver(tool, session, now, outcome, callId);
  let result: ToolResult<ToolResultValue<T>>;
  try {
    result = deliver(tool, session, now, outcome, callId);
  } catch (error) {
    traceEnd(traced, executionFailure(tool.name, error));
    throw error;
  }
  traceEnd(traced, result);
  return result;
}

/**
 * Publishes `ToolInvoked` on the session's bus (the session reduces a successful result while
 * it is delivered) and returns what the caller gets.
 */
function deliver<R>(
  tool: Tool<unknown, R, unknown>,
  session: Session,
  now: number,
  { params, result }: Outcome<R>,
  callId: string | undefined,
): ToolResult<R> {
  const resultType = tool.resultType === null ? null : dataTypeName(tool.resultType);
  const event: ToolInvoked = {
    type: 'ToolInvoked',
    sessionId: session.sessionId,
    tool: tool.name,
    params,
    result,
    resultType,
    at: now,
  };
  const delivery: ToolDelivery = {
    target: session,
    resultType: tool.resultType,
    callId,
    outcome: undefined,
  };
  toolDeliveries.set(event, delivery);
  session.bus.publish(Object.freeze(event));
  if (!result.success) return result;
  // The session reduced the result while the event was delivered; if it refused it, the call
  // failed and the session is unchanged.
  const outcome = delivery.outcome;
  if (outcome === undefined) {
    return executionFailure(
      tool.name,
      `session ${clipText(session.sessionId, 80)} did not receive the result (is it disposed, or its bus not delivering?); nothing was stored`,
    );
  }
  if (!outcome.ok) {
    const cause = outcome.error.cause;
    return ToolValidationError.isInstance(cause)
      ? validationFailure(cause)
      : executionFailure(tool.name, outcome.error);
  }
  return result;
}
