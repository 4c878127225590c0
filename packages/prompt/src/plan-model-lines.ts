import type { PlanningStrategy } from './planning-strategy.ts';

/** Which opt-in plan-model options the planning copy speaks about. */
export interface PlanModelCopyOptions {
  /** Steps carry `depends_on`. */
  readonly dependencies: boolean;
  /** `planning_apply_batch` is offered. */
  readonly batch: boolean;
  /** Mutations take an `explanation`, kept in the plan history. */
  readonly history: boolean;
  /** `planning_claim_step` and `planning_release_step` are offered. */
  readonly owners: boolean;
}

function dependencyLead(strategy: PlanningStrategy): string {
  switch (strategy) {
    case 'react':
      return '- When order matters, give steps `depends_on`';
    case 'plan_act_reflect':
      return '- When outlining the plan, give steps `depends_on`';
    case 'goal_decompose_route_synthesise':
      return '- When decomposing, give sub-problems `depends_on`';
    default: {
      const unknown: never = strategy;
      return unknown;
    }
  }
}

/**
 * The rule lines each opt-in plan-model option adds to the planning copy, after the
 * reference bullets: none when every option is off, so the reference copy is unchanged.
 * They say when to use what; what a tool or field does is said once, in its definition.
 * Each option's lines stay within 60 o200k tokens (a test counts them).
 */
export function planModelLines(
  strategy: PlanningStrategy,
  options: PlanModelCopyOptions,
): readonly string[] {
  const lines: string[] = [];
  if (options.dependencies) {
    lines.push(
      `${dependencyLead(strategy)}; no cycles.`,
      '- Start or finish a step only after its dependencies are done.',
    );
  }
  if (options.batch) {
    lines.push(
      "- Make each turn's plan changes in one `planning_apply_batch` call; the first can set up the plan and start its first step.",
    );
  }
  if (options.history) {
    lines.push(
      '- Give each planning change a short `explanation` of why; it is kept in the plan history.',
    );
  }
  if (options.owners) {
    lines.push(
      '- Claim a step (`planning_claim_step`) before working on it and release it (`planning_release_step`) when you stop; leave steps others hold alone.',
    );
  }
  return lines;
}
