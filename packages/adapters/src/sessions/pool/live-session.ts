import type { Result, Session, Unsubscribe } from '@plankit/core';
import type { ConversationListener } from '../../host/pooled-conversations.ts';
import type { SessionAttachment } from '../../persistence/stores/session-attachment.ts';
import type { SessionResolveError } from '../session-resolve-error.ts';

/** One conversation's live copy: its session, its attachment and who holds it. */
export interface LiveSession {
  readonly id: string;
  readonly session: Session;
  readonly attachment: SessionAttachment;
  /** What `get` returns for it, settled and made once: a hit allocates nothing. */
  readonly got: Promise<Result<Session, SessionResolveError>>;
  /** Runs and tool calls holding it, in progress or waiting for their turn. */
  uses: number;
  /** A run or tool call is running on it now: runs of one conversation take turns. */
  busy: boolean;
  /** Wake-ups of the runs waiting for their turn, oldest first. */
  readonly turns: (() => void)[];
  /** No longer in the pool (evicted, failed or closed). */
  gone: boolean;
  /** Called when `uses` drops to 0. */
  idle: (() => void)[];
  /** The conversation's listeners wired to this copy's bus. */
  readonly wired: Map<ConversationListener, Unsubscribe>;
}

/** A load in progress, and how many holders wait for it (each gets a use on arrival). */
export interface Loading {
  done: Promise<Result<LiveSession, SessionResolveError>>;
  holders: number;
}

/**
 * Runs `work` once the earlier runs of `live` are done. One run at a time per conversation
 * makes a run's flush cover its own changes only, so a refused run saved nothing.
 */
export async function takeTurn<R>(live: LiveSession, work: () => R | Promise<R>): Promise<R> {
  if (live.busy) await new Promise<void>((resolve) => live.turns.push(resolve));
  live.busy = true;
  try {
    return await work();
  } finally {
    const next = live.turns.shift();
    if (next === undefined) live.busy = false;
    // The next run inherits the turn: `busy` stays set, so no newcomer overtakes it.
    else next();
  }
}

/**
 * Gives back one use of `live`, waking whoever waits for it to be idle.
 *
 * @returns true when nothing holds it any more, so its slot may be given away
 */
export function releaseUse(live: LiveSession): boolean {
  live.uses--;
  if (live.uses > 0) return false;
  const idle = live.idle;
  live.idle = [];
  for (const resolve of idle) resolve();
  return true;
}
