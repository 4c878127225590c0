import type { AnyTool, Session } from '@plankit/core';
import { oneAtATime } from './conversation.ts';
import { conversationKeyOf } from './conversation-key.ts';
import { runInModelOrder, type ToolCallOrder } from './model-order.ts';
import {
  type ArgumentsPrepare,
  DEFAULT_ORDER_TIMEOUT_MS,
  runCall,
  type ToolCallOutcome,
  type ToolCallRequest,
} from './run-host-call.ts';

/** Options of {@link callTool}. @public */
export interface CallToolOptions {
  /** The session the tools run against. */
  readonly session: Session;
  /** When, in epoch milliseconds; the session's clock by default. */
  readonly now?: number | undefined;
  /** Rewrites parsed arguments before validation (OpenAI strict mode turns its nulls back into absent fields). */
  readonly prepare?: ArgumentsPrepare | undefined;
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

function enqueue(
  tools: readonly AnyTool[],
  call: ToolCallRequest,
  options: CallToolOptions,
): Promise<ToolCallOutcome> {
  return oneAtATime(options.session, () => runCall(tools, call, options));
}
