import type { Session } from '@plankit/core';

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
  /** Resolves once this call and every call announced before it have settled or been given up. */
  readonly through: Promise<void>;
  /** Whether `through` has resolved, so a call arriving in order skips the wait. */
  done: boolean;
  /** Marks this call settled (or given up), releasing the calls after it. */
  readonly release: () => void;
  /** Set once the call has started; a second start of the same id joins it (a retry). */
  running: Promise<unknown> | undefined;
}

interface Turn {
  readonly slots: Map<string, Slot>;
  /** The last announced slot. */
  last: Slot | undefined;
  /** Slots announced but not yet started, in announcement order (given up together on time-out). */
  readonly waiting: Set<Slot>;
}

// Turns kept per session, oldest first; enough for retries of recent turns, bounded so a
// long session's memory does not grow with its history.
const MAX_TURNS = 32;
const turnsBySession = new WeakMap<Session, Map<object | string, Turn>>();

function turnOf(session: Session, key: object | string): Turn {
  let turns = turnsBySession.get(session);
  if (turns === undefined) {
    turns = new Map();
    turnsBySession.set(session, turns);
  }
  let turn = turns.get(key);
  if (turn === undefined) {
    turn = { slots: new Map(), last: undefined, waiting: new Set() };
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
  let release!: () => void;
  const settled = new Promise<void>((resolve) => {
    release = resolve;
  });
  const previous = turn.last;
  const through = previous === undefined ? settled : previous.through.then(() => settled);
  const slot: Slot = {
    index: turn.slots.size,
    previous,
    through,
    done: false,
    release,
    running: undefined,
  };
  through.then(() => {
    slot.done = true;
  });
  turn.slots.set(id, slot);
  turn.waiting.add(slot);
  turn.last = slot;
  return slot;
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
  const entry = turnOf(session, turn);
  for (const id of ids) announceInTurn(entry, id);
}

/** What {@link runInModelOrder} needs to know about waiting. */
export interface ModelOrderWait {
  /** How long a call waits for an announced call before it that has not started, in ms. */
  readonly timeoutMs: number;
}

/**
 * Runs `run` in the call's place in its turn: after every call announced before it has
 * settled, at most once per id (a retried call joins or returns its first run). A call that
 * was not announced is announced now, after the calls already known.
 */
export async function runInModelOrder<T>(
  session: Session,
  order: ToolCallOrder,
  wait: ModelOrderWait,
  run: () => Promise<T>,
): Promise<T> {
  const turn = turnOf(session, order.turn);
  const slot = announceInTurn(turn, order.id);
  if (slot.running !== undefined) return slot.running as Promise<T>;
  turn.waiting.delete(slot);
  const running = waitForPredecessors(turn, slot, wait.timeoutMs).then(run);
  slot.running = running;
  running.then(slot.release, slot.release);
  return running;
}

// The common case (calls already arriving in order) needs no timer: the previous slot's
// `through` has already resolved.
async function waitForPredecessors(turn: Turn, slot: Slot, timeoutMs: number): Promise<void> {
  const previous = slot.previous;
  if (previous === undefined || previous.done) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const outcome = await Promise.race([previous.through.then(() => 'ready' as const), timedOut]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    // An announced call the host never started (skipped, or stuck in a hook) must not hold the
    // turn forever: give up every call before this one that has not started yet.
    for (const other of turn.waiting) {
      if (other.index < slot.index) {
        turn.waiting.delete(other);
        other.release();
      }
    }
    await previous.through;
  }
}
