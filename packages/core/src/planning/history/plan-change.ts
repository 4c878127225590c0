import * as z from 'zod';
import { defineDataType } from '../../define-data-type.ts';
import { valueProblem } from '../../internal/value-problem.ts';
import type { Reducer, ReducerEvent } from '../../reducer.ts';
import type { Session } from '../../session.ts';
import { ToolValidationError } from '../../tool-validation-error.ts';
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
import { Plan } from '../plan.ts';
import { AddStep, ClearPlan, MarkStep, SetupPlan, UpdateStep } from '../plan-commands.ts';
import type { AnyPlanningCommand } from '../planning-extension.ts';
import {
  addStepReducer,
  clearPlanReducer,
  markStepReducer,
  setupPlanReducer,
  updateStepReducer,
} from '../planning-reducers.ts';
import { declaredCommandOf } from '../register-planning-extensions.ts';
import { storedTextProblem } from '../text-rules.ts';

/** The longest explanation, in code points after trimming. @public */
export const MAX_EXPLANATION = 512;

/**
 * The data type names of plankit's plan commands, which the {@link PlanChange} schema checks
 * itself; a change may also carry a command an extension declares. @public
 */
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
 * What a planning tool that changes the plan dispatches with the `history()` extension: the
 * plan command (named by its data type: one of plankit's, or one an extension declares), who
 * sent it and why. Reduced into the plan slice exactly as the command alone would be, and
 * recorded in the plan history.
 *
 * @public
 */
export interface PlanChange {
  /**
   * The command's data type name: a {@link PlanCommandName}, such as `plankit.MarkStep`, or
   * the name of a command an extension declares (`example.SetEstimate`).
   */
  readonly command: PlanCommandName | (string & {});
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

/**
 * Applies a change carrying `command`, a command an extension declared (the PlanChange schema
 * left its value to it): its value checked against the command's data type, then its reducer.
 * Refused with a `ToolValidationError` when the session does not know the command or the
 * value does not match. @internal
 */
export function applyDeclaredCommand(
  command: AnyPlanningCommand | undefined,
  name: string,
  plans: readonly Plan[],
  event: ReducerEvent<unknown>,
): readonly Plan[] {
  if (command === undefined)
    throw new ToolValidationError(
      `PlanChange command ${name} is not a command of this session's plan model; pass the extension that declares it.`,
      { code: 'schema', field: 'command' },
    );
  const checked = valueProblem(command.dataType, event.value);
  if (!('data' in checked)) {
    const field = checked.field === '' ? 'value' : `value.${checked.field}`;
    throw new ToolValidationError(`The PlanChange value (${name}) ${checked.message}`, {
      code: 'schema',
      field,
    });
  }
  return command.reducer(plans, { ...event, dataType: name, value: checked.data });
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

// A data type name, as defineDataType takes it.
const COMMAND_NAME = /^[A-Za-z][A-Za-z0-9._:-]{0,127}$/;

/** Schema and data type of {@link PlanChange}. @public */
export const PlanChange: z.ZodType<PlanChange, PlanChange> = defineDataType(
  'plankit.PlanChange',
  z
    .strictObject({
      command: z
        .string()
        .regex(COMMAND_NAME, 'Command must be a data type name such as plankit.MarkStep'),
      value: z.unknown(),
      actor: Actor,
      explanation: Explanation,
    })
    // plankit's commands are checked here, by their schemas; a command an extension declares
    // is checked by the session that knows it, when the change is reduced.
    .transform((change, context) => {
      const schema = PLAN_COMMANDS.get(change.command);
      if (schema === undefined) return change;
      const parsed = schema.safeParse(change.value);
      if (parsed.success) return { ...change, value: parsed.data };
      for (const issue of parsed.error.issues)
        context.addIssue({
          code: 'custom',
          path: ['value', ...issue.path],
          message: issue.message,
        });
      return z.NEVER;
    }) as unknown as z.ZodType<PlanChange, PlanChange>,
);

/**
 * Reduces a {@link PlanChange} carrying one of plankit's commands into the plan slice: its
 * command, applied as if sent alone. A change carrying a command an extension declares is left
 * to the reducer `registerPlanningExtensions` and `registerPlanModelReducers` add per session,
 * which applies the commands that session knows and refuses any other.
 *
 * @public
 */
export const planChangeReducer: Reducer<Plan, PlanChange> = (plans, event) =>
  REDUCERS.has(event.value.command)
    ? applyPlanCommand(event.value.command, plans, { ...event, value: event.value.value })
    : plans;

// One per session, so registering it again is a no-op: it looks commands up as they are reduced.
const declaredChangeReducers = new WeakMap<Session, Reducer<Plan, PlanChange>>();

/**
 * The plan-slice reducer of the {@link PlanChange}s that carry a command an extension declared
 * on `session` (plankit's own are {@link planChangeReducer}'s). @internal
 */
export function declaredChangeReducer(session: Session): Reducer<Plan, PlanChange> {
  let reducer = declaredChangeReducers.get(session);
  if (reducer === undefined) {
    reducer = (plans, event) => {
      const name = event.value.command;
      if (REDUCERS.has(name)) return plans;
      return applyDeclaredCommand(declaredCommandOf(session, name), name, plans, {
        ...event,
        value: event.value.value,
      });
    };
    declaredChangeReducers.set(session, reducer);
  }
  return reducer;
}

/**
 * Registers on `session` the reducer of the {@link PlanChange}s that carry a command an
 * extension declares, which also refuses a change whose command the session does not know.
 * @internal
 */
export function registerDeclaredChanges(session: Session): void {
  session.register(PlanChange, declaredChangeReducer(session), { slice: Plan });
}
