// The same toolset against openai@7 (the `openai-v7` npm alias). openai@7 declares Node >= 22;
// its client loads and runs on Node 20.20 here, so these run, not only type-check. The
// assignments below are checked by `tsc`: our definitions and messages are openai@7 params.
import { createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';
import OpenAI from 'openai-v7';
import type {
  ChatCompletionFunctionTool,
  ChatCompletionToolMessageParam,
} from 'openai-v7/resources/chat/completions';
import type { FunctionTool, ResponseInputItem } from 'openai-v7/resources/responses/responses';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import {
  type RecordingServer,
  requestBody,
  startRecordingServer,
} from '../testing/recording-server.ts';
import { createOpenAIToolset } from './create-openai-toolset.ts';

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const completion = (message: Record<string, unknown>, finish: string) => ({
  id: 'chatcmpl-v7',
  object: 'chat.completion',
  created: 1_763_000_000,
  model: 'gpt-5',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: null, refusal: null, annotations: [], ...message },
      logprobs: null,
      finish_reason: finish,
    },
  ],
  usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
});

describe('createOpenAIToolset with the real openai@7 client', () => {
  it('types: definitions and replies are openai@7 request params', () => {
    const toolset = createOpenAIToolset(createPlanningTools(new Session()));
    expectTypeOf(toolset.chatTools).toExtend<readonly ChatCompletionFunctionTool[]>();
    expectTypeOf(toolset.responsesTools).toExtend<readonly FunctionTool[]>();
    type ChatReply = Awaited<ReturnType<typeof toolset.runChatToolCalls>>[number]['message'];
    expectTypeOf<ChatReply>().toExtend<ChatCompletionToolMessageParam>();
    type ResponsesReply = Awaited<
      ReturnType<typeof toolset.runResponsesFunctionCalls>
    >[number]['message'];
    expectTypeOf<ResponsesReply>().toExtend<ResponseInputItem>();
  });

  it('runs a Chat Completions turn, a malformed call (no type, as some compatible servers send) included', async () => {
    const session = new Session({ clock: () => 1 });
    const toolset = createOpenAIToolset(createPlanningTools(session));
    server = await startRecordingServer([
      completion(
        {
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: {
                name: 'planning_setup_plan',
                arguments: '{"objective":"Ship v7","initial_steps":null}',
              },
            },
            {
              id: 'call_2',
              function: {
                name: 'planning_add_step',
                arguments: '{"steps":[{"title":"Tag","details":null}]}',
              },
            },
            { id: 'call_3', type: 'function' },
          ],
        },
        'tool_calls',
      ),
      completion({ content: 'Done.' }, 'stop'),
    ]);
    const client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Plan.' }];
    const first = await client.chat.completions.create({
      model: 'gpt-5',
      messages,
      tools: [...toolset.chatTools],
    });
    const message = first.choices[0]?.message;
    if (message === undefined) throw new Error('no message');
    const records = await toolset.runChatToolCalls(message.tool_calls, { session });
    messages.push(message, ...records.map((record) => record.message));
    await client.chat.completions.create({
      model: 'gpt-5',
      messages,
      tools: [...toolset.chatTools],
    });

    expect((requestBody(server, 0) as { tools: unknown }).tools).toEqual(
      JSON.parse(JSON.stringify(toolset.chatTools)),
    );
    const sent = (requestBody(server, 1) as { messages: { role: string; content?: string }[] })
      .messages;
    expect(sent.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'Plan initialised with 0 steps.',
      'Queued 1 step for addition.',
      'Tool validation failed: Tool call 2 has no function name.',
    ]);
    expect(selectLatest(session, Plan)?.steps.map((step) => step.title)).toEqual(['Tag']);
  });

  it('runs a Responses turn', async () => {
    const session = new Session({ clock: () => 1 });
    const toolset = createOpenAIToolset(createPlanningTools(session));
    const response = (output: unknown[]) => ({
      id: 'resp_v7',
      object: 'response',
      created_at: 1_763_000_000,
      status: 'completed',
      model: 'gpt-5',
      output,
      parallel_tool_calls: true,
      tool_choice: 'auto',
      tools: [],
    });
    server = await startRecordingServer([
      response([
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_a',
          name: 'planning_setup_plan',
          arguments: '{"objective":"Ship v7","initial_steps":null}',
          status: 'completed',
        },
      ]),
      response([]),
    ]);
    const client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const first = await client.responses.create({
      model: 'gpt-5',
      input: 'Plan.',
      tools: [...toolset.responsesTools],
    });
    const records = await toolset.runResponsesFunctionCalls(first.output, { session });
    await client.responses.create({
      model: 'gpt-5',
      previous_response_id: first.id,
      input: records.map((record) => record.message),
    });
    expect((requestBody(server, 1) as { input: unknown }).input).toEqual([
      { type: 'function_call_output', call_id: 'call_a', output: 'Plan initialised with 0 steps.' },
    ]);
  });
});
