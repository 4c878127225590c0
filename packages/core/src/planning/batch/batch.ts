import type { Session } from '../../session.ts';
import { Plan } from '../plan.ts';
import type { PlanningExtension } from '../planning-extension.ts';
import { createBatchTool } from './create-batch-tool.ts';
import { PlanBatch, planBatchReducer } from './plan-batch.ts';

/** Registers the batch reducer on the plan slice. @internal */
export function registerBatchReducer(session: Session): void {
  session.register(PlanBatch, planBatchReducer, { slice: Plan });
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
export function batch(): PlanningExtension<'batch'> {
  return Object.freeze<PlanningExtension<'batch'>>({
    name: 'batch',
    register: registerBatchReducer,
    tools: (context) => ({ add: [createBatchTool(context)] }),
  });
}
