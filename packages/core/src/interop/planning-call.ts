import type {
  AddStepInput,
  MarkStepInput,
  SetupPlanInput,
  UpdateStepInput,
} from '../planning/plan-commands.ts';

/**
 * One call of a planning tool, by name with the arguments a model would send: what an "in"
 * converter turns a foreign list into. Running the calls in order through the planning tools
 * ({@link applyPlanningCalls}) applies the foreign write with the tools' own rules.
 *
 * @public
 */
export type PlanningCall =
  | { readonly tool: 'planning_setup_plan'; readonly args: SetupPlanInput }
  | { readonly tool: 'planning_add_step'; readonly args: AddStepInput }
  | { readonly tool: 'planning_update_step'; readonly args: UpdateStepInput }
  | { readonly tool: 'planning_mark_step'; readonly args: MarkStepInput };

/**
 * What an "in" converter makes of a foreign whole-list write: the planning calls that bring
 * the plan to what the list says, and the steps the list left out.
 *
 * @public
 */
export interface PlanWrite {
  /** The calls, in the order to run them; empty when the list says what the plan says. */
  readonly calls: readonly PlanningCall[];
  /**
   * Ids of the plan's steps no item matched. plankit never deletes a step, so they stay as
   * they are; empty when the write starts a new plan.
   */
  readonly unlisted: readonly string[];
}
