import {
  type AnyTool,
  invokeTool,
  type Session,
  type ToolFailure,
  type ToolResult,
  ToolValidationError,
} from '@plankit/core';
import { clipText, escapeControl } from '@plankit/core/internal-unstable';
import { conversationKeyOf } from './conversation-key.ts';
import { runInModelOrder, type ToolCallOrder } from './model-order.ts';
import { parseToolArguments } from './parse-tool-arguments.ts';
import { refusal } from './refusal.ts';

/** A tool call in host-neutral form. @public */
export interface ToolCallRequest {
  /** The tool name the model asked for. */
  readonly name: string;
  /** The arguments: a JSON string or a parsed value. */
  readonly arguments: unknown;
  /**
   * True when the host parsed `arguments` from the model's JSON itself: a string is then refused
   * as not an object, not parsed again (see {@link parseToolArguments}). False by default.
   */
  readonly parsed?: boolean | undefined;
}

/** Options of {@link callTool}. @public */
export interface CallToolOptions {
  /** The session the tools run against. */
  readonly session: Session;
  /** When, in epoch milliseconds; the session's clock by default. */
  readonly now?: number | undefined;
  /** Rewrites parsed arguments before validation (OpenAI strict mode turns its nulls back into absent fields). */
  readonly prepare?:
    | ((args: Readonly<Record<string, unknown>>, tool: AnyTool) => unknown)
    | undefined;
  /**
   * The call's place in the model's response. With it, the calls of one turn apply in the order
   * the model emitted them (see {@link announceToolCalls}), and a retried id applies once:
   * its second run returns the first outcome. Without it, calls apply in arrival order.
   */
  readonly order?: ToolCallOrder | undefined;
  /**
   * How long a call waits for an earlier call of its turn that was announced but has not
   * started (the host skipped it, or a hook holds it), in milliseconds; 30,000 by default.
   */
  readonly orderTimeoutMs?: number | undefined;
}

/** What {@link callTool} returns: the tool that ran (if any) and its result. @public */
export interface ToolCallOutcome {
  /** The tool found by name, or `undefined` for an unknown name. */
  readonly tool: AnyTool | undefined;
  /** The result; failures are values the model can read, never throws. */
  readonly result: ToolResult<unknown>;
}

const MAX_NAME = 64;

const refused = (error: ToolValidationError): ToolFailure => refusal(error);

/**
 * Runs one tool call by name: finds the tool, parses its arguments, and invokes it. Unknown
 * names and malformed arguments come back as failed results (`tool_unknown`,
 * `arguments_malformed`) in the same `Tool validation failed: ...` form as every other refusal.
 * Calls on one session run one at a time, even when the host starts them concurrently: in
 * model order when `order` says where each call stands in its turn, else in arrival order.
 *
 * @public
 */
export function callTool(
  tools: readonly AnyTool[],
  call: ToolCallRequest,
  options: CallToolOptions,
): Promise<ToolCallOutcome> {
  if (options.order === undefined) return enqueue(tools, call, options);
  const timeoutMs = options.orderTimeoutMs ?? DEFAULT_ORDER_TIMEOUT_MS;
  return runInModelOrder(conversationKeyOf(options.session), options.order, { timeoutMs }, () =>
    enqueue(tools, call, options),
  );
}

/** How long a call waits for an announced earlier call of its turn, by default. */
export const DEFAULT_ORDER_TIMEOUT_MS = 30_000;

function enqueue(
  tools: readonly AnyTool[],
  call: ToolCallRequest,
  options: CallToolOptions,
): Promise<ToolCallOutcome> {
  return oneAtATime(options.session, () => runCall(tools, call, options));
}

/** Runs `work` on `session` after the work queued on it before: calls on one session never interleave. */
export function oneAtATime<T>(session: Session, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(session) ?? Promise.resolve();
  const next = previous.then(work);
  queues.set(
    session,
    next.catch(() => undefined),
  );
  return next;
}

// Hosts such as the AI SDK and LangGraph run a step's tool calls concurrently, but planning
// calls depend on order (a setup must commit before the mark after it is checked).
const queues = new WeakMap<Session, Promise<unknown>>();

/** Finds a tool by name, parses the arguments, invokes it: {@link callTool} without ordering. */
export async function runCall(
  tools: readonly AnyTool[],
  call: ToolCallRequest,
  options: CallToolOptions,
): Promise<ToolCallOutcome> {
  const name = typeof call?.name === 'string' ? call.name : '';
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) {
    // The first MAX_NAME code units and `...`, never splitting a surrogate pair.
    const clipped = clipText(name, MAX_NAME + 3);
    // Escaped, so the model's text stays on the line it is quoted in.
    const shown = escapeControl(clipped);
    const available = tools.map((candidate) => candidate.name).join(', ');
    const error = new ToolValidationError(
      `Unknown tool '${shown}'. Available tools: ${available}.`,
      { code: 'tool_unknown', field: 'name' },
    );
    return { tool: undefined, result: refused(error) };
  }
  const parsed = parseToolArguments(call.arguments, { parsed: call.parsed });
  if (!parsed.ok) return { tool, result: refused(parsed.error) };
  const args = options.prepare === undefined ? parsed.value : options.prepare(parsed.value, tool);
  return {
    tool,
    result: await invokeTool(tool, args, { session: options.session, now: options.now }),
  };
}
