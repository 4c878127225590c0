/**
 * The mindsets the planning section can coach. Values are the wire values hosts store in
 * configuration.
 *
 * @public
 */
export const PlanningStrategy: {
  /** Reason, act, observe, repeat: the default, and the reference copy. */
  readonly REACT: 'react';
  /** Outline the whole plan first, then act, then reflect after each step. */
  readonly PLAN_ACT_REFLECT: 'plan_act_reflect';
  /** Restate the goal, decompose it, route tools to the parts, synthesise. */
  readonly GOAL_DECOMPOSE_ROUTE_SYNTHESISE: 'goal_decompose_route_synthesise';
} = Object.freeze({
  REACT: 'react',
  PLAN_ACT_REFLECT: 'plan_act_reflect',
  GOAL_DECOMPOSE_ROUTE_SYNTHESISE: 'goal_decompose_route_synthesise',
});

/** One of the {@link PlanningStrategy} values. @public */
export type PlanningStrategy = (typeof PlanningStrategy)[keyof typeof PlanningStrategy];

/** Every strategy, REACT first. @public */
export const PLANNING_STRATEGIES: readonly PlanningStrategy[] = Object.freeze(
  Object.values(PlanningStrategy),
);

/** The lines a strategy inserts between the intro and the first bullet. */
export function mindsetLines(strategy: PlanningStrategy): readonly string[] {
  switch (strategy) {
    case 'react':
      return [];
    case 'plan_act_reflect':
      return [
        'Follow a plan-act-reflect rhythm: outline the entire plan before running tools, then work through it.',
        'After each tool call or completed step, append a brief reflection as plan notes or status updates.',
      ];
    case 'goal_decompose_route_synthesise':
      return [
        'Begin by restating the goal in your own words.',
        'Break the goal into concrete sub-problems before routing tools to each one, and record the routing in the plan steps.',
        'When every tool has run, synthesise the results into a cohesive answer and update the plan status as part of that synthesis.',
      ];
    default: {
      const unknown: never = strategy;
      return unknown;
    }
  }
}
