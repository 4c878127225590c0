/** What {@link approvePlan} and {@link skipReview} take. @public */
export interface ReviewDecisionInput {
  /** When, in epoch milliseconds; not earlier than the job's `updatedAt`. */
  readonly now: number;
  /** Who decided, or why (at most 2,000 characters); recorded in the trace. */
  readonly reason?: string | null | undefined;
}
