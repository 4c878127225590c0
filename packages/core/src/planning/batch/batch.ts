import type { Tool } from '../../define-tool.ts';
import { dependencySetting } from '../dependencies/dependency-options.ts';
import type { AnyPlanningCommand, PlanningExtension } from '../planning-extension.ts';
import type { PlanBatchInput } from './batch-operation-input.ts';
import { createBatchTool } from './create-batch-tool.ts';
import { PlanBatch, planBatchReducer } from './plan-batch.ts';

/** `planning_apply_batch`. @public */
export type PlanBatchTool = Tool<PlanBatchInput, PlanBatch, PlanBatchInput>;

/** The tool the batch extension adds, by name. @public */
export interface BatchToolByName {
  readonly planning_apply_batch: PlanBatchTool;
}

/** What {@link batch} returns. @public */
export type BatchExtension = PlanningExtension<'batch', { readonly tools: BatchToolByName }>;

/** What {@link batch} declares: its command and reducer, on the plan slice. @internal */
export const BATCH_COMMANDS: readonly AnyPlanningCommand[] = Object.freeze([
  { dataType: PlanBatch, reducer: planBatchReducer },
]);

/** The line {@link batch} adds to the planning prompt. @internal */
export function batchPromptLines(): readonly string[] {
  return [
    "- Make each turn's plan changes in one `planning_apply_batch` call; the first can set up the plan and start its first step.",
  ];
}

/**
 * The batch extension: adds `planning_apply_batch`, which applies several marks, notes,
 * edits and additions in one call, in order, all or nothing, with the same checks as the
 * single tools (and those of the other extensions passed with it).
 *
 * @example
 * ```ts
 * import { createPlanningTools, Session } from '@plankit/core';
 * import { batch } from '@plankit/core/plan-model';
 *
 * const tools = createPlanningTools(new Session(), { extensions: [batch()] });
 * tools.planning_apply_batch;
 * ```
 * @public
 */
export function batch(): BatchExtension {
  return Object.freeze<BatchExtension>({
    name: 'batch',
    commands: BATCH_COMMANDS,
    promptLines: batchPromptLines,
    tools: (context) => ({
      add: [createBatchTool({ ...context, dependencies: dependencySetting(context.settings) })],
    }),
  });
}
