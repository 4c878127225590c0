import { describe, expectTypeOf, it } from 'vitest';
import type { AnyTool, Tool } from '../define-tool.ts';
import { batch, dependencies, owners } from '../plan-model.ts';
import { Session } from '../session.ts';
import type { PlanBatchInput } from './batch/batch-operation-input.ts';
import type { PlanBatch } from './batch/plan-batch.ts';
import {
  createPlanningTools,
  type PlanningTools,
  type PlanningToolsByName,
} from './create-planning-tools.ts';
import type {
  AddStepWithDependencies,
  AddStepWithDependenciesInput,
  SetupPlanWithDependencies,
  SetupPlanWithDependenciesInput,
} from './dependencies/dependency-commands.ts';
import type { Plan } from './plan.ts';
import type {
  ClearPlan,
  MarkStep,
  MarkStepInput,
  ReadPlan,
  SetupPlan,
  SetupPlanInput,
} from './plan-commands.ts';

describe('createPlanningTools types by name', () => {
  it('types each reference tool by its name', () => {
    const tools = createPlanningTools(new Session());
    expectTypeOf(tools).toEqualTypeOf<PlanningTools>();
    expectTypeOf(tools.planning_setup_plan).toEqualTypeOf<
      Tool<SetupPlan, SetupPlan, SetupPlanInput>
    >();
    expectTypeOf(tools.planning_mark_step).toEqualTypeOf<Tool<MarkStep, MarkStep, MarkStepInput>>();
    expectTypeOf(tools.planning_clear_plan).toEqualTypeOf<Tool<ClearPlan, ClearPlan>>();
    expectTypeOf(tools.planning_read_plan).toEqualTypeOf<Tool<ReadPlan, Plan>>();
    const { planning_setup_plan: setup } = tools;
    expectTypeOf(setup).toEqualTypeOf<PlanningToolsByName['planning_setup_plan']>();
    // A tool the options do not add is a type error, not undefined at run time.
    // @ts-expect-error no batch tool without the batch extension
    tools.planning_apply_batch;
    // @ts-expect-error no claim tool without the owners extension
    tools.planning_claim_step;
  });

  it('types the dependency-aware and batch tools by name', () => {
    const tools = createPlanningTools(new Session(), { extensions: [dependencies(), batch()] });
    expectTypeOf(tools.planning_setup_plan).toEqualTypeOf<
      Tool<SetupPlanWithDependencies, SetupPlanWithDependencies, SetupPlanWithDependenciesInput>
    >();
    expectTypeOf(tools.planning_add_step).toEqualTypeOf<
      Tool<AddStepWithDependencies, AddStepWithDependencies, AddStepWithDependenciesInput>
    >();
    expectTypeOf(tools.planning_apply_batch).toEqualTypeOf<
      Tool<PlanBatchInput, PlanBatch, PlanBatchInput>
    >();
  });

  it('stays an array of tools for hosts', () => {
    const tools = createPlanningTools(new Session(), { extensions: [owners({ agent: 'a' })] });
    expectTypeOf(tools).toExtend<readonly AnyTool[]>();
    expectTypeOf(tools).toHaveProperty('length');
    expectTypeOf(tools).not.toHaveProperty('planning_apply_batch');
  });

  it('refuses the flags that became extensions at compile time', () => {
    // @ts-expect-error `batch: true` is now `extensions: [batch()]`
    createPlanningTools(new Session(), { batch: true });
  });
});

describe('the text option', () => {
  it('takes a TextMode and gives the same tool types in both modes', () => {
    const unicode = createPlanningTools(new Session(), { text: 'unicode' });
    expectTypeOf(unicode).toEqualTypeOf<PlanningTools>();
    expectTypeOf(
      createPlanningTools(new Session(), { text: 'ascii' }),
    ).toEqualTypeOf<PlanningTools>();
    // @ts-expect-error: 'utf8' is not a text mode
    createPlanningTools(new Session(), { text: 'utf8' });
  });
});
