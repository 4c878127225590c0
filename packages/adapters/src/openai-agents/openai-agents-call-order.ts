import { announceInConversation, type ToolCallOrder } from '../host/model-order.ts';

/**
 * One model response as the adapter sees it: the calls of its function call items, in the
 * order the model emitted them, that the SDK is about to run now.
 */
interface Turn {
  readonly ids: string[];
}

interface RunCalls {
  /** The response whose calls are being recorded; closed at the end of the current tick. */
  open: Turn | undefined;
  /** Each recorded call id and its response. */
  readonly turns: Map<string, Turn>;
}

// Call ids kept per run, oldest first: enough for the calls of the current response, bounded
// so a long run's memory does not grow with its history.
const MAX_CALLS = 256;
const runs = new WeakMap<object, RunCalls>();

/**
 * Records a call of the response the SDK is running, in emission order. The Runner asks each
 * function call's approval policy (`needsApproval`) in the order of the response's function
 * call items, all in one synchronous pass before any call runs; so the calls recorded before
 * the current tick ends are the calls of one response. A call that will not run now (it waits
 * for approval) is not recorded, so no other call waits for it.
 */
export function recordOpenAIAgentsCall(runContext: object, callId: string): void {
  let calls = runs.get(runContext);
  if (calls === undefined) {
    calls = { open: undefined, turns: new Map() };
    runs.set(runContext, calls);
  }
  if (calls.turns.has(callId)) return;
  let turn = calls.open;
  if (turn === undefined) {
    const opened: Turn = { ids: [] };
    turn = opened;
    calls.open = opened;
    const owner = calls;
    queueMicrotask(() => {
      if (owner.open === opened) owner.open = undefined;
    });
  }
  turn.ids.push(callId);
  calls.turns.set(callId, turn);
  if (calls.turns.size > MAX_CALLS) {
    const oldest = calls.turns.keys().next().value as string;
    calls.turns.delete(oldest);
  }
}

/**
 * The order of a call the SDK runs now: its response and id, after announcing every recorded
 * call of that response in the conversation (its model-order key) in emission order. `undefined` for a call that was not
 * recorded (one approved after an interruption, or one the SDK ran without asking its policy):
 * it applies in arrival order.
 */
export function openAIAgentsCallOrder(
  conversation: object,
  runContext: object,
  callId: string | undefined,
): ToolCallOrder | undefined {
  if (callId === undefined) return undefined;
  const turn = runs.get(runContext)?.turns.get(callId);
  if (turn === undefined) return undefined;
  announceInConversation(conversation, turn, turn.ids);
  return { turn, id: callId };
}
