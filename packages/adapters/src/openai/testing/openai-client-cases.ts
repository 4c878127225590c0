import { createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type RecordingServer,
  requestBody,
  startRecordingServer,
} from '../../testing/recording-server.ts';
import { createOpenAIToolset } from '../create-openai-toolset.ts';

// Each major types its own client; the cases only rely on the shapes both share, so they take
// it untyped.
// biome-ignore lint/suspicious/noExplicitAny: see above.
type PerMajor = any;

/** What one openai major provides for the client cases: its client class. */
export interface OpenAIMajor {
  /** `openai 6` or `openai 7`, in the names of the tests. */
  readonly name: string;
  /** The package's default export, `OpenAI`. */
  readonly OpenAI: new (options: {
    apiKey: string;
    baseURL: string;
    maxRetries: number;
  }) => PerMajor;
}

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

let server: RecordingServer | undefined;

function planning() {
  const session = new Session({ sessionId: 'openai', clock: () => 1_763_000_000_000 });
  return { session, tools: createPlanningTools(session) };
}

/**
 * The createOpenAIToolset cases with a real openai client against a loopback server that
 * answers in the API's wire format, each written once and run against one major: the
 * `create-openai-toolset.test.ts` (openai 6) and `create-openai-toolset.v7.test.ts` (openai 7)
 * files call this with their major.
 */
export function describeOpenAIClient({ name, OpenAI }: OpenAIMajor): void {
  describe(`createOpenAIToolset with the real ${name} client`, () => {
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

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
      const messages: unknown[] = [{ role: 'user', content: 'Plan the v2 release.' }];
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
      expect(selectLatest(session, Plan)?.steps.map((s) => [s.step_id, s.status, s.notes])).toEqual(
        [
          ['S001', 'done', ['Reviewed']],
          ['S002', 'pending', []],
        ],
      );
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
        {
          type: 'function_call_output',
          call_id: 'call_a',
          output: 'Plan initialised with 0 steps.',
        },
        {
          type: 'function_call_output',
          call_id: 'call_b',
          output: 'Tool validation failed: Arguments must be a JSON object, got a string.',
        },
      ]);
      expect(records.map((r) => r.result.success)).toEqual([true, false]);
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
      const messages: unknown[] = [{ role: 'user', content: 'Plan.' }];
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
        {
          type: 'function_call_output',
          call_id: 'call_a',
          output: 'Plan initialised with 0 steps.',
        },
      ]);
    });
  });
}
