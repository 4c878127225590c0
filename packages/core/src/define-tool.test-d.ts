import { describe, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import { defineDataType } from './define-data-type.ts';
import { defineTool, type Tool } from './define-tool.ts';
import { invokeTool } from './invoke-tool.ts';
import type { PlankitError, PlankitErrorCode } from './plankit-error.ts';
import { createPlanningTools } from './planning/create-planning-tools.ts';
import type { Plan } from './planning/plan.ts';
import type { ClearPlan, SetupPlan, SetupPlanInput } from './planning/plan-commands.ts';
import { Session } from './session.ts';
import type { ToolResult } from './tool-result.ts';
import type { ToolValidationErrorCode } from './tool-validation-error.ts';

describe('tool types', () => {
  it('infers handler parameters from the schema and the result from the handler', () => {
    const Item = defineDataType('typetest.Item', z.strictObject({ name: z.string() }));
    const tool = defineTool({
      name: 'add_item',
      description: 'Add an item.',
      parameters: z.strictObject({ name: z.string(), count: z.number().default(1) }),
      resultType: Item,
      handler: (params, context) => {
        expectTypeOf(params).toEqualTypeOf<{ name: string; count: number }>();
        expectTypeOf(context.now).toBeNumber();
        return { message: 'ok', value: { name: params.name } };
      },
    });
    expectTypeOf(tool).toEqualTypeOf<
      Tool<
        { name: string; count: number },
        { name: string },
        { name: string; count?: number | undefined }
      >
    >();
  });

  it('types the planning tools as a tuple in reference order', async () => {
    const session = new Session();
    const {
      planning_setup_plan: setup,
      planning_clear_plan: clear,
      planning_read_plan: read,
    } = createPlanningTools(session);
    expectTypeOf(setup).toEqualTypeOf<Tool<SetupPlan, SetupPlan, SetupPlanInput>>();
    expectTypeOf(clear).toEqualTypeOf<Tool<ClearPlan, ClearPlan>>();
    const result = await invokeTool(read, {}, { session });
    expectTypeOf(result).toEqualTypeOf<ToolResult<Plan>>();
    if (result.success) expectTypeOf(result.value).toEqualTypeOf<Plan>();
    else {
      expectTypeOf(result.value).toBeNull();
      expectTypeOf(result.error).toEqualTypeOf<
        PlankitError<PlankitErrorCode | ToolValidationErrorCode>
      >();
    }
  });

  it('refuses a handler whose value does not match the result type', () => {
    const Item = defineDataType('typetest.Item2', z.strictObject({ name: z.string() }));
    defineTool({
      name: 'bad',
      description: 'Bad.',
      parameters: z.strictObject({}),
      resultType: Item,
      // @ts-expect-error the value must be an Item
      handler: () => ({ message: 'x', value: { name: 1 } }),
    });
  });
});
