import type { CapName } from './default-caps.ts';

/** A soft limit was reached: restrict tools and ask the agent to summarise. @public */
export interface WrapUpSignal {
  /** Always `wrap_up`. */
  readonly type: 'wrap_up';
  /** Which soft limit. */
  readonly limit: 'turns' | 'costUsd';
  /** The counter's value (turns in the run, or USD for the session). */
  readonly value: number;
  /** The soft limit it reached. */
  readonly threshold: number;
}

/** A hard cap decided the step. @public */
export interface CapReachedSignal {
  /** Always `cap_reached`. */
  readonly type: 'cap_reached';
  /** Which cap. */
  readonly cap: CapName;
  /** `goto`: the machine went to the cap's target; `freeze`: it stopped for review. */
  readonly action: 'goto' | 'freeze';
  /** The state entered, or null for a freeze. */
  readonly target: string | null;
}

/** The agent repeated the same tool call with the same result too many times. @public */
export interface StalledSignal {
  /** Always `stalled`. */
  readonly type: 'stalled';
  /** The tool it kept calling. */
  readonly tool: string;
  /** How many identical calls in a row. */
  readonly repeats: number;
}

/**
 * An effect, as data, raised by a step for the host to act on.
 *
 * @public
 */
export type Signal = WrapUpSignal | CapReachedSignal | StalledSignal;
