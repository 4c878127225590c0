import { createPlanningTools, defineTool, Plan, Session, selectLatest } from '@plankit/core';
import OpenAI from 'openai';
import { zodFunction } from 'openai/helpers/zod';
import { toStrictJsonSchema as openaiStrict } from 'openai/lib/transform';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AdapterError } from '../adapter-error.ts';
import { strictSchemaProblem } from '../host/strict-schema/strict-schema-problem.ts';
import {
  type RecordingServer,
  requestBody,
  startRecordingServer,
} from '../testing/recording-server.ts';
import { toolJsonSchema } from '../tool-json-schema.ts';
import { createOpenAIToolset } from './create-openai-toolset.ts';

// Chat Completions responses in the API's wire format, as the openai client receives them.
const chatResponse = (message: Record<string, unknown>, finish: string) => ({
  id: 'chatcmpl-plankit-1',
  object: 'chat.completion',
  created: 1_763_000_000,
  model: 'gpt-4.1-2025-04-14',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: null, refusal: null, annotations: [], ...message },
      logprobs: null,
      finish_reason: finish,
    },
  ],
  usage: { prompt_tokens: 812, completion_tokens: 64, total_tokens: 876 },
});
const call = (id: string, name: string, args: string) => ({
  id,
  type: 'function',
  function: { name, arguments: args },
});

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function planning() {
  const session = new Session({ sessionId: 'openai', clock: () => 1_763_000_000_000 });
  return { session, tools: createPlanningTools(session) };
}

describe('createOpenAIToolset with the real openai client', () => {
  it('runs a multi-turn Chat Completions loop: definitions out, tool messages back, refusals fixed', async () => {
    const { session, tools } = planning();
    const toolset = createOpenAIToolset(tools, { strict: true });
    server = await startRecordingServer([
      chatResponse(
        {
          tool_calls: [
            call(
              'call_1',
              'planning_setup_plan',
              '{"objective":"Ship v2","initial_steps":[{"title":"Draft","details":null},{"title":"Tag","details":null}]}',
            ),
            call(
              'call_2',
              'planning_mark_step',
              '{"step_id":"S001","status":"finished","note":null}',
            ),
            call('call_3', 'planning_launch', '{}'),
            call('call_4', 'planning_add_step', '{"steps": [{"title": "Publish"'),
          ],
        },
        'tool_calls',
      ),
      chatResponse(
        {
          tool_calls: [
            call(
              'call_5',
              'planning_mark_step',
              '{"step_id":"S001","status":"done","note":"Reviewed"}',
            ),
          ],
        },
        'tool_calls',
      ),
      chatResponse({ content: 'The draft is done; tagging is next.' }, 'stop'),
    ]);
    const client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Plan the v2 release.' },
    ];
    for (let turn = 0; turn < 5; turn++) {
      const completion = await client.chat.completions.create({
        model: 'gpt-4.1',
        messages,
        tools: [...toolset.chatTools],
      });
      const message = completion.choices[0]?.message;
      if (message === undefined) throw new Error('no message');
      messages.push(message);
      if (!message.tool_calls?.length) break;
      const records = await toolset.runChatToolCalls(message.tool_calls, { session });
      messages.push(...records.map((record) => record.message));
    }

    expect(server.requests).toHaveLength(3);
    const first = requestBody(server, 0) as { tools: unknown[] };
    expect(first.tools).toEqual(JSON.parse(JSON.stringify(toolset.chatTools)));
    const second = requestBody(server, 1) as {
      messages: { role: string; tool_call_id?: string; content?: string }[];
    };
    const toolMessages = second.messages.filter((m) => m.role === 'tool');
    expect(toolMessages.map((m) => [m.tool_call_id, m.content])).toEqual([
      ['call_1', 'Plan initialised with 2 steps.'],
      [
        'call_2',
        'Tool validation failed: status: Status must be one of: pending, in_progress, blocked, done.',
      ],
      [
        'call_3',
        "Tool validation failed: Unknown tool 'planning_launch'. Available tools: planning_setup_plan, planning_add_step, planning_update_step, planning_mark_step, planning_clear_plan, planning_read_plan.",
      ],
      [
        'call_4',
        expect.stringMatching(
          /^Tool validation failed: Arguments must be a JSON object; the JSON is invalid: /,
        ),
      ],
    ]);
    expect(selectLatest(session, Plan)?.steps.map((s) => [s.step_id, s.status, s.notes])).toEqual([
      ['S001', 'done', ['Reviewed']],
      ['S002', 'pending', []],
    ]);
    expect(messages.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'The draft is done; tagging is next.',
    });
  });

  it('runs a Responses API loop: function_call items in, function_call_output items back', async () => {
    const { session, tools } = planning();
    const toolset = createOpenAIToolset(tools);
    const response = (output: unknown[]) => ({
      id: 'resp_plankit',
      object: 'response',
      created_at: 1_763_000_000,
      status: 'completed',
      model: 'gpt-4.1-2025-04-14',
      output,
      parallel_tool_calls: true,
      tool_choice: 'auto',
      tools: [],
      usage: {
        input_tokens: 700,
        output_tokens: 40,
        total_tokens: 740,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens_details: { reasoning_tokens: 0 },
      },
    });
    server = await startRecordingServer([
      response([
        { type: 'reasoning', id: 'rs_1', summary: [] },
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_a',
          name: 'planning_setup_plan',
          arguments: '{"objective":"Ship v2"}',
          status: 'completed',
        },
        {
          type: 'function_call',
          id: 'fc_2',
          call_id: 'call_b',
          name: 'planning_read_plan',
          arguments: '"not an object"',
          status: 'completed',
        },
      ]),
      response([
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Planned.', annotations: [] }],
        },
      ]),
    ]);
    const client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const first = await client.responses.create({
      model: 'gpt-4.1',
      input: 'Plan v2.',
      tools: [...toolset.responsesTools],
    });
    const records = await toolset.runResponsesFunctionCalls(first.output, { session });
    await client.responses.create({
      model: 'gpt-4.1',
      previous_response_id: first.id,
      input: records.map((r) => r.message),
    });

    expect((requestBody(server, 0) as { tools: unknown }).tools).toEqual(
      JSON.parse(JSON.stringify(toolset.responsesTools)),
    );
    expect((requestBody(server, 1) as { input: unknown }).input).toEqual([
      { type: 'function_call_output', call_id: 'call_a', output: 'Plan initialised with 0 steps.' },
      {
        type: 'function_call_output',
        call_id: 'call_b',
        output: 'Tool validation failed: Arguments must be a JSON object, got a string.',
      },
    ]);
    expect(records.map((r) => r.result.success)).toEqual([true, false]);
  });
});

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
