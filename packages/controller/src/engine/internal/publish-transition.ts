import type { Result } from '@plankit/core';
import {
  diagnosticsChannel,
  type MachineTransitioned,
  TRANSITION_CHANNEL,
} from '@plankit/core/diagnostics';
import type { MachineSnapshot } from '../machine-snapshot.ts';

/** What moved the machine, as `plankit:transition` reports it. */
export interface TransitionCause {
  readonly kind: MachineTransitioned['kind'];
  readonly event: string;
  readonly confidence: number | null;
}

/**
 * Tells `plankit:transition` subscribers, if any, that `prev` became `result`'s snapshot;
 * a refused event publishes nothing. `cause` may be a function, called only when publishing
 * (after the event passed its checks). Returns `result`, so a step can end with it.
 */
export function publishTransition<T extends MachineSnapshot, E>(
  prev: MachineSnapshot,
  result: Result<T, E>,
  cause: TransitionCause | (() => TransitionCause),
): Result<T, E> {
  if (!result.ok) return result;
  const channel = diagnosticsChannel(TRANSITION_CHANNEL);
  if (!channel.hasSubscribers) return result;
  const next = result.value;
  const { kind, event, confidence } = typeof cause === 'function' ? cause() : cause;
  const { counters, caps } = next;
  const payload: MachineTransitioned = {
    type: 'transition',
    machine: next.machine,
    startedAt: next.startedAt,
    from: prev.state,
    to: next.state,
    kind,
    event,
    confidence,
    status: next.status,
    cap: next.frozen?.cap ?? null,
    at: next.updatedAt,
    budget: Object.freeze({
      run: counters.run,
      turns: counters.turns,
      totalTurns: counters.totalTurns,
      costUsd: counters.costUsd,
      tokens: counters.tokens,
      elapsedMs: counters.elapsedMs,
      maxTurns: caps.turns,
      maxCostUsd: caps.costUsd,
      maxTokens: caps.tokens,
      maxWallTimeMs: caps.wallTimeMs,
    }),
  };
  channel.publish(Object.freeze(payload));
  return result;
}
