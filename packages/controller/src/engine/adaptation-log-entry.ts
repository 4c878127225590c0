/** Who introduced a change (`introduced_by` as stored). @public */
export type IntroducedBy = 'system' | 'user_feedback' | 'ai_adaptation';

/** The values of {@link IntroducedBy}. @public */
export const INTRODUCED_BY: readonly IntroducedBy[] = Object.freeze([
  'system',
  'user_feedback',
  'ai_adaptation',
] as const);

/** A structural change an event reports, as the agent or host writes it. @public */
export interface AdaptationInput {
  /** What kind of change, 1-64 characters (`pattern_changed`, `phase_split`). */
  readonly kind: string;
  /** One sentence on what changed and why, 1-2,000 characters. */
  readonly summary: string;
  /** Who made it; `ai_adaptation` by default. */
  readonly introduced_by?: IntroducedBy | undefined;
}

/**
 * A structural change as the trace records it: the input
 * plus when and in which stage.
 *
 * @public
 */
export interface AdaptationLogEntry {
  /** When, in epoch milliseconds (the event's `now`). */
  readonly at: number;
  /** The stage that reported it. */
  readonly stage: string;
  /** What kind of change. */
  readonly kind: string;
  /** What changed and why. */
  readonly summary: string;
  /** Who made it. */
  readonly introduced_by: IntroducedBy;
}
