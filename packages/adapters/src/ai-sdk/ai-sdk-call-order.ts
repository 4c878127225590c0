import { announceInConversation, type ToolCallOrder } from '../host/model-order.ts';

/** The turn of one step: a fresh key, and the ids announced in it. */
interface StepTurn {
  readonly key: object;
  readonly ids: Set<string>;
}

interface SessionTurns {
  /** The current turn of each step messages array. */
  readonly steps: WeakMap<object, StepTurn>;
  /** The turn each recent call id was announced in, oldest first. */
  readonly announced: Map<string, object>;
}

// Enough for the calls of the turns `model-order` remembers (32) at a generous 32 calls each.
const MAX_ANNOUNCED = 1024;
const byConversation = new WeakMap<object, SessionTurns>();

function turnsOf(conversation: object): SessionTurns {
  let turns = byConversation.get(conversation);
  if (turns === undefined) {
    turns = { steps: new WeakMap(), announced: new Map() };
    byConversation.set(conversation, turns);
  }
  return turns;
}

/**
 * Announces one AI SDK tool call, from `onInputAvailable`, which both majors run in emission
 * order with the step's messages array, into the conversation named by its model-order key. An id already announced for the same array starts a
 * new turn: the array is shared across steps only when `prepareStep` returns one array every
 * time, and ids repeat only across steps (providers that number calls `call_0`, ...), so the
 * repeat is a new step, not a retry.
 */
export function announceAISDKCall(conversation: object, messages: object, id: string): void {
  const turns = turnsOf(conversation);
  let step = turns.steps.get(messages);
  if (step === undefined || step.ids.has(id)) {
    step = { key: {}, ids: new Set() };
    turns.steps.set(messages, step);
  }
  step.ids.add(id);
  turns.announced.delete(id);
  turns.announced.set(id, step.key);
  if (turns.announced.size > MAX_ANNOUNCED) {
    const oldest = turns.announced.keys().next().value as string;
    turns.announced.delete(oldest);
  }
  announceInConversation(conversation, step.key, [id]);
}

/**
 * The place of a call in its step, for `callTool`: the turn it was announced in, else (the SDK
 * ran it without `onInputAvailable`) its messages array's turn, where it takes the next place.
 */
export function orderOfAISDKCall(
  conversation: object,
  messages: object,
  id: string,
): ToolCallOrder {
  const turns = turnsOf(conversation);
  const turn = turns.announced.get(id) ?? turns.steps.get(messages)?.key ?? messages;
  return { turn, id };
}
