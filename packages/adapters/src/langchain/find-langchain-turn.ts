import { isRecord } from '@plankit/core/internal-unstable';

/**
 * Where a LangChain tool call stands in its model turn, read from what LangGraph hands the tool.
 * Kept apart from the tool wrapper so the lookup is plain data walking, testable on its own.
 */

/** A model turn found in the graph state: its key and the ids to announce, in emission order. */
export interface LangChainTurn {
  /** The `AIMessage`'s id (namespaced), or the message object when it has none. */
  readonly turn: object | string;
  /** Ids of the message's tool calls that name our tools and are not answered yet. */
  readonly ids: readonly string[];
}

/** The fields read from host values whose types we do not import (configs, states, messages). */
interface Fields {
  readonly state?: unknown;
  readonly configurable?: unknown;
  readonly __pregel_scratchpad?: unknown;
  readonly currentTaskInput?: unknown;
  readonly messages?: unknown;
  readonly tool_calls?: unknown;
  readonly tool_call_id?: unknown;
  readonly getType?: unknown;
  readonly id?: unknown;
  readonly name?: unknown;
}

/** A plain object, read through the fields a LangChain value may have. */
function hasFields(value: unknown): value is Fields {
  return isRecord(value);
}

/**
 * The graph state a tool call runs on. Both ToolNodes pass it as `config.state` (LangChain's
 * `ToolRuntime`); a custom node that hands its own config to `tool.invoke` still carries the
 * task input where LangGraph's `getCurrentTaskInput()` reads it.
 */
export function stateOf(config: unknown): unknown {
  if (!hasFields(config)) return undefined;
  if (config.state !== undefined && config.state !== null) return config.state;
  const configurable = config.configurable;
  if (!hasFields(configurable)) return undefined;
  const scratchpad = configurable.__pregel_scratchpad;
  return hasFields(scratchpad) ? scratchpad.currentTaskInput : undefined;
}

function messagesOf(state: unknown): readonly unknown[] | undefined {
  if (Array.isArray(state)) return state;
  if (hasFields(state) && Array.isArray(state.messages)) return state.messages;
  return undefined;
}

function toolCallsOf(message: unknown): readonly unknown[] | undefined {
  if (!hasFields(message)) return undefined;
  return Array.isArray(message.tool_calls) ? message.tool_calls : undefined;
}

function isToolMessage(message: unknown): message is { readonly tool_call_id: string } {
  if (!hasFields(message) || typeof message.tool_call_id !== 'string') return false;
  const getType = message.getType;
  return typeof getType !== 'function' || getType.call(message) === 'tool';
}

function idOf(call: unknown): string | undefined {
  return hasFields(call) && typeof call.id === 'string' ? call.id : undefined;
}

/**
 * The turn of the tool call `id`: the latest message in the graph state whose `tool_calls`
 * holds it. `undefined` when the host gave no state or the state does not hold the call (a tool
 * invoked directly), and the call then applies in arrival order.
 */
export function findLangChainTurn(
  config: unknown,
  id: string,
  names: ReadonlySet<string>,
): LangChainTurn | undefined {
  const messages = messagesOf(stateOf(config));
  if (messages === undefined) return undefined;
  // Walks back from the end and stops at the call's message (normally the last one), so the
  // cost does not grow with the conversation's history.
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    const calls = toolCallsOf(message);
    if (calls === undefined || !calls.some((call) => idOf(call) === id)) continue;
    // Only messages after the call's own can answer its calls.
    const answered = new Set<string>();
    for (let later = index + 1; later < messages.length; later++) {
      const other = messages[later];
      if (isToolMessage(other)) answered.add(other.tool_call_id);
    }
    const ids: string[] = [];
    for (const call of calls) {
      const callId = idOf(call);
      if (callId === undefined || !hasFields(call) || typeof call.name !== 'string') continue;
      if (!names.has(call.name)) continue;
      // The ToolNode skips calls the state already answers; announcing them would hold the rest.
      if (callId !== id && answered.has(callId)) continue;
      ids.push(callId);
    }
    const messageId = hasFields(message) ? message.id : undefined;
    const turn =
      typeof messageId === 'string' && messageId !== ''
        ? `langchain:${messageId}`
        : (message as object);
    return { turn, ids };
  }
  return undefined;
}
