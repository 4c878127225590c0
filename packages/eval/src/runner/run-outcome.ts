/**
 * How a run ended: every trial finished (`completed`), the total cap refused a call
 * (`run_budget`), or the signal aborted it (`aborted`).
 *
 * @public
 */
export type RunOutcome = 'completed' | 'run_budget' | 'aborted';
