import * as z from 'zod';
import { defineDataType } from '../../define-data-type.ts';
import type { Reducer, ReducerEvent } from '../../reducer.ts';
import { PlanBatch, planBatchReducer } from '../batch/plan-batch.ts';
import {
  AddStepWithDependencies,
  addStepWithDependenciesReducer,
  SetupPlanWithDependencies,
  setupPlanWithDependenciesReducer,
  UpdateStepWithDependencies,
  updateStepWithDependenciesReducer,
} from '../dependencies/dependency-commands.ts';
import { agentIdProblem } from '../owners/agent-id.ts';
import {
  ClaimStep,
  claimStepReducer,
  ReleaseStep,
  releaseStepReducer,
} from '../owners/owner-commands.ts';
import type { Plan } from '../plan.ts';
import { AddStep, ClearPlan, MarkStep, SetupPlan, UpdateStep } from '../plan-commands.ts';
import {
  addStepReducer,
  clearPlanReducer,
  markStepReducer,
  setupPlanReducer,
  updateStepReducer,
} from '../planning-reducers.ts';
import { storedTextProblem } from '../text-rules.ts';

/** The longest explanation, in code points after trimming. @public */
export const MAX_EXPLANATION = 512;

/** The data type names of the plan commands a {@link PlanChange} can carry. @public */
export type PlanCommandName =
  | 'plankit.SetupPlan'
  | 'plankit.AddStep'
  | 'plankit.UpdateStep'
  | 'plankit.MarkStep'
  | 'plankit.ClearPlan'
  | 'plankit.SetupPlanWithDependencies'
  | 'plankit.AddStepWithDependencies'
  | 'plankit.UpdateStepWithDependencies'
  | 'plankit.PlanBatch'
  | 'plankit.ClaimStep'
  | 'plankit.ReleaseStep';

/**
 * What a mutating planning tool dispatches with the `history()` extension: the plan command
 * (named by its data type), who sent it and why. Reduced into the plan slice exactly as the
 * command alone would be, and recorded in the plan history.
 *
 * @public
 */
export interface PlanChange {
  /** The command's data type name, such as `plankit.MarkStep`. */
  readonly command: PlanCommandName;
  /** The command's value, as that data type holds it. */
  readonly value: unknown;
  /** The agent that sent it (the tools' `agent` option), or `null` when not known. */
  readonly actor: string | null;
  /** Why, as the caller said it, or `null`. */
  readonly explanation: string | null;
}

// biome-ignore lint/suspicious/noExplicitAny: each command's reducer takes its own value type
const COMMANDS: readonly (readonly [PlanCommandName, z.ZodType, Reducer<Plan, any>])[] = [
  ['plankit.SetupPlan', SetupPlan, setupPlanReducer],
  ['plankit.AddStep', AddStep, addStepReducer],
  ['plankit.UpdateStep', UpdateStep, updateStepReducer],
  ['plankit.MarkStep', MarkStep, markStepReducer],
  ['plankit.ClearPlan', ClearPlan, clearPlanReducer],
  [
    'plankit.SetupPlanWithDependencies',
    SetupPlanWithDependencies,
    setupPlanWithDependenciesReducer,
  ],
  ['plankit.AddStepWithDependencies', AddStepWithDependencies, addStepWithDependenciesReducer],
  [
    'plankit.UpdateStepWithDependencies',
    UpdateStepWithDependencies,
    updateStepWithDependenciesReducer,
  ],
  ['plankit.PlanBatch', PlanBatch, planBatchReducer],
  ['plankit.ClaimStep', ClaimStep, claimStepReducer],
  ['plankit.ReleaseStep', ReleaseStep, releaseStepReducer],
];

/** Every command data type a {@link PlanChange} can carry, by name. @internal */
export const PLAN_COMMANDS: ReadonlyMap<string, z.ZodType> = new Map(
  COMMANDS.map(([name, schema]) => [name, schema]),
);

const REDUCERS: ReadonlyMap<string, Reducer<Plan, unknown>> = new Map(
  COMMANDS.map(([name, , reducer]) => [name, reducer as Reducer<Plan, unknown>]),
);

/** Applies the plan command `name` with `value` to `plans`, as its own reducer would. @internal */
export function applyPlanCommand(
  name: string,
  plans: readonly Plan[],
  event: ReducerEvent<unknown>,
): readonly Plan[] {
  const reducer = REDUCERS.get(name);
  if (reducer === undefined) throw new Error(`${name} is not a plan command`);
  return reducer(plans, { ...event, dataType: name });
}

/** Who made a change: an agent id, or `null`. The plan history's revisions use it too. @internal */
export const Actor: z.ZodType<string | null, string | null> = z
  .string()
  .nullable()
  .superRefine((value, context) => {
    const problem = value === null ? undefined : agentIdProblem(value);
    if (problem !== undefined) context.addIssue({ code: 'custom', message: `Actor ${problem}` });
  });

/**
 * Why a change was made: `null`, or what the `explanation` parameter of either text mode
 * stores (trimmed, 1 to {@link MAX_EXPLANATION} code points; ASCII without control characters,
 * or NFC text that meets the Unicode rules). The plan history's
 * revisions use it too, so a restored or LangGraph-sent revision keeps the tools' rule. @internal
 */
export const Explanation: z.ZodType<string | null, string | null> = z
  .string()
  .nullable()
  .superRefine((value, context) => {
    const problem = value === null ? undefined : storedTextProblem(value, MAX_EXPLANATION);
    if (problem !== undefined)
      context.addIssue({ code: 'custom', message: `Explanation ${problem.rule}` });
  });

/** Schema and data type of {@link PlanChange}. @public */
export const PlanChange: z.ZodType<PlanChange, PlanChange> = defineDataType(
  'plankit.PlanChange',
  z.discriminatedUnion(
    'command',
    COMMANDS.map(([name, schema]) =>
      z.strictObject({
        command: z.literal(name),
        value: schema,
        actor: Actor,
        explanation: Explanation,
      }),
    ) as unknown as [z.ZodObject, ...z.ZodObject[]],
  ) as unknown as z.ZodType<PlanChange, PlanChange>,
);

/** Reduces a {@link PlanChange} into the plan slice: its command, applied as if sent alone. @public */
export const planChangeReducer: Reducer<Plan, PlanChange> = (plans, event) =>
  applyPlanCommand(event.value.command, plans, { ...event, value: event.value.value });
