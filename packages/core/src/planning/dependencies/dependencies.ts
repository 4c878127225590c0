import { checkOptionKeys } from '../../internal/check-option-keys.ts';
import { invalidArgument } from '../../internal/invalid-argument.ts';
import type { Session } from '../../session.ts';
import { Plan } from '../plan.ts';
import type { PlanningExtension } from '../planning-extension.ts';
import {
  AddStepWithDependencies,
  addStepWithDependenciesReducer,
  SetupPlanWithDependencies,
  setupPlanWithDependenciesReducer,
  UpdateStepWithDependencies,
  updateStepWithDependenciesReducer,
} from './dependency-commands.ts';
import type { DependencyOptions } from './dependency-options.ts';
import { createDependencyTools } from './dependency-tools.ts';
import { openDependencyRule } from './open-dependency-rule.ts';

const OPTION_KEYS: ReadonlySet<string> = new Set(['onOpenDependency']);

/** Registers the reducers of the dependency-aware setup, add and update. @internal */
export function registerDependencyReducers(session: Session): void {
  session.register(SetupPlanWithDependencies, setupPlanWithDependenciesReducer, { slice: Plan });
  session.register(AddStepWithDependencies, addStepWithDependenciesReducer, { slice: Plan });
  session.register(UpdateStepWithDependencies, updateStepWithDependenciesReducer, { slice: Plan });
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
export function dependencies(options: DependencyOptions = {}): PlanningExtension<'dependencies'> {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw invalidArgument('dependencies', 'options', 'must be an object');
  checkOptionKeys('dependencies', options, OPTION_KEYS);
  const mode = options.onOpenDependency ?? 'refuse';
  if (mode !== 'refuse' && mode !== 'warn')
    throw invalidArgument(
      'dependencies',
      'options.onOpenDependency',
      'must be one of refuse, warn',
    );
  return Object.freeze<PlanningExtension<'dependencies'>>({
    name: 'dependencies',
    settings: Object.freeze({ dependencies: Object.freeze({ onOpenDependency: mode }) }),
    register: registerDependencyReducers,
    tools: (context) => {
      const tools = createDependencyTools(context);
      return { replace: [tools.setup, tools.add, tools.update, tools.read] };
    },
    checkMark: (plan, index, status) => openDependencyRule(plan, index, status, mode),
  });
}
