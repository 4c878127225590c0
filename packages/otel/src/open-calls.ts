import type { Span } from '@opentelemetry/api';
import { endSpan } from './end-span.ts';

/** A tool call in flight: its span, and whether plankit opened it (and so ends it). */
export interface OpenCall {
  readonly span: Span;
  readonly owned: boolean;
  /** The order calls were opened in, across sessions, for ending the oldest. */
  readonly order: number;
}

// An emptied session's map is kept, so a session running one call at a time does not make a
// map per call; past this many sessions the emptied ones are dropped.
const KEPT_SESSIONS = 16;

/**
 * The tool calls whose spans are open, by session id then call id: two sessions may run calls
 * with the same host id. Two lookups on the ids themselves rather than one on a joined key,
 * which would build and hash a new string on every start and every end.
 */
export class OpenCalls {
  readonly #sessions = new Map<string, Map<string, OpenCall>>();
  readonly #max: number;
  #size = 0;
  #order = 0;

  /** @param max - the most calls held; past it the oldest is ended and forgotten */
  constructor(max: number) {
    this.#max = max;
  }

  /** How many calls are open. */
  get size(): number {
    return this.#size;
  }

  /** The open call of `sessionId` and `callId`, if any. */
  get(sessionId: string, callId: string): OpenCall | undefined {
    return this.#sessions.get(sessionId)?.get(callId);
  }

  /** Forgets the call of `sessionId` and `callId` and returns it, if it was open. */
  take(sessionId: string, callId: string): OpenCall | undefined {
    const calls = this.#sessions.get(sessionId);
    const call = calls?.get(callId);
    if (calls === undefined || call === undefined) return undefined;
    calls.delete(callId);
    this.#size--;
    if (calls.size === 0 && this.#sessions.size > KEPT_SESSIONS) this.#sessions.delete(sessionId);
    return call;
  }

  /**
   * Holds `span` as the call of `sessionId` and `callId`. A call still open with the same ids
   * is ended first; past the limit, the oldest call is ended and forgotten. Only the spans
   * plankit opened are ended.
   */
  add(sessionId: string, callId: string, span: Span, owned: boolean): void {
    const previous = this.take(sessionId, callId);
    if (previous?.owned === true) endSpan(previous.span);
    let calls = this.#sessions.get(sessionId);
    if (calls === undefined) {
      calls = new Map();
      this.#sessions.set(sessionId, calls);
    }
    calls.set(callId, { span, owned, order: this.#order++ });
    this.#size++;
    if (this.#size > this.#max) this.#endOldest();
  }

  /**
   * Ends every span plankit opened and forgets every call; a processor that throws on one
   * span does not keep the others open.
   */
  endAll(): void {
    for (const calls of this.#sessions.values())
      for (const call of calls.values()) if (call.owned) endSpan(call.span);
    this.#sessions.clear();
    this.#size = 0;
  }

  #endOldest(): void {
    // Each session's map is in the order its calls opened: the oldest call is the first of
    // one of them. Rare (a limit of lost ends), so a walk over the sessions is fine.
    let oldest: { readonly sessionId: string; readonly callId: string; call: OpenCall } | undefined;
    for (const [sessionId, calls] of this.#sessions) {
      for (const [callId, call] of calls) {
        if (oldest === undefined || call.order < oldest.call.order)
          oldest = { sessionId, callId, call };
        break;
      }
    }
    if (oldest === undefined) return;
    this.take(oldest.sessionId, oldest.callId);
    if (oldest.call.owned) endSpan(oldest.call.span);
  }
}
