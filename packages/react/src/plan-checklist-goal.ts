/** The goal {@link PlanChecklist} shows: a `Goal` of `@plankit/controller/goal` fits, with `used`. @public */
export interface PlanChecklistGoal {
  /** What the agent works toward. */
  readonly objective: string;
  /** Where it stands: `active`, `paused`, `blocked`, `budget_limited`, `achieved`, `unmet`, ... */
  readonly status: string;
  /** What it used of its budget, in words (`renderGoalUsage(goal)`), if shown. */
  readonly used?: string | undefined;
}
