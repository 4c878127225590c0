import { createPlanningTools, defineTool, Plan, Session, selectLatest } from '@plankit/core';
import OpenAI from 'openai';
import { zodFunction } from 'openai/helpers/zod';
import { toStrictJsonSchema as openaiStrict } from 'openai/lib/transform';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AdapterError } from '../adapter-error.ts';
import { strictSchemaProblem } from '../host/strict-schema/strict-schema-problem.ts';
import { toolJsonSchema } from '../tool-json-schema.ts';
import { createOpenAIToolset } from './create-openai-toolset.ts';
import { describeOpenAIClient } from './testing/openai-client-cases.ts';

// The client cases are written once in testing/openai-client-cases.ts;
// create-openai-toolset.v7.test.ts runs them against openai 7.
describeOpenAIClient({ name: 'openai 6', OpenAI });

const call = (id: string, name: string, args: string) => ({
  id,
  type: 'function',
  function: { name, arguments: args },
});

function planning() {
  const session = new Session({ sessionId: 'openai', clock: () => 1_763_000_000_000 });
  return { session, tools: createPlanningTools(session) };
}

describe('strict mode', () => {
  it('passes the openai package’s own strict conversion for every planning tool', () => {
    const { tools } = planning();
    for (const tool of tools) {
      expect(() =>
        zodFunction({ name: tool.name, parameters: tool.parameters as never }),
      ).not.toThrow();
    }
    const toolset = createOpenAIToolset(tools, { strict: true });
    for (const definition of toolset.chatTools) {
      const parameters = definition.function.parameters as Record<string, unknown>;
      expect(openaiStrict(parameters)).toEqual(parameters);
      expect(definition.function.strict).toBe(true);
    }
  });

  it('makes every property required and optional ones nullable, and reads nulls back as absent', async () => {
    const { session, tools } = planning();
    const toolset = createOpenAIToolset(tools, {
      strict: (tool) => tool.name !== 'planning_read_plan',
    });
    const setup = toolset.chatTools[0]?.function.parameters as Record<string, unknown>;
    expect(setup).toMatchObject({
      required: ['objective', 'initial_steps'],
      additionalProperties: false,
    });
    expect(toolset.chatTools[5]?.function.strict).toBe(false);
    expect(toolset.chatTools[5]?.function.parameters).toEqual(
      toolJsonSchema(tools.planning_read_plan),
    );
    const [reply] = await toolset.runChatToolCalls(
      [call('c1', 'planning_setup_plan', '{"objective":"o","initial_steps":null}')] as never,
      { session },
    );
    expect(reply?.message.content).toBe('Plan initialised with 0 steps.');
  });

  it('is strict by default for the six planning tools, not for other tools; planning_setup_plan is strict-safe', async () => {
    const { session, tools } = planning();
    const custom = defineTool({
      name: 'tag_items',
      description: 'Tag items.',
      parameters: z.strictObject({ tags: z.record(z.string(), z.string()) }),
      handler: () => ({ message: 'ok', value: null }),
    });
    const toolset = createOpenAIToolset([...tools, custom]);
    expect(toolset.chatTools.map((tool) => tool.function.strict)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
    expect(toolset.responsesTools.map((tool) => tool.strict)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
    const setup = toolset.chatTools[0]?.function.parameters as Record<string, unknown>;
    expect(strictSchemaProblem(setup)).toBeUndefined();
    expect(openaiStrict(structuredClone(setup) as never)).toEqual(setup);
    const [reply] = await toolset.runChatToolCalls(
      [
        call(
          'c1',
          'planning_setup_plan',
          '{"objective":"o","initial_steps":[{"title":"Draft","details":null}]}',
        ),
      ] as never,
      { session },
    );
    expect(reply?.message.content).toBe('Plan initialised with 1 step.');
    expect(selectLatest(session, Plan)?.steps[0]?.details).toBeNull();
  });

  it('refuses a tool strict mode cannot express, naming the tool, path and keyword', () => {
    const tagged = defineTool({
      name: 'tag_items',
      description: 'Tag items.',
      parameters: z.strictObject({ tags: z.record(z.string(), z.string()) }),
      handler: () => ({ message: 'ok', value: null }),
    });
    expect(() => createOpenAIToolset([tagged])).not.toThrow();
    let caught: unknown;
    try {
      createOpenAIToolset([tagged], { strict: true });
    } catch (error) {
      caught = error;
    }
    expect(AdapterError.isInstance(caught)).toBe(true);
    expect((caught as AdapterError).message).toMatch(
      /^Tool 'tag_items': OpenAI strict mode cannot express .* at tags\.$/,
    );
    expect(() => createOpenAIToolset('nope' as never)).toThrow(AdapterError);
  });
});
