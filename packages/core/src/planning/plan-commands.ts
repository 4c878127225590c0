import * as z from 'zod';
import { defineDataType } from '../define-data-type.ts';
import { isTrustedAs } from '../internal/trusted-value.ts';
import { StepStatus } from './plan.ts';
import type { TextMode } from './text-mode.ts';

/** A step to add, after normalisation. @public */
export interface NewPlanStep {
  /** Trimmed title, 1-160 characters of the tools' text mode. */
  readonly title: string;
  /** Trimmed details, or `null` when absent or blank. */
  readonly details: string | null;
}

/** A step to add, as the model sends it. @public */
export interface NewPlanStepInput {
  /** The step's title. */
  readonly title: string;
  /** Optional details. */
  readonly details?: string | null | undefined;
}

// The wire copy names the text the tools take: the reference's `ASCII characters`, or
// `characters` for the unicode-mode tools (the same schemas otherwise).
const ASCII_CHARACTERS = 'ASCII characters';

function newPlanStepSchema(chars: string) {
  return z.strictObject({
    title: z.string().describe(`Step title, 1-160 ${chars}.`),
    details: z.string().nullable().default(null).describe(`Optional details, up to 512 ${chars}.`),
  });
}

function setupPlanSchema(chars: string) {
  return z.strictObject({
    objective: z.string().describe(`What the plan achieves, 1-240 ${chars}.`),
    initial_steps: z
      .array(newPlanStepSchema(chars))
      .default([])
      .describe('Optional first steps, in order.'),
  });
}

function addStepSchema(chars: string) {
  return z.strictObject({
    steps: z.array(newPlanStepSchema(chars)).describe('Steps to append, in order.'),
  });
}

function updateStepSchema(chars: string) {
  return z.strictObject({
    step_id: z.string().describe('Id of the step to edit, such as S001.'),
    title: z.string().nullable().default(null).describe(`New title, 1-160 ${chars}.`),
    details: z.string().nullable().default(null).describe(`New details, up to 512 ${chars}.`),
  });
}

function markStepSchema(chars: string) {
  return z.strictObject({
    step_id: z.string().describe('Id of the step to mark, such as S001.'),
    status: StepStatus.describe('The new status.'),
    note: z.string().nullable().default(null).describe(`Optional note, up to 512 ${chars}.`),
  });
}

/** Parameters of `planning_setup_plan`, after normalisation. @public */
export interface SetupPlan {
  /** Trimmed objective, 1-240 characters of the tools' text mode. */
  readonly objective: string;
  /** The first steps, numbered from S001 by the reducer. */
  readonly initial_steps: readonly NewPlanStep[];
}

/** Parameters of `planning_setup_plan`, as the model sends them. @public */
export interface SetupPlanInput {
  /** What the plan achieves. */
  readonly objective: string;
  /** Optional first steps. */
  readonly initial_steps?: readonly NewPlanStepInput[] | undefined;
}

/** Schema and data type of `planning_setup_plan`'s parameters and result. @public */
export const SetupPlan: z.ZodType<SetupPlan, SetupPlanInput> = defineDataType(
  'plankit.SetupPlan',
  setupPlanSchema(ASCII_CHARACTERS),
);

/** Parameters of `planning_add_step`, after normalisation. @public */
export interface AddStep {
  /** At least one step, numbered after the highest id by the reducer. */
  readonly steps: readonly NewPlanStep[];
}

/** Parameters of `planning_add_step`, as the model sends them. @public */
export interface AddStepInput {
  /** Steps to append. */
  readonly steps: readonly NewPlanStepInput[];
}

/** Schema and data type of `planning_add_step`'s parameters and result. @public */
export const AddStep: z.ZodType<AddStep, AddStepInput> = defineDataType(
  'plankit.AddStep',
  addStepSchema(ASCII_CHARACTERS),
);

/** Parameters of `planning_update_step`, after normalisation (`null` = keep). @public */
export interface UpdateStep {
  /** Trimmed id of an existing step. */
  readonly step_id: string;
  /** New title, or `null` to keep it. */
  readonly title: string | null;
  /** New details, or `null` to keep them. */
  readonly details: string | null;
}

/** Parameters of `planning_update_step`, as the model sends them. @public */
export interface UpdateStepInput {
  /** Id of the step to edit. */
  readonly step_id: string;
  /** New title. */
  readonly title?: string | null | undefined;
  /** New details. */
  readonly details?: string | null | undefined;
}

/** Schema and data type of `planning_update_step`'s parameters and result. @public */
export const UpdateStep: z.ZodType<UpdateStep, UpdateStepInput> = defineDataType(
  'plankit.UpdateStep',
  updateStepSchema(ASCII_CHARACTERS),
);

/** Parameters of `planning_mark_step`, after normalisation. @public */
export interface MarkStep {
  /** Trimmed id of an existing step. */
  readonly step_id: string;
  /** The new status. */
  readonly status: StepStatus;
  /** Trimmed note to append, or `null`. */
  readonly note: string | null;
}

/** Parameters of `planning_mark_step`, as the model sends them. @public */
export interface MarkStepInput {
  /** Id of the step to mark. */
  readonly step_id: string;
  /** The new status. */
  readonly status: StepStatus;
  /** Optional note. */
  readonly note?: string | null | undefined;
}

/** Schema and data type of `planning_mark_step`'s parameters and result. @public */
export const MarkStep: z.ZodType<MarkStep, MarkStepInput> = defineDataType(
  'plankit.MarkStep',
  markStepSchema(ASCII_CHARACTERS),
);

/**
 * The schemas of the four tools that take text, for one text mode: each is both the tool's
 * parameters and its result type (what `resultType` hosts turn into an output schema, such as
 * MCP's `outputSchema`), so both describe the text by the same rule. @internal
 */
export interface PlanningCommandTypes {
  /** `planning_setup_plan`'s. */
  readonly setup: z.ZodType<SetupPlan, SetupPlanInput>;
  /** `planning_add_step`'s. */
  readonly add: z.ZodType<AddStep, AddStepInput>;
  /** `planning_update_step`'s. */
  readonly update: z.ZodType<UpdateStep, UpdateStepInput>;
  /** `planning_mark_step`'s. */
  readonly mark: z.ZodType<MarkStep, MarkStepInput>;
}

const ASCII_COMMAND_TYPES: PlanningCommandTypes = {
  setup: SetupPlan,
  add: AddStep,
  update: UpdateStep,
  mark: MarkStep,
};
// Built on first use and kept: zod compiles a schema on its first parse, and schemas built
// per session (a pool makes one per conversation) would be built and compiled again each time.
let unicodeCommandTypes: PlanningCommandTypes | undefined;

/**
 * The parameters and result types of `planning_setup_plan`, `_add_step`, `_update_step` and
 * `_mark_step` for the tools of `mode`: the data types themselves in ascii mode; in unicode
 * mode the same shapes, whose descriptions say `characters` rather than `ASCII characters`,
 * named as the same data types (sessions route them by name to the same reducers, and they
 * parse every value as the ascii ones do). @internal
 */
export function planningCommandTypes(mode: TextMode): PlanningCommandTypes {
  if (mode === 'ascii') return ASCII_COMMAND_TYPES;
  unicodeCommandTypes ??= {
    setup: defineDataType('plankit.SetupPlan', setupPlanSchema('characters')),
    add: defineDataType('plankit.AddStep', addStepSchema('characters')),
    update: defineDataType('plankit.UpdateStep', updateStepSchema('characters')),
    mark: defineDataType('plankit.MarkStep', markStepSchema('characters')),
  };
  return unicodeCommandTypes;
}

/**
 * True when a mark handler built `value` (see `trustedValue`) as the {@link MarkStep} of
 * either text mode: its note has passed the tools' text rules already. @internal
 */
export function isTrustedMark(value: MarkStep): boolean {
  return (
    isTrustedAs(value, MarkStep) ||
    (unicodeCommandTypes !== undefined && isTrustedAs(value, unicodeCommandTypes.mark))
  );
}

/** Parameters of `planning_clear_plan` (none). @public */
export type ClearPlan = Readonly<Record<string, never>>;

/** Schema and data type of `planning_clear_plan`'s parameters and result. @public */
export const ClearPlan: z.ZodType<ClearPlan, ClearPlan> = defineDataType(
  'plankit.ClearPlan',
  z.strictObject({}),
);

/** Parameters of `planning_read_plan` (none). @public */
export type ReadPlan = Readonly<Record<string, never>>;

/** Schema of `planning_read_plan`'s parameters. @public */
export const ReadPlan: z.ZodType<ReadPlan, ReadPlan> = z.strictObject({});
