import type { Result } from '@plankit/core';
import { describe, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import type { Budget } from '../budget/create-budget.ts';
import { createBudget } from '../budget/create-budget.ts';
import { reserveBudget } from '../budget/reserve-budget.ts';
import { usageCost } from '../budget/usage-cost.ts';
import type { ControllerError } from '../controller-error.ts';
import { initialSnapshot } from '../engine/initial-snapshot.ts';
import type { Machine } from '../engine/machine.ts';
import { createToolExecutor, type StageToolResult } from '../stage-tools/create-tool-executor.ts';
import { defineStageTool } from '../stage-tools/define-stage-tool.ts';
import { type ApprovalReply, parseApprovalReply } from './parse-approval-reply.ts';
import { createPlanningController } from './planning-controller.ts';
import { type PlanningResult, planningResult } from './planning-result.ts';
import type { PlanningOutcome, PlanningStage } from './planning-stage.ts';

const planningMachine = createPlanningController();

describe('planning controller types', () => {
  it('is a machine of the seed stages and outcomes', () => {
    expectTypeOf(planningMachine).toEqualTypeOf<Machine<PlanningStage, PlanningOutcome>>();
    expectTypeOf(
      planningResult(initialSnapshot(planningMachine, { now: 0 })),
    ).toEqualTypeOf<PlanningResult | null>();
  });

  it('narrows an approval reply by its outcome', () => {
    const reply = parseApprovalReply('approve');
    expectTypeOf(reply).toEqualTypeOf<ApprovalReply>();
    expectTypeOf(reply.outcome).toEqualTypeOf<'approved' | 'rejected' | 'no_response'>();
    expectTypeOf(reply.outcome).toExtend<PlanningOutcome>();
    if (reply.outcome === 'rejected') expectTypeOf(reply.changes).toEqualTypeOf<string>();
    // @ts-expect-error changes exist only on a rejection
    reply.changes;
  });

  it('types budget operations and costs as results', () => {
    expectTypeOf(usageCost({}, { model: 'm', inputTokens: 1, outputTokens: 1 })).toEqualTypeOf<
      Result<number, ControllerError>
    >();
    expectTypeOf(
      reserveBudget(createBudget({ now: 0 }), { id: 'a', usd: 1, now: 0 }),
    ).toEqualTypeOf<Result<Budget, ControllerError>>();
  });

  it('types a stage tool result by the tool when run with it', () => {
    const tool = defineStageTool({
      name: 'count',
      description: 'Count.',
      input: z.strictObject({ n: z.number() }),
      run: ({ n }) => ({ ok: true, confidence: 1, explanations: [], data: { doubled: n * 2 } }),
    });
    const executor = createToolExecutor({ tools: [tool], modelId: 'm' });
    expectTypeOf(executor.run(tool, { n: 1 }, { artifacts: [] })).toEqualTypeOf<
      Promise<StageToolResult<{ doubled: number }>>
    >();
    expectTypeOf(executor.run('count', { n: 1 }, { artifacts: [] })).toEqualTypeOf<
      Promise<StageToolResult>
    >();
  });
});
