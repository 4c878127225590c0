import { defineTool, type Tool } from '../../define-tool.ts';
import { plural } from '../../internal/plural.ts';
import { clipText } from '../../internal/refusal-text.ts';
import type { Session } from '../../session.ts';
import { ToolValidationError } from '../../tool-validation-error.ts';
import type { Plan } from '../plan.ts';
import { ensureActive, requirePlan, stepIndex } from '../plan-checks.ts';
import { type NewPlanStep, ReadPlan } from '../plan-commands.ts';
import { ensureIdRoom } from '../planning-reducers.ts';
import { PLANNING_TOOL_TRAITS } from '../planning-tool-traits.ts';
import { suffixNumber } from '../step-id.ts';
import type { TextMode } from '../text-mode.ts';
import { optionalText, PLANNING_LIMITS, requiredText, stepIdText } from '../text-rules.ts';
import {
  AddStepWithDependencies,
  type AddStepWithDependenciesInput,
  addStepWithDependenciesReducer,
  dependencyParameters,
  type NewDependentStep,
  normaliseDependsOn,
  SetupPlanWithDependencies,
  type SetupPlanWithDependenciesInput,
  setupPlanWithDependenciesReducer,
  UpdateStepWithDependencies,
  type UpdateStepWithDependenciesInput,
  updateStepWithDependenciesReducer,
} from './dependency-commands.ts';
import { dependencySummary } from './dependency-summary.ts';

/** What the dependency tools share with `createPlanningTools`. @internal */
export interface DependencyToolContext {
  readonly acceptsOverrides: boolean;
  /** Registers the planning reducers on the session a call runs on. */
  readonly prepare: (session: Session) => Session;
  /** The tools' text mode: the rules the objective, titles and details are checked by. */
  readonly text: TextMode;
  /** The reference normalisation of new steps (title, details). */
  readonly normaliseSteps: (steps: readonly NewPlanStep[], field: string) => NewPlanStep[];
}

/** The setup, add, update and read tools of the `dependencies()` extension. @internal */
export interface DependencyTools {
  readonly setup: Tool<
    SetupPlanWithDependencies,
    SetupPlanWithDependencies,
    SetupPlanWithDependenciesInput
  >;
  readonly add: Tool<
    AddStepWithDependencies,
    AddStepWithDependencies,
    AddStepWithDependenciesInput
  >;
  readonly update: Tool<
    UpdateStepWithDependencies,
    UpdateStepWithDependencies,
    UpdateStepWithDependenciesInput
  >;
  readonly read: Tool<ReadPlan, Plan>;
}

const EVENT = { sessionId: '', at: 0 } as const;

function withDependsOn(
  context: DependencyToolContext,
  steps: readonly (NewPlanStep & { readonly depends_on?: readonly string[] | undefined })[],
  field: string,
): NewDependentStep[] {
  const plain = context.normaliseSteps(steps, field);
  return plain.map((step, i) => ({
    ...step,
    depends_on: normaliseDependsOn(steps[i]?.depends_on ?? [], `${field}[${i}].depends_on`),
  }));
}

/**
 * Builds the dependency-aware setup, add, update and read tools. Each runs the reference
 * checks in the reference order, then the dependency rules on the plan the call would make
 * (by running the same reducer the session will), so a refusal changes nothing. @internal
 */
export function createDependencyTools(context: DependencyToolContext): DependencyTools {
  const { acceptsOverrides } = context;
  const parameters = dependencyParameters(context.text);
  const setup = defineTool({
    name: 'planning_setup_plan',
    description: 'Create or replace the session plan.',
    parameters: parameters.setup,
    resultType: SetupPlanWithDependencies,
    acceptsOverrides,
    traits: PLANNING_TOOL_TRAITS.setup,
    handler: (params, { session }) => {
      context.prepare(session);
      const objective = requiredText(
        params.objective,
        'objective',
        'Objective',
        PLANNING_LIMITS.objective,
        context.text,
      );
      const initial_steps = withDependsOn(context, params.initial_steps, 'initial_steps');
      const value = { objective, initial_steps };
      setupPlanWithDependenciesReducer([], { dataType: '', value, ...EVENT });
      return {
        message: `Plan initialised with ${plural(initial_steps.length, 'step')}.`,
        value,
      };
    },
  });

  const add = defineTool({
    name: 'planning_add_step',
    description: 'Append one or more steps to the active plan.',
    parameters: parameters.add,
    resultType: AddStepWithDependencies,
    acceptsOverrides,
    traits: PLANNING_TOOL_TRAITS.add,
    handler: (params, { session }) => {
      const plan = requirePlan(context.prepare(session));
      ensureActive(plan, 'add steps to');
      const steps = withDependsOn(context, params.steps, 'steps');
      if (steps.length === 0)
        throw new ToolValidationError('Provide at least one step to add.', {
          code: 'steps_empty',
          field: 'steps',
        });
      let highest = 0;
      for (const step of plan.steps) highest = Math.max(highest, suffixNumber(step.step_id));
      ensureIdRoom(highest, steps.length);
      addStepWithDependenciesReducer([plan], { dataType: '', value: { steps }, ...EVENT });
      return { message: `Queued ${plural(steps.length, 'step')} for addition.`, value: { steps } };
    },
  });

  const update = defineTool({
    name: 'planning_update_step',
    description: 'Edit the title, details or dependencies of an existing step.',
    parameters: parameters.update,
    resultType: UpdateStepWithDependencies,
    acceptsOverrides,
    traits: PLANNING_TOOL_TRAITS.update,
    handler: (params, { session }) => {
      const plan = requirePlan(context.prepare(session));
      ensureActive(plan, 'update steps in');
      const step_id = stepIdText(params.step_id);
      const title =
        params.title === null
          ? null
          : requiredText(params.title, 'title', 'Title', PLANNING_LIMITS.title, context.text);
      const details = optionalText(
        params.details,
        'details',
        'Details',
        PLANNING_LIMITS.details,
        context.text,
      );
      const depends_on =
        params.depends_on === null ? null : normaliseDependsOn(params.depends_on, 'depends_on');
      if (title === null && details === null && depends_on === null) {
        throw new ToolValidationError(
          'Provide a new title, details or depends_on to update a step.',
          { code: 'update_empty' },
        );
      }
      stepIndex(plan, step_id);
      const value = { step_id, title, details, depends_on };
      updateStepWithDependenciesReducer([plan], { dataType: '', value, ...EVENT });
      return { message: `Step ${step_id} update queued.`, value };
    },
  });

  const read = defineTool({
    name: 'planning_read_plan',
    description: 'Return the latest plan snapshot, with ready and blocked steps.',
    parameters: ReadPlan,
    acceptsOverrides,
    traits: PLANNING_TOOL_TRAITS.read,
    handler: (_params, { session }): { message: string; value: Plan } => {
      const plan = requirePlan(context.prepare(session));
      const base =
        plan.steps.length === 0
          ? 'Retrieved the current plan (no steps recorded).'
          : `Retrieved the current plan with ${plural(plan.steps.length, 'step')}.`;
      const summary = plan.steps.length === 0 ? '' : `\n${dependencySummary(plan)}`;
      return { message: clipText(`${base}${summary}`, 1999), value: plan };
    },
  });

  return { setup, add, update, read };
}
