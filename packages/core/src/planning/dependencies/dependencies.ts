import type { Tool } from '../../define-tool.ts';
import { checkOptionKeys } from '../../internal/check-option-keys.ts';
import { invalidArgument } from '../../internal/invalid-argument.ts';
import { isRecord } from '../../internal/is-record.ts';
import type { Plan } from '../plan.ts';
import type { ClearPlan, MarkStep, MarkStepInput, ReadPlan } from '../plan-commands.ts';
import type { AnyPlanningCommand, PlanningExtension } from '../planning-extension.ts';
import {
  AddStepWithDependencies,
  type AddStepWithDependenciesInput,
  addStepWithDependenciesReducer,
  SetupPlanWithDependencies,
  type SetupPlanWithDependenciesInput,
  setupPlanWithDependenciesReducer,
  UpdateStepWithDependencies,
  type UpdateStepWithDependenciesInput,
  updateStepWithDependenciesReducer,
} from './dependency-commands.ts';
import type { DependencyOptions } from './dependency-options.ts';
import { createDependencyTools } from './dependency-tools.ts';
import { openDependencyRule } from './open-dependency-rule.ts';

const OPTION_KEYS: ReadonlySet<string> = new Set(['onOpenDependency']);

/** The six planning tools with the dependencies extension, by name. @public */
export interface DependentPlanningToolsByName {
  readonly planning_setup_plan: Tool<
    SetupPlanWithDependencies,
    SetupPlanWithDependencies,
    SetupPlanWithDependenciesInput
  >;
  readonly planning_add_step: Tool<
    AddStepWithDependencies,
    AddStepWithDependencies,
    AddStepWithDependenciesInput
  >;
  readonly planning_update_step: Tool<
    UpdateStepWithDependencies,
    UpdateStepWithDependencies,
    UpdateStepWithDependenciesInput
  >;
  readonly planning_mark_step: Tool<MarkStep, MarkStep, MarkStepInput>;
  readonly planning_clear_plan: Tool<ClearPlan, ClearPlan>;
  readonly planning_read_plan: Tool<ReadPlan, Plan>;
}

/** What {@link dependencies} returns. @public */
export type DependenciesExtension = PlanningExtension<
  'dependencies',
  { readonly tools: DependentPlanningToolsByName }
>;

/** What {@link dependencies} declares: its commands and reducers, on the plan slice. @internal */
export const DEPENDENCY_COMMANDS: readonly AnyPlanningCommand[] = Object.freeze([
  { dataType: SetupPlanWithDependencies, reducer: setupPlanWithDependenciesReducer },
  { dataType: AddStepWithDependencies, reducer: addStepWithDependenciesReducer },
  { dataType: UpdateStepWithDependencies, reducer: updateStepWithDependenciesReducer },
]);

function dependencyLead(strategy: string): string {
  switch (strategy) {
    case 'plan_act_reflect':
      return '- When outlining the plan, give steps `depends_on`';
    case 'goal_decompose_route_synthesise':
      return '- When decomposing, give sub-problems `depends_on`';
    default:
      return '- When order matters, give steps `depends_on`';
  }
}

/** The lines {@link dependencies} adds to the planning prompt. @internal */
export function dependencyPromptLines(strategy: string): readonly string[] {
  return [
    `${dependencyLead(strategy)}; no cycles.`,
    '- Start or finish a step only after its dependencies are done.',
  ];
}

/**
 * The dependencies extension: steps carry `depends_on`. Setup, add and update take it;
 * cycles and unknown ids are refused; starting or finishing a step whose dependencies are
 * not done is refused (or, with `{ onOpenDependency: 'warn' }`, applied with a warning); and
 * `planning_read_plan` lists the ready and blocked steps.
 *
 * @example
 * ```ts
 * import { createPlanningTools, Session } from '@plankit/core';
 * import { dependencies } from '@plankit/core/plan-model';
 *
 * const tools = createPlanningTools(new Session(), { extensions: [dependencies()] });
 * ```
 * @throws PlankitError `argument_invalid` for unknown options or an unknown mode
 * @public
 */
export function dependencies(options: DependencyOptions = {}): DependenciesExtension {
  if (!isRecord(options)) throw invalidArgument('dependencies', 'options', 'must be an object');
  checkOptionKeys('dependencies', options, OPTION_KEYS);
  const mode = options.onOpenDependency ?? 'refuse';
  if (mode !== 'refuse' && mode !== 'warn')
    throw invalidArgument(
      'dependencies',
      'options.onOpenDependency',
      'must be one of refuse, warn',
    );
  return Object.freeze<DependenciesExtension>({
    name: 'dependencies',
    settings: Object.freeze({ dependencies: Object.freeze({ onOpenDependency: mode }) }),
    commands: DEPENDENCY_COMMANDS,
    promptLines: dependencyPromptLines,
    tools: (context) => {
      const tools = createDependencyTools(context);
      return { replace: [tools.setup, tools.add, tools.update, tools.read] };
    },
    checkMark: (plan, index, status) => openDependencyRule(plan, index, status, mode),
  });
}
