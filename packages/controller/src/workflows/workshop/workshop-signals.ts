/** The name of one of the workshop signals. @public */
export type WorkshopSignalName =
  | 'blocking_questions'
  | 'no_new_info'
  | 'commitment_readiness'
  | 'file_plan_consistency';

/** One workshop signal: what it means, when to raise it, and what the workshop does with it. @public */
export interface WorkshopSignal {
  /** The key in `RoundSignals`. */
  readonly name: WorkshopSignalName;
  /** When the agent raises it: completes `raise it when ...`. */
  readonly raise: string;
  /** What the workshop does with it: a sentence, without its final period. */
  readonly effect: string;
}

/**
 * The workshop signals, in their standard order: the keys `workshopRound` reads and the copy the
 * workshop prompt section renders, so the two cannot drift apart.
 *
 * @public
 */
export const WORKSHOP_SIGNALS: readonly WorkshopSignal[] = Object.freeze([
  Object.freeze({
    name: 'blocking_questions',
    raise: 'open questions remain that the plan cannot go on without',
    effect:
      'Clarifying stays in clarifying and a workshop round is followed by another; in formalizing, the plan does not reach review',
  }),
  Object.freeze({
    name: 'no_new_info',
    raise: 'the round brought nothing new',
    effect: 'Clarifying or workshop moves on to formalizing, unless questions block',
  }),
  Object.freeze({
    name: 'commitment_readiness',
    raise: 'the plan is stable enough to commit to',
    effect: 'Clarifying or workshop moves on to formalizing, unless questions block',
  }),
  Object.freeze({
    name: 'file_plan_consistency',
    raise:
      'you have checked plan.files.json against the plan: true when it matches, false when not',
    effect: 'False keeps the plan in formalizing; the workshop checks the files itself either way',
  }),
] as const satisfies readonly WorkshopSignal[]);

/** The signal names, in order. @public */
export const WORKSHOP_SIGNAL_NAMES: readonly WorkshopSignalName[] = Object.freeze(
  WORKSHOP_SIGNALS.map((signal) => signal.name),
);
