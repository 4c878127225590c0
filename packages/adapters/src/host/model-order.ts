import type { Session } from '@plankit/core';
import { conversationKeyOf } from './conversation-key.ts';

/**
 * Where a tool call stands in the model's response: the turn it belongs to and its id there.
 * Calls of one turn apply in the order the model emitted them, whatever order the host runs
 * them in. A turn is any value the host gives once per model response: an object (such as the
 * AI SDK's step messages array or a LangChain `AIMessage`) or a string (a response id).
 *
 * @public
 */
export interface ToolCallOrder {
  /** One model response; compared by identity (objects) or value (strings). */
  readonly turn: object | string;
  /** The host's id of the tool call, unique within its turn. */
  readonly id: string;
}

/** One announced call of a turn. */
interface Slot {
  /** Its place in the turn, from 0. */
  readonly index: number;
  /** The slot announced just before it, if any. */
  readonly previous: Slot | undefined;
  /** The slot announced just after it, once there is one. */
  next: Slot | undefined;
  /** This call has settled, or was given up. */
  settled: boolean;
  /** This call and every call before it have settled or been given up. */
  done: boolean;
  /** Wake-ups of the call after this one, waiting for `done` (created only when it waits). */
  waiters: (() => void)[] | undefined;
  /** Set once the call has started; a second start of the same id joins it (a retry). */
  running: Promise<unknown> | undefined;
}

interface Turn {
  readonly slots: Map<string, Slot>;
  /** The last announced slot. */
  last: Slot | undefined;
}

// Turns kept per conversation, oldest first; enough for retries of recent turns, bounded so a
// long conversation's memory does not grow with its history. A conversation is keyed by an
// object that outlives a pooled session's copies (see conversation-key.ts).
const MAX_TURNS = 32;
const turnsByConversation = new WeakMap<object, Map<object | string, Turn>>();

function turnOf(conversation: object, key: object | string): Turn {
  let turns = turnsByConversation.get(conversation);
  if (turns === undefined) {
    turns = new Map();
    turnsByConversation.set(conversation, turns);
  }
  let turn = turns.get(key);
  if (turn === undefined) {
    turn = { slots: new Map(), last: undefined };
    turns.set(key, turn);
    if (turns.size > MAX_TURNS) {
      const oldest = turns.keys().next().value as object | string;
      turns.delete(oldest);
    }
  }
  return turn;
}

function announceInTurn(turn: Turn, id: string): Slot {
  const existing = turn.slots.get(id);
  if (existing !== undefined) return existing;
  const previous = turn.last;
  const slot: Slot = {
    index: turn.slots.size,
    previous,
    next: undefined,
    settled: false,
    done: false,
    waiters: undefined,
    running: undefined,
  };
  if (previous !== undefined) previous.next = slot;
  turn.slots.set(id, slot);
  turn.last = slot;
  return slot;
}

/** Marks a call settled and moves `done` along the turn as far as it now reaches. */
function release(slot: Slot): void {
  slot.settled = true;
  let current: Slot | undefined = slot;
  while (
    current?.settled &&
    !current.done &&
    (current.previous === undefined || current.previous.done)
  ) {
    current.done = true;
    const waiters = current.waiters;
    current.waiters = undefined;
    if (waiters !== undefined) for (const wake of waiters) wake();
    current = current.next;
  }
}

/**
 * Announces tool calls of one model turn, in the order the model emitted them, before they
 * run. Adapters call it from a host signal that follows emission order (the tool-call list of a
 * response, or a per-call hook such as the AI SDK's `onInputAvailable`); a call then waits in
 * {@link callTool} until the calls announced before it have applied. Announcing an id twice
 * keeps its first place.
 *
 * @public
 */
export function announceToolCalls(
  session: Session,
  turn: object | string,
  ids: readonly string[],
): void {
  announceInConversation(conversationKeyOf(session), turn, ids);
}

/** {@link announceToolCalls} for a conversation named by its model-order key. */
export function announceInConversation(
  conversation: object,
  turn: object | string,
  ids: readonly string[],
): void {
  const entry = turnOf(conversation, turn);
  for (const id of ids) announceInTurn(entry, id);
}

/** What {@link runInModelOrder} needs to know about waiting. */
export interface ModelOrderWait {
  /** How long a call waits for an announced call before it that has not started, in ms. */
  readonly timeoutMs: number;
}

/**
 * Runs `run` in the call's place in its turn of `conversation` (a model-order key): after
 * every call announced before it has
 * settled, at most once per id (a retried call joins or returns its first run). A call that
 * was not announced is announced now, after the calls already known.
 */
export function runInModelOrder<T>(
  conversation: object,
  order: ToolCallOrder,
  wait: ModelOrderWait,
  run: () => Promise<T>,
): Promise<T> {
  const slot = announceInTurn(turnOf(conversation, order.turn), order.id);
  if (slot.running !== undefined) return slot.running as Promise<T>;
  const previous = slot.previous;
  // Calls arriving in order find their predecessors done and start at once, with no timer.
  const running =
    previous === undefined || previous.done
      ? run()
      : waitForPrevious(slot, previous, wait.timeoutMs).then(run);
  slot.running = running;
  const settle = (): void => release(slot);
  running.then(settle, settle);
  return running;
}

function waitForPrevious(slot: Slot, previous: Slot, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      // An announced call the host never started (skipped, or stuck in a hook) must not hold
      // the turn forever: give up every call before this one that has not started yet.
      for (let other = slot.previous; other !== undefined; other = other.previous) {
        if (other.running === undefined && !other.settled) release(other);
      }
    }, timeoutMs);
    const wake = (): void => {
      clearTimeout(timer);
      resolve();
    };
    if (previous.waiters === undefined) previous.waiters = [wake];
    else previous.waiters.push(wake);
  });
}
