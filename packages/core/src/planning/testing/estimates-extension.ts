import * as z from 'zod';
import { defineDataType } from '../../define-data-type.ts';
import { defineTool, type Tool } from '../../define-tool.ts';
import type { Reducer } from '../../reducer.ts';
import { ToolValidationError } from '../../tool-validation-error.ts';
import type { Plan } from '../plan.ts';
import { requirePlan, stepIndex } from '../plan-checks.ts';
import type { PlanningExtension } from '../planning-extension.ts';

/** What `planning_set_estimate` dispatches: a step's estimate in whole hours. */
export interface SetEstimate {
  readonly step_id: string;
  readonly hours: number;
}

/** The command of the test extension {@link estimates}, as an app would declare one. */
export const SetEstimate: z.ZodType<SetEstimate, SetEstimate> = defineDataType(
  'example.SetEstimate',
  z.strictObject({ step_id: z.string(), hours: z.number().int().min(1).max(1000) }),
);

const ESTIMATE = 'estimate: ';

/** Records the estimate as the step's `estimate: <n>h` note, replacing an earlier one. */
export const setEstimateReducer: Reducer<Plan, SetEstimate> = (plans, event) => {
  const plan = plans[plans.length - 1];
  if (plan === undefined)
    throw new ToolValidationError('No plan is currently initialised.', { code: 'plan_missing' });
  const { step_id, hours } = event.value;
  const index = stepIndex(plan, step_id);
  const steps = plan.steps.map((step, i) =>
    i !== index
      ? step
      : Object.freeze({
          ...step,
          notes: Object.freeze([
            ...step.notes.filter((note) => !note.startsWith(ESTIMATE)),
            `${ESTIMATE}${hours}h`,
          ]),
        }),
  );
  return [...plans.slice(0, -1), Object.freeze({ ...plan, steps: Object.freeze(steps) })];
};

/** The tool {@link estimates} adds. */
export type SetEstimateTool = Tool<SetEstimate, SetEstimate>;

/** What {@link estimates} returns. */
export type EstimatesExtension = PlanningExtension<
  'estimates',
  { readonly tools: { readonly planning_set_estimate: SetEstimateTool } }
>;

/**
 * A plan-model extension written as an app writes one: a command with its reducer and a tool
 * (`planning_set_estimate`) that dispatches it, for the suites that check what core does with
 * a command it does not name.
 */
export function estimates(): EstimatesExtension {
  return {
    name: 'estimates',
    commands: [{ dataType: SetEstimate, reducer: setEstimateReducer }],
    tools: (context) => ({
      add: [
        defineTool({
          name: 'planning_set_estimate',
          description: 'Set the estimate of a step, in whole hours.',
          parameters: SetEstimate,
          resultType: SetEstimate,
          acceptsOverrides: context.acceptsOverrides,
          handler: (params, { session }) => {
            const plan = requirePlan(context.prepare(session));
            stepIndex(plan, params.step_id);
            return {
              message: `Step ${params.step_id} estimated at ${params.hours}h.`,
              value: params,
            };
          },
        }),
      ],
    }),
  };
}
