import type { PlanningToolsByName } from '../create-planning-tools.ts';

/** The six reference tools under short names, for suites that call them by a word. */
export interface ShortToolNames {
  readonly setup: PlanningToolsByName['planning_setup_plan'];
  readonly add: PlanningToolsByName['planning_add_step'];
  readonly update: PlanningToolsByName['planning_update_step'];
  readonly mark: PlanningToolsByName['planning_mark_step'];
  readonly clear: PlanningToolsByName['planning_clear_plan'];
  readonly read: PlanningToolsByName['planning_read_plan'];
}

/** `tools` (any createPlanningTools result) by their short names. */
export function shortToolNames(tools: PlanningToolsByName): ShortToolNames {
  return {
    setup: tools.planning_setup_plan,
    add: tools.planning_add_step,
    update: tools.planning_update_step,
    mark: tools.planning_mark_step,
    clear: tools.planning_clear_plan,
    read: tools.planning_read_plan,
  };
}
