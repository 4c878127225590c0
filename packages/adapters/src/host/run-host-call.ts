import {
  type AnyTool,
  invokeTool,
  type Result,
  type Session,
  type ToolResult,
  ToolValidationError,
} from '@plankit/core';
import type { SessionSource } from '../sessions/resolve-session.ts';
import type { SessionResolveError } from '../sessions/session-resolve-error.ts';
import { type Conversation, conversationOf } from './conversation.ts';
import { DEFAULT_DURABILITY, type Durability } from './host-tool-options.ts';
import { runInModelOrder, type ToolCallOrder } from './model-order.ts';
import { parseToolArguments } from './parse-tool-arguments.ts';
import { quotedName, refusal } from './refusal.ts';

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
  /**
   * The host's id of the call (OpenAI's `call_...`, the AI SDK's `toolCallId`), which the
   * `plankit:tool-call` diagnostics channel reports as `callId`; one outside 1-256 characters
   * is left out.
   */
  readonly id?: string | undefined;
}

/** What `callTool` returns: the tool that ran (if any) and its result. @public */
export interface ToolCallOutcome {
  /** The tool found by name, or `undefined` for an unknown name. */
  readonly tool: AnyTool | undefined;
  /** The result; failures are values the model can read, never throws. */
  readonly result: ToolResult<unknown>;
}

/** Rewrites a call's parsed arguments for the tool before validation. */
export type ArgumentsPrepare = (args: Readonly<Record<string, unknown>>, tool: AnyTool) => unknown;

/** How long a call waits for an announced earlier call of its turn, by default. */
export const DEFAULT_ORDER_TIMEOUT_MS = 30_000;

/** One tool call as a host adapter hands it to the pipeline. */
export interface HostCall<C> {
  /** The tools the call may name. */
  readonly tools: readonly AnyTool[];
  /** The adapter's session source. */
  readonly source: SessionSource<C>;
  /** The host's context of the call, given to a resolver; or why the host gave none usable. */
  readonly context: Result<C, SessionResolveError>;
  /** The call: a tool name and its arguments. */
  readonly call: ToolCallRequest;
  /** When, in epoch milliseconds; the session's clock by default. */
  readonly now?: number | undefined;
  /** Rewrites parsed arguments before validation (strict mode's nulls back to absent). */
  readonly prepare?: ArgumentsPrepare | undefined;
  /**
   * The call's place in the model's response, given its conversation's model-order key (the
   * adapter may announce the turn's calls there first); `undefined` to apply in arrival order.
   */
  readonly order?: ((conversation: object) => ToolCallOrder | undefined) | undefined;
  /** How long a call waits for an announced earlier call of its turn; 30,000 ms by default. */
  readonly orderTimeoutMs?: number | undefined;
  /** Whether the result waits for the store: see `Durability`; `'sync'` by default. */
  readonly durability?: Durability | undefined;
  /** Told the call's conversation once it is named, before the call waits or runs. */
  readonly onConversation?: ((conversation: Conversation) => void) | undefined;
}

// What the pipeline returns is what `callTool` returns: the tool found by name (`undefined` for
// an unknown name or a call no session serves) and its result, every failure a value.
function refused(error: SessionResolveError): ToolCallOutcome {
  return { tool: undefined, result: refusal(error) };
}

/**
 * Runs one host tool call, the same way for every host: name the conversation, wait for the
 * call's turn in model order (holding no session meanwhile), then run the call holding the
 * conversation's session, so a step's calls all apply to one copy of it; under `'sync'`
 * durability the result waits for the store's acknowledgement. Never throws for what
 * the model or the host sent: a call no session serves comes back as a refusal.
 */
export async function runHostCall<C>(host: HostCall<C>): Promise<ToolCallOutcome> {
  if (!host.context.ok) return refused(host.context.error);
  const found = await conversationOf(host.source, host.context.value);
  if (!found.ok) return refused(found.error);
  const conversation = found.value;
  host.onConversation?.(conversation);
  const order = host.order?.(conversation.key);
  const run = (): Promise<Result<ToolCallOutcome, SessionResolveError>> =>
    conversation.hold(
      (session) =>
        runCall(host.tools, host.call, { session, now: host.now, prepare: host.prepare }),
      (host.durability ?? DEFAULT_DURABILITY) === 'sync',
    );
  const held =
    order === undefined
      ? await run()
      : await runInModelOrder(
          conversation.key,
          order,
          { timeoutMs: host.orderTimeoutMs ?? DEFAULT_ORDER_TIMEOUT_MS },
          run,
        );
  return held.ok ? held.value : refused(held.error);
}

/** Finds a tool by name, parses the arguments, invokes it: `callTool` without ordering. */
export async function runCall(
  tools: readonly AnyTool[],
  call: ToolCallRequest,
  options: {
    readonly session: Session;
    readonly now?: number | undefined;
    readonly prepare?: ArgumentsPrepare | undefined;
  },
): Promise<ToolCallOutcome> {
  const name = typeof call?.name === 'string' ? call.name : '';
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) {
    const shown = quotedName(name);
    const available = tools.map((candidate) => candidate.name).join(', ');
    const error = new ToolValidationError(
      `Unknown tool '${shown}'. Available tools: ${available}.`,
      { code: 'tool_unknown', field: 'name' },
    );
    return { tool: undefined, result: refusal(error) };
  }
  const parsed = parseToolArguments(call.arguments, { parsed: call.parsed });
  if (!parsed.ok) return { tool, result: refusal(parsed.error) };
  const args = options.prepare === undefined ? parsed.value : options.prepare(parsed.value, tool);
  const { session, now } = options;
  // The session is the conversation's (a pool names its sessions by conversation id).
  const ids: { callId?: string; conversationId: string } = { conversationId: session.sessionId };
  const id = call.id;
  if (typeof id === 'string' && id.length > 0 && id.length <= 256) ids.callId = id;
  return { tool, result: await invokeTool(tool, args, { session, now, ...ids }) };
}
