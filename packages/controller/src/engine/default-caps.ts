/**
 * The hard limits a machine enforces, by name. A transition checks them in this order:
 * wallTimeMs, costUsd, tokens, turns, stall, retries.
 *
 * @public
 */
export type CapName = 'wallTimeMs' | 'costUsd' | 'tokens' | 'turns' | 'stall' | 'retries';

/**
 * Every cap, in the order a transition checks them. Typed as a tuple, so `freezeOn: CAP_NAMES`
 * tells `defineMachine`'s types that every cap freezes and no `onCap` target is needed.
 */
export const CAP_NAMES: readonly ['wallTimeMs', 'costUsd', 'tokens', 'turns', 'stall', 'retries'] =
  Object.freeze(['wallTimeMs', 'costUsd', 'tokens', 'turns', 'stall', 'retries'] as const);

/**
 * Hard limits; `null` means no limit. Turns, retries and time count per run (a run restarts
 * when the machine leaves a wait state); cost and tokens count for the whole session.
 *
 * @public
 */
export interface Caps {
  /** Transitions per run. */
  readonly turns: number | null;
  /** Re-entries of one stage per run (a state's own `retries` overrides it). */
  readonly retries: number | null;
  /** Active time per run, in milliseconds (time spent waiting or frozen is not counted). */
  readonly wallTimeMs: number | null;
  /** USD reported by events, for the session. */
  readonly costUsd: number | null;
  /** Tokens reported by events, for the session. */
  readonly tokens: number | null;
  /** Identical tool signatures in a row that count as a stall (at least 2). */
  readonly stall: number | null;
}

/**
 * Soft limits: reaching one raises a `wrap_up` signal before the hard stop. `null` is off.
 *
 * @public
 */
export interface SoftLimits {
  /** Turns in the current run. */
  readonly turns: number | null;
  /** USD for the session. */
  readonly costUsd: number | null;
}

/**
 * The default caps: 10 turns, 2 retries per stage, 45 s of active time, and a stall
 * after 3 identical tool calls; no cost or token cap.
 *
 * @public
 */
export const DEFAULT_CAPS: Caps = Object.freeze({
  turns: 10,
  retries: 2,
  wallTimeMs: 45_000,
  costUsd: null,
  tokens: null,
  stall: 3,
});

/** No soft limits. @public */
export const DEFAULT_SOFT_LIMITS: SoftLimits = Object.freeze({ turns: null, costUsd: null });
