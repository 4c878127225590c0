import * as z from 'zod';
import { defineDataType } from '../../define-data-type.ts';
import { formatPath } from '../../internal/format-path.ts';
import type { Reducer } from '../../reducer.ts';
import { ToolValidationError } from '../../tool-validation-error.ts';
import { nullField, optionalField } from '../optional-field.ts';
import type { Plan, PlanStep } from '../plan.ts';
import { latestPlanOf } from '../plan-checks.ts';
import { addStepReducer, setupPlanReducer, updateStepReducer } from '../planning-reducers.ts';
import type { TextMode } from '../text-mode.ts';
import { dependencyProblem, MAX_DEPENDENCIES } from './dependency-problem.ts';

/** A step to add with its dependencies, after normalisation. @public */
export interface NewDependentStep {
  /** Trimmed title, 1-160 characters of the tools' text mode. */
  readonly title: string;
  /** Trimmed details, or `null`. */
  readonly details: string | null;
  /** Trimmed ids of the steps it waits for; absent when the tools run without dependencies. */
  readonly depends_on?: readonly string[] | undefined;
}

/** A step to add with its dependencies, as the model sends it. @public */
export interface NewDependentStepInput {
  /** The step's title. */
  readonly title: string;
  /** Optional details. */
  readonly details?: string | null | undefined;
  /** Ids of the steps it waits for; `null` or absent for none. */
  readonly depends_on?: readonly string[] | null | undefined;
}

// The wire copy adds to the reference copy only what dependencies need: the field, and the
// ids setup gives its steps (so they can name each other). The limits are in the refusals.
const DEPENDS_ON_TEXT = 'Ids of the steps it waits for.';

/**
 * The model-facing schema of one new step with dependencies, its text described as `chars`
 * (`ASCII characters`, or `characters` for the unicode-mode tools).
 */
function newDependentStepSchema(
  chars: string,
): z.ZodType<NewDependentStep & { readonly depends_on: readonly string[] }, NewDependentStepInput> {
  return z.strictObject({
    title: z.string().describe(`Step title, 1-160 ${chars}.`),
    details: nullField(z.string()).describe(`Optional details, up to 512 ${chars}.`),
    depends_on: optionalField(z.array(z.string()))
      .transform((list) => list ?? [])
      .describe(DEPENDS_ON_TEXT),
  });
}

const StoredDependentStep = z.strictObject({
  title: z.string(),
  details: z.string().nullable(),
  depends_on: z.array(z.string()).optional(),
});

/** `planning_setup_plan` with dependencies, after normalisation. @public */
export interface SetupPlanWithDependencies {
  /** Trimmed objective. */
  readonly objective: string;
  /** The first steps, numbered from S001, so they may name each other as S001, S002, ... */
  readonly initial_steps: readonly NewDependentStep[];
}

/** `planning_setup_plan` with dependencies, as the model sends it. @public */
export interface SetupPlanWithDependenciesInput {
  /** What the plan achieves. */
  readonly objective: string;
  /** Optional first steps. */
  readonly initial_steps?: readonly NewDependentStepInput[] | undefined;
}

function setupWithDependenciesSchema(
  chars: string,
): z.ZodType<SetupPlanWithDependencies, SetupPlanWithDependenciesInput> {
  return z.strictObject({
    objective: z.string().describe(`What the plan achieves, 1-240 ${chars}.`),
    initial_steps: z
      .array(newDependentStepSchema(chars))
      .default([])
      .describe('Optional first steps, in order, numbered S001, S002, ...'),
  });
}

/** Data type of a setup with dependencies (the `dependencies()` extension's setup result). @public */
export const SetupPlanWithDependencies: z.ZodType<
  SetupPlanWithDependencies,
  SetupPlanWithDependencies
> = defineDataType(
  'plankit.SetupPlanWithDependencies',
  z.strictObject({ objective: z.string(), initial_steps: z.array(StoredDependentStep) }),
);

/** `planning_add_step` with dependencies, after normalisation. @public */
export interface AddStepWithDependencies {
  /** At least one step, numbered after the highest id. */
  readonly steps: readonly NewDependentStep[];
}

/** `planning_add_step` with dependencies, as the model sends it. @public */
export interface AddStepWithDependenciesInput {
  /** Steps to append. */
  readonly steps: readonly NewDependentStepInput[];
}

function addWithDependenciesSchema(
  chars: string,
): z.ZodType<AddStepWithDependencies, AddStepWithDependenciesInput> {
  return z.strictObject({
    steps: z.array(newDependentStepSchema(chars)).describe('Steps to append, in order.'),
  });
}

/** Data type of an add with dependencies. @public */
export const AddStepWithDependencies: z.ZodType<AddStepWithDependencies, AddStepWithDependencies> =
  defineDataType(
    'plankit.AddStepWithDependencies',
    z.strictObject({ steps: z.array(StoredDependentStep) }),
  );

/** `planning_update_step` with dependencies, after normalisation (`null` = keep). @public */
export interface UpdateStepWithDependencies {
  /** Trimmed id of an existing step. */
  readonly step_id: string;
  /** New title, or `null`. */
  readonly title: string | null;
  /** New details, or `null`. */
  readonly details: string | null;
  /** The new list of dependencies (`[]` removes them all), or `null` to keep it. */
  readonly depends_on: readonly string[] | null;
}

/** `planning_update_step` with dependencies, as the model sends it. @public */
export interface UpdateStepWithDependenciesInput {
  /** Id of the step to edit. */
  readonly step_id: string;
  /** New title. */
  readonly title?: string | null | undefined;
  /** New details. */
  readonly details?: string | null | undefined;
  /** New dependencies, replacing the old ones (`[]` removes them); `null` or absent keeps them. */
  readonly depends_on?: readonly string[] | null | undefined;
}

function updateWithDependenciesSchema(
  chars: string,
): z.ZodType<UpdateStepWithDependencies, UpdateStepWithDependenciesInput> {
  return z.strictObject({
    step_id: z.string().describe('Id of the step to edit, such as S001.'),
    title: nullField(z.string()).describe(`New title, 1-160 ${chars}.`),
    details: nullField(z.string()).describe(`New details, up to 512 ${chars}.`),
    depends_on: nullField(z.array(z.string())).describe('Replaces its dependencies.'),
  });
}

/** The parameter schemas of the `dependencies()` setup, add and update tools. @internal */
export interface DependencyParameters {
  /** The setup tool's. */
  readonly setup: z.ZodType<SetupPlanWithDependencies, SetupPlanWithDependenciesInput>;
  /** The add tool's. */
  readonly add: z.ZodType<AddStepWithDependencies, AddStepWithDependenciesInput>;
  /** The update tool's. */
  readonly update: z.ZodType<UpdateStepWithDependencies, UpdateStepWithDependenciesInput>;
}

// Each mode's schemas are built on first use and kept, so zod compiles each once.
const builtParameters = new Map<TextMode, DependencyParameters>();

/**
 * The `dependencies()` tools' parameter schemas for the tools of `mode`: their text is
 * described as `ASCII characters` in ascii mode and as `characters` in unicode mode.
 * @internal
 */
export function dependencyParameters(mode: TextMode): DependencyParameters {
  let built = builtParameters.get(mode);
  if (built === undefined) {
    const chars = mode === 'ascii' ? 'ASCII characters' : 'characters';
    built = {
      setup: setupWithDependenciesSchema(chars),
      add: addWithDependenciesSchema(chars),
      update: updateWithDependenciesSchema(chars),
    };
    builtParameters.set(mode, built);
  }
  return built;
}

/** Data type of an update with dependencies. @public */
export const UpdateStepWithDependencies: z.ZodType<
  UpdateStepWithDependencies,
  UpdateStepWithDependencies
> = defineDataType(
  'plankit.UpdateStepWithDependencies',
  z.strictObject({
    step_id: z.string(),
    title: z.string().nullable(),
    details: z.string().nullable(),
    depends_on: z.array(z.string()).nullable(),
  }),
);

/**
 * A `depends_on` list as the reducers keep it: at most {@link MAX_DEPENDENCIES} ids, each
 * trimmed. The length is checked first, so a list of 10,000 ids is refused at once.
 */
export function normaliseDependsOn(list: readonly string[], field: string): string[] {
  if (list.length > MAX_DEPENDENCIES) {
    throw new ToolValidationError(
      `Depends_on lists ${list.length} ids; at most ${MAX_DEPENDENCIES} are allowed.`,
      { code: 'dependency_invalid', field },
    );
  }
  return list.map((id) => id.trim());
}

/** Refuses a plan whose dependencies break a rule; returns it otherwise. */
export function ensureDependencies(plan: Plan): Plan {
  const problem = dependencyProblem(plan.steps);
  if (problem === undefined) return plan;
  throw new ToolValidationError(`${problem.message}.`, {
    code: problem.code,
    field: formatPath(problem.path),
  });
}

function withDependencies(
  plan: Plan,
  from: number,
  steps: readonly NewDependentStep[],
): readonly Plan[] {
  const next = [...plan.steps];
  for (let i = 0; i < steps.length; i++) {
    const list = (steps[i] as NewDependentStep).depends_on;
    if (list === undefined) continue;
    const step = next[from + i] as PlanStep;
    next[from + i] = Object.freeze({ ...step, depends_on: Object.freeze([...list]) });
  }
  const result = Object.freeze({ ...plan, steps: Object.freeze(next) });
  return Object.freeze([ensureDependencies(result)]);
}

const plain = (steps: readonly NewDependentStep[]) =>
  steps.map(({ title, details }) => ({ title, details }));

/** Setup with dependencies: the reference setup, then each step's `depends_on`, checked. @public */
export const setupPlanWithDependenciesReducer: Reducer<Plan, SetupPlanWithDependencies> = (
  plans,
  event,
) => {
  const { objective, initial_steps } = event.value;
  const set = setupPlanReducer(plans, {
    ...event,
    value: { objective, initial_steps: plain(initial_steps) },
  });
  return withDependencies(latestPlanOf(set), 0, initial_steps);
};

/** Add with dependencies: the reference add, then each new step's `depends_on`, checked. @public */
export const addStepWithDependenciesReducer: Reducer<Plan, AddStepWithDependencies> = (
  plans,
  event,
) => {
  const before = latestPlanOf(plans).steps.length;
  const added = addStepReducer(plans, { ...event, value: { steps: plain(event.value.steps) } });
  return withDependencies(latestPlanOf(added), before, event.value.steps);
};

/** Update with dependencies: the reference update, then the new `depends_on`, checked. @public */
export const updateStepWithDependenciesReducer: Reducer<Plan, UpdateStepWithDependencies> = (
  plans,
  event,
) => {
  const { step_id, title, details, depends_on } = event.value;
  // With neither title nor details the reference reducer makes its state checks and changes
  // nothing, so the order of refusals stays the reference one.
  const edited = updateStepReducer(plans, { ...event, value: { step_id, title, details } });
  if (depends_on === null) return edited;
  const plan = latestPlanOf(edited);
  const index = plan.steps.findIndex((step) => step.step_id === step_id);
  return withDependencies(plan, index, [{ title: '', details: null, depends_on }]);
};
