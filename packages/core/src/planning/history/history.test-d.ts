import { describe, expectTypeOf, it } from 'vitest';
import type { AnyTool, Tool } from '../../define-tool.ts';
import { batch, history, owners } from '../../plan-model.ts';
import { Session } from '../../session.ts';
import type { PlanBatchInput } from '../batch/batch-operation-input.ts';
import { createPlanningTools } from '../create-planning-tools.ts';
import type { ClaimStep, ReleaseStep } from '../owners/owner-commands.ts';
import type { OwnedStepInput } from '../owners/owner-tools.ts';
import type { Plan } from '../plan.ts';
import type { MarkStep, MarkStepInput, ReadPlan } from '../plan-commands.ts';
import type { PlanningExtension } from '../planning-extension.ts';
import type { PlanChange } from './plan-change.ts';
import type { Explained, ExplainedInput } from './with-history.ts';

// An app's extension, as its types declare it (testing/estimates-extension.ts runs one).
interface SetEstimate {
  readonly step_id: string;
  readonly hours: number;
}
type SetEstimateTool = Tool<SetEstimate, SetEstimate>;
declare function estimates(): PlanningExtension<
  'estimates',
  { readonly tools: { readonly planning_set_estimate: SetEstimateTool } }
>;

describe('createPlanningTools types with history and owners', () => {
  it('owners adds the claim and release tools after the batch tool', () => {
    const tools = createPlanningTools(new Session(), {
      extensions: [batch(), owners({ agent: 'a' })],
    });
    expectTypeOf(tools).toHaveProperty('planning_apply_batch');
    expectTypeOf(tools.planning_claim_step).toEqualTypeOf<
      Tool<ClaimStep, ClaimStep, OwnedStepInput>
    >();
    expectTypeOf(tools.planning_release_step).toEqualTypeOf<
      Tool<ReleaseStep, ReleaseStep, OwnedStepInput>
    >();
    // Positions are for hosts to iterate; they are not typed per tool.
    expectTypeOf(tools[7]).toEqualTypeOf<AnyTool | undefined>();
  });

  it('history wraps every mutating tool and leaves read alone', () => {
    const tools = createPlanningTools(new Session(), {
      extensions: [owners({ agent: 'a' }), history()],
    });
    expectTypeOf(tools.planning_mark_step).toEqualTypeOf<
      Tool<MarkStep & Explained, PlanChange, MarkStepInput & ExplainedInput>
    >();
    expectTypeOf(tools.planning_read_plan).toEqualTypeOf<Tool<ReadPlan, Plan>>();
    expectTypeOf(tools.planning_claim_step).toEqualTypeOf<
      Tool<ClaimStep & Explained, PlanChange, OwnedStepInput & ExplainedInput>
    >();
    expectTypeOf(tools).not.toHaveProperty('planning_apply_batch');
    const batched = createPlanningTools(new Session(), { extensions: [batch(), history()] });
    expectTypeOf(batched.planning_apply_batch).toEqualTypeOf<
      Tool<PlanBatchInput & Explained, PlanChange, PlanBatchInput & ExplainedInput>
    >();
    expectTypeOf(batched).not.toHaveProperty('planning_claim_step');
  });

  it('history wraps an extension’s own tool too, listed before or after it', () => {
    type Wrapped = Tool<SetEstimate & Explained, PlanChange, SetEstimate & ExplainedInput>;
    const after = createPlanningTools(new Session(), { extensions: [estimates(), history()] });
    expectTypeOf(after.planning_set_estimate).toEqualTypeOf<Wrapped>();
    expectTypeOf(after.planning_mark_step).toEqualTypeOf<
      Tool<MarkStep & Explained, PlanChange, MarkStepInput & ExplainedInput>
    >();
    const before = createPlanningTools(new Session(), { extensions: [history(), estimates()] });
    expectTypeOf(before.planning_set_estimate).toEqualTypeOf<Wrapped>();
    expectTypeOf(before.planning_mark_step).toEqualTypeOf<
      Tool<MarkStep & Explained, PlanChange, MarkStepInput & ExplainedInput>
    >();
    expectTypeOf(before.planning_read_plan).toEqualTypeOf<Tool<ReadPlan, Plan>>();
    const alone = createPlanningTools(new Session(), { extensions: [estimates()] });
    expectTypeOf(alone.planning_set_estimate).toEqualTypeOf<SetEstimateTool>();
  });
});
