import Anthropic from '@anthropic-ai/sdk';
import { createPlanningTools, defineTool, Plan, Session, selectLatest } from '@plankit/core';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { toStrictJsonSchema } from '../host/strict-schema/to-strict-json-schema.ts';
import {
  type RecordingServer,
  requestBody,
  startRecordingServer,
} from '../testing/recording-server.ts';
import { toolJsonSchema } from '../tool-json-schema.ts';
import { createAnthropicToolset } from './create-anthropic-toolset.ts';

// Messages API responses in the API's wire format, as the client receives them.
const reply = (content: unknown[], stop: string) => ({
  id: 'msg_plankit_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-5-5',
  content,
  stop_reason: stop,
  stop_sequence: null,
  usage: {
    input_tokens: 900,
    output_tokens: 80,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  },
});
const use = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input });

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('createAnthropicToolset with the real @anthropic-ai/sdk client', () => {
  it('runs a multi-turn loop: tools with input_schema out, tool_result blocks with is_error back', async () => {
    const session = new Session({ sessionId: 'anthropic', clock: () => 1 });
    const tools = createPlanningTools(session);
    const toolset = createAnthropicToolset(tools);
    server = await startRecordingServer([
      reply(
        [
          { type: 'text', text: 'I will set up a plan.' },
          use('toolu_01', 'planning_setup_plan', {
            objective: 'Ship v2',
            initial_steps: [{ title: 'Draft' }],
          }),
          use('toolu_02', 'planning_update_step', { step_id: 'S001', title: '   ' }),
        ],
        'tool_use',
      ),
      reply(
        [
          use('toolu_03', 'planning_update_step', { step_id: 'S001', title: 'Draft the notes' }),
          use('toolu_04', 'planning_read_plan', {}),
        ],
        'tool_use',
      ),
      reply([{ type: 'text', text: 'Plan ready.' }], 'end_turn'),
    ]);
    const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Plan the v2 release.' }];
    for (let turn = 0; turn < 5; turn++) {
      const response = await client.messages.create({
        model: 'claude-sonnet-5-5',
        max_tokens: 1024,
        messages,
        tools: [...toolset.tools],
      });
      messages.push({ role: 'assistant', content: response.content });
      if (response.stop_reason !== 'tool_use') break;
      const records = await toolset.runToolUses(response.content, { session });
      messages.push({ role: 'user', content: records.map((record) => record.block) });
    }

    expect(server.requests).toHaveLength(3);
    expect((requestBody(server, 0) as { tools: unknown }).tools).toEqual(
      tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        input_schema: toStrictJsonSchema(toolJsonSchema(tool)).schema,
        strict: true,
      })),
    );
    const secondTurn = (requestBody(server, 1) as { messages: { content: unknown }[] }).messages[2]
      ?.content;
    expect(secondTurn).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_01', content: 'Plan initialised with 1 step.' },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_02',
        content: 'Tool validation failed: Title must not be empty.',
        is_error: true,
      },
    ]);
    const thirdTurn = (requestBody(server, 2) as { messages: { content: unknown }[] }).messages[4]
      ?.content;
    expect(thirdTurn).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_03', content: 'Step S001 update queued.' },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_04',
        content:
          'Retrieved the current plan with 1 step.\n\nObjective: Ship v2\nStatus: active\n\nS001 [pending] Draft the notes',
      },
    ]);
    expect(selectLatest(session, Plan)?.steps[0]?.title).toBe('Draft the notes');
  });
});

describe('Anthropic strict tool use', () => {
  it('is on by default for the planning tools, reads the nulls back as absent, and can be turned off', async () => {
    const session = new Session({ sessionId: 'anthropic-strict', clock: () => 1 });
    const tools = createPlanningTools(session);
    const toolset = createAnthropicToolset(tools);
    expect(toolset.tools.every((tool) => tool.strict === true)).toBe(true);
    const [record] = await toolset.runToolUses(
      [use('toolu_1', 'planning_setup_plan', { objective: 'o', initial_steps: null })],
      { session },
    );
    expect(record?.block).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: 'Plan initialised with 0 steps.',
    });
    const loose = createAnthropicToolset(tools, { strict: false });
    expect(loose.tools[0]).toEqual({
      name: 'planning_setup_plan',
      description: tools.planning_setup_plan.description,
      input_schema: toolJsonSchema(tools.planning_setup_plan as never),
    });
  });

  it('sends no $comment or examples (the OpenAI form keeps them), at every depth', () => {
    const annotated = defineTool({
      name: 'tag',
      description: 'Tag an item.',
      parameters: z.strictObject({
        label: z.string().meta({ examples: ['urgent'], $comment: 'a short word' }),
        items: z.array(z.strictObject({ id: z.string().meta({ examples: ['a1'] }) })),
      }),
      handler: () => ({ message: 'ok', value: null }),
    });
    const openaiForm = toStrictJsonSchema(toolJsonSchema(annotated)).schema;
    expect(JSON.stringify(openaiForm)).toContain('"examples"');
    const [tool] = createAnthropicToolset([annotated], { strict: true }).tools;
    const sent = JSON.stringify(tool?.input_schema);
    expect(sent).not.toMatch(/"examples"|"\$comment"|"\$schema"|"\$id"/);
    expect(tool?.input_schema).toEqual(
      JSON.parse(
        JSON.stringify(openaiForm, (key, value) =>
          key === 'examples' || key === '$comment' ? undefined : value,
        ),
      ),
    );
    expect(Object.isFrozen(tool?.input_schema.properties)).toBe(true);
  });

  it('refuses a schema strict tool use cannot express, naming the tool, keyword and path', () => {
    const bounded = defineTool({
      name: 'pick',
      description: 'Pick a number.',
      parameters: z.strictObject({ n: z.int().min(1).max(3) }),
      handler: () => ({ message: 'ok', value: null }),
    });
    expect(() => createAnthropicToolset([bounded])).not.toThrow();
    expect(() => createAnthropicToolset([bounded], { strict: true })).toThrow(
      /^Tool 'pick': Anthropic strict tool use cannot express 'minimum' at n\.$/,
    );
  });
});
