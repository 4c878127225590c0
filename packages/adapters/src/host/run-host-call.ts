import type { AnyTool, Result } from '@plankit/core';
import type { SessionSource } from '../sessions/resolve-session.ts';
import type { SessionResolveError } from '../sessions/session-resolve-error.ts';
import {
  type CallToolOptions,
  DEFAULT_ORDER_TIMEOUT_MS,
  runCall,
  type ToolCallOutcome,
  type ToolCallRequest,
} from './call-tool.ts';
import { type Conversation, conversationOf } from './conversation.ts';
import { runInModelOrder, type ToolCallOrder } from './model-order.ts';
import { refusal } from './refusal.ts';

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
  readonly prepare?: CallToolOptions['prepare'];
  /**
   * The call's place in the model's response, given its conversation's model-order key (the
   * adapter may announce the turn's calls there first); `undefined` to apply in arrival order.
   */
  readonly order?: ((conversation: object) => ToolCallOrder | undefined) | undefined;
  /** How long a call waits for an announced earlier call of its turn; 30,000 ms by default. */
  readonly orderTimeoutMs?: number | undefined;
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
 * conversation's session, so a step's calls all apply to one copy of it. Never throws for what
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
    conversation.hold((session) =>
      runCall(host.tools, host.call, { session, now: host.now, prepare: host.prepare }),
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
