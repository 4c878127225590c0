import {
  createPlanningTools,
  defineTool,
  Plan,
  Session,
  selectLatest,
  ToolValidationError,
} from '@plankit/core';
import { generateText, type ModelMessage, stepCountIs, streamText } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { toStrictJsonSchema } from '../host/strict-schema/to-strict-json-schema.ts';
import { toolJsonSchema } from '../tool-json-schema.ts';
import { AISDKToolError } from './ai-sdk-tool-error.ts';
import { type AISDKToolOutput, toAISDKTools } from './to-ai-sdk-tools.ts';

const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};
const toolCall = (id: string, toolName: string, input: unknown) => ({
  type: 'tool-call' as const,
  toolCallId: id,
  toolName,
  input: typeof input === 'string' ? input : JSON.stringify(input),
});
type Call = ReturnType<typeof toolCall>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A mock model answering each step with the next list of tool calls, then with text. */
function scripted(steps: Call[][], prompts: unknown[] = []) {
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      prompts.push(options.prompt);
      const calls = steps.shift();
      return calls === undefined
        ? {
            content: [{ type: 'text' as const, text: 'All done.' }],
            finishReason: { unified: 'stop' as const, raw: undefined },
            usage,
            warnings: [],
          }
        : {
            content: calls,
            finishReason: { unified: 'tool-calls' as const, raw: undefined },
            usage,
            warnings: [],
          };
    },
    doStream: async (options) => {
      prompts.push(options.prompt);
      const calls = steps.shift();
      return {
        stream: convertArrayToReadableStream([
          { type: 'stream-start' as const, warnings: [] },
          ...(calls ?? [
            { type: 'text-start' as const, id: 't' },
            { type: 'text-delta' as const, id: 't', delta: 'All done.' },
            { type: 'text-end' as const, id: 't' },
          ]),
          {
            type: 'finish' as const,
            finishReason: {
              unified: calls ? ('tool-calls' as const) : ('stop' as const),
              raw: undefined,
            },
            usage,
          },
        ]),
      };
    },
  });
}

const setupCall = (id: string) =>
  toolCall(id, 'planning_setup_plan', {
    objective: 'Ship v2',
    initial_steps: [{ title: 'Draft' }],
  });
const markCall = (id: string) =>
  toolCall(id, 'planning_mark_step', { step_id: 'S001', status: 'done' });

/** A tool that records the order in which its calls apply. */
function recorder(applied: string[]) {
  return defineTool({
    name: 'record',
    description: 'Records a label.',
    parameters: z.strictObject({ label: z.string() }),
    handler: ({ label }) => {
      applied.push(label);
      return { message: `Recorded ${label}.`, value: null };
    },
  });
}

describe('toAISDKTools with generateText and the AI SDK mock model (ai 6)', () => {
  it('runs a multi-step loop; a refusal is a tool-error part and the model reads plankit text', async () => {
    const session = new Session({ sessionId: 'ai-sdk', clock: () => 1 });
    const tools = createPlanningTools(session);
    const prompts: unknown[] = [];
    let seenTools: unknown;
    const model = scripted(
      [
        [setupCall('c1'), toolCall('c2', 'planning_mark_step', { step_id: 'S9', status: 'done' })],
        [markCall('c3')],
      ],
      prompts,
    );
    const inner = model.doGenerate.bind(model);
    model.doGenerate = async (options) => {
      seenTools ??= options.tools;
      return inner(options);
    };
    const result = await generateText({
      model,
      prompt: 'Plan v2.',
      tools: toAISDKTools(tools, { session }),
      stopWhen: stepCountIs(5),
    });

    expect(result.text).toBe('All done.');
    expect(
      (seenTools as { name: string; inputSchema: unknown; strict: unknown }[]).map((t) => [
        t.name,
        t.inputSchema,
        t.strict,
      ]),
    ).toEqual(
      tools.map((tool) => [tool.name, toStrictJsonSchema(toolJsonSchema(tool)).schema, true]),
    );
    const first = result.steps[0]?.content ?? [];
    const refusal = first.find((part) => part.type === 'tool-error');
    expect(refusal?.toolCallId).toBe('c2');
    const error = refusal?.type === 'tool-error' ? refusal.error : undefined;
    expect(AISDKToolError.isInstance(error)).toBe(true);
    expect((error as AISDKToolError).message).toBe(
      'Tool validation failed: Step S9 does not exist.',
    );
    expect(ToolValidationError.isInstance((error as AISDKToolError).cause)).toBe(true);
    expect((error as AISDKToolError).code).toBe('step_unknown');
    expect(
      first.filter((part) => part.type === 'tool-result').map((part) => part.toolCallId),
    ).toEqual(['c1']);
    const secondPrompt = JSON.stringify(prompts[1]);
    expect(secondPrompt).toContain('"type":"text","value":"Plan initialised with 1 step."');
    expect(secondPrompt).toContain(
      '"type":"error-text","value":"Tool validation failed: Step S9 does not exist."',
    );
    expect(selectLatest(session, Plan)?.status).toBe('completed');
  });

  // Ported from vercel/ai packages/ai/src/generate-text/generate-text.test.ts,
  // "tool execution errors > should add tool error part to the content" and
  // "> should include error result in response messages": a tool that throws.
  it('vercel/ai generate-text "tool execution errors": the content and response messages of a refusal', async () => {
    const session = new Session();
    const result = await generateText({
      model: scripted([[markCall('call-1')]]),
      prompt: 'test-input',
      tools: toAISDKTools(createPlanningTools(session), { session }),
    });
    expect(result.content.map((part) => part.type)).toEqual(['tool-call', 'tool-error']);
    expect(result.response.messages[1]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call-1',
          toolName: 'planning_mark_step',
          output: {
            type: 'error-text',
            value: 'Tool validation failed: No plan is currently initialised.',
          },
        },
      ],
    });
  });

  it('answers a call to a name Object.prototype has (constructor, __proto__) as an unavailable tool, without failing the generation', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const session = new Session();
      const before = session.snapshot();
      const prompts: unknown[] = [];
      const tools = toAISDKTools(createPlanningTools(session), { session });
      const result = await generateText({
        model: scripted([[toolCall('c1', name, {})]], prompts),
        prompt: 'test-input',
        tools,
        stopWhen: stepCountIs(3),
      });
      expect(result.text).toBe('All done.');
      expect(JSON.stringify(prompts[1])).toContain(
        `Model tried to call unavailable tool '${name}'`,
      );
      expect(Object.keys(tools)).toEqual(createPlanningTools(session).map((tool) => tool.name));
      expect(session.snapshot()).toBe(before);
    }
  });

  it('applies a setup before the mark emitted after it when an async start hook delays the setup', async () => {
    const session = new Session();
    const result = await generateText({
      model: scripted([[setupCall('c1'), markCall('c2')]]),
      prompt: 'Plan.',
      tools: toAISDKTools(createPlanningTools(session), { session }),
      experimental_onToolCallStart: async ({ toolCall }) => {
        if (toolCall.toolCallId === 'c1') await sleep(30);
      },
    });
    const outputs = result.steps[0]?.toolResults.map((part) => part.output as AISDKToolOutput);
    expect(outputs?.map((output) => output.content)).toEqual([
      'Plan initialised with 1 step.',
      'Step S001 marked as done.',
    ]);
    expect(selectLatest(session, Plan)?.status).toBe('completed');
  });

  it('applies in arrival order when the tools lose their onInputAvailable (the unordered path)', async () => {
    const session = new Session();
    const tools = Object.fromEntries(
      Object.entries(toAISDKTools(createPlanningTools(session), { session })).map(([name, t]) => [
        name,
        { ...t, onInputAvailable: () => undefined },
      ]),
    );
    const result = await generateText({
      model: scripted([[setupCall('c1'), markCall('c2')]]),
      prompt: 'Plan.',
      tools,
      experimental_onToolCallStart: async ({ toolCall }) => {
        if (toolCall.toolCallId === 'c1') await sleep(30);
      },
    });
    const error = result.steps[0]?.content.find((part) => part.type === 'tool-error');
    expect((error as { error: Error } | undefined)?.error.message).toBe(
      'Tool validation failed: No plan is currently initialised.',
    );
  });

  it('applies 20 calls of one step in emission order, whatever order they complete their hooks in', async () => {
    const session = new Session();
    const applied: string[] = [];
    const ids = Array.from({ length: 20 }, (_, index) => `call_${index}`);
    const delays = ids.map(() => Math.floor(Math.random() * 8));
    const started: string[] = [];
    await generateText({
      model: scripted([ids.map((id) => toolCall(id, 'record', { label: id }))]),
      prompt: 'Record.',
      tools: toAISDKTools([recorder(applied)], { session }),
      experimental_onToolCallStart: async ({ toolCall }) => {
        await sleep(delays[ids.indexOf(toolCall.toolCallId)] ?? 0);
        started.push(toolCall.toolCallId);
      },
    });
    expect(applied).toEqual(ids);
  });

  // Ported from vercel/ai generate-text.test.ts "onInputAvailable ... should invoke callbacks in
  // the correct order": the SDK hands onInputAvailable the step's messages and the call id, and
  // execute receives the same array.
  it('vercel/ai generate-text "should invoke callbacks in the correct order": onInputAvailable before execute, same messages', async () => {
    const session = new Session();
    const seen: [string, string, unknown][] = [];
    const [planning] = Object.values(toAISDKTools(createPlanningTools(session), { session }));
    const setup = planning as NonNullable<typeof planning>;
    const tools = {
      planning_setup_plan: {
        ...setup,
        onInputAvailable: (options: { toolCallId: string; messages: ModelMessage[] }) => {
          seen.push(['onInputAvailable', options.toolCallId, options.messages]);
          return setup.onInputAvailable?.(options as never);
        },
        execute: (input: unknown, options: { toolCallId: string; messages: ModelMessage[] }) => {
          seen.push(['execute', options.toolCallId, options.messages]);
          return setup.execute?.(input, options as never) as Promise<AISDKToolOutput>;
        },
      },
    };
    await generateText({ model: scripted([[setupCall('call-1')]]), prompt: 'test-input', tools });
    expect(seen.map(([hook, id]) => [hook, id])).toEqual([
      ['onInputAvailable', 'call-1'],
      ['execute', 'call-1'],
    ]);
    expect(seen[1]?.[2]).toBe(seen[0]?.[2]);
    expect(seen[0]?.[2]).toEqual([{ role: 'user', content: 'test-input' }]);
  });

  it('sends strict planning tools a strict schema, reads their nulls back as absent, and leaves others non-strict', async () => {
    const session = new Session();
    const applied: string[] = [];
    let seenTools: { name: string; inputSchema: unknown; strict?: boolean }[] = [];
    const model = scripted([
      [
        setupCall('c1'),
        toolCall('c2', 'planning_mark_step', { step_id: 'S001', status: 'done', note: null }),
        toolCall('c3', 'record', { label: 'x' }),
      ],
    ]);
    const inner = model.doGenerate.bind(model);
    model.doGenerate = async (options) => {
      if (seenTools.length === 0) seenTools = options.tools as typeof seenTools;
      return inner(options);
    };
    const tools = [...createPlanningTools(session), recorder(applied)];
    const result = await generateText({
      model,
      prompt: 'Plan.',
      tools: toAISDKTools(tools, { session }),
    });
    expect(seenTools.find((t) => t.name === 'record')).toMatchObject({
      strict: false,
      inputSchema: toolJsonSchema(recorder([])),
    });
    expect(seenTools.find((t) => t.name === 'planning_mark_step')?.strict).toBe(true);
    expect(result.steps[0]?.toolResults.map((part) => part.toolCallId)).toEqual(['c1', 'c2', 'c3']);
    expect(applied).toEqual(['x']);
  });

  it('honours strict: false and a per-tool predicate', () => {
    const session = new Session();
    const tools = createPlanningTools(session);
    const off = toAISDKTools(tools, { session, strict: false });
    expect(Object.values(off).map((t) => ('strict' in t ? t.strict : undefined))).toEqual(
      tools.map(() => false),
    );
    const some = toAISDKTools(tools, {
      session,
      strict: (tool) => tool.name === 'planning_read_plan',
    });
    expect(
      Object.entries(some)
        .filter(([, t]) => 'strict' in t && t.strict)
        .map(([name]) => name),
    ).toEqual(['planning_read_plan']);
  });

  it('refuses, when converting, a strict tool whose schema strict mode cannot express', () => {
    const session = new Session();
    const open = defineTool({
      name: 'open',
      description: 'Takes any record.',
      parameters: z.object({ data: z.record(z.string(), z.string()) }),
      handler: () => ({ message: 'ok', value: null }),
    });
    expect(() => toAISDKTools([open], { session, strict: true })).toThrow(/strict mode/);
  });

  it('applies a second execute of the same call once and answers with the first outcome', async () => {
    const session = new Session();
    const applied: string[] = [];
    const { record } = toAISDKTools([recorder(applied)], { session });
    const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
    const options = { toolCallId: 'c1', messages };
    const announced = { ...options, input: { label: 'a' } };
    await record?.onInputAvailable?.(announced);
    const first = await record?.execute?.({ label: 'a' }, options);
    const retried = await record?.execute?.({ label: 'a' }, options);
    expect(retried).toEqual(first);
    expect(applied).toEqual(['a']);
  });

  it('treats an id announced again for the same messages array as a new step, not a retry', async () => {
    const session = new Session();
    const applied: string[] = [];
    const { record } = toAISDKTools([recorder(applied)], { session });
    const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
    const options = { toolCallId: 'call_0', messages };
    for (const label of ['a', 'b']) {
      const announced = { ...options, input: { label } };
      await record?.onInputAvailable?.(announced);
      await record?.execute?.({ label }, options);
    }
    expect(applied).toEqual(['a', 'b']);
  });

  it('orders the calls of tool records built separately for one session', async () => {
    const session = new Session();
    const applied: string[] = [];
    const other = defineTool({
      name: 'other',
      description: 'Records a label too.',
      parameters: z.strictObject({ label: z.string() }),
      handler: ({ label }) => {
        applied.push(label);
        return { message: 'ok', value: null };
      },
    });
    await generateText({
      model: scripted([
        [
          toolCall('c1', 'record', { label: 'first' }),
          toolCall('c2', 'other', { label: 'second' }),
        ],
      ]),
      prompt: 'go',
      tools: {
        ...toAISDKTools([recorder(applied)], { session }),
        ...toAISDKTools([other], { session }),
      },
      experimental_onToolCallStart: async ({ toolCall }) => {
        if (toolCall.toolCallId === 'c1') await sleep(30);
      },
    });
    expect(applied).toEqual(['first', 'second']);
  });
});

describe('toAISDKTools with streamText (ai 6)', () => {
  it('applies a setup delayed by a start hook before the mark emitted after it', async () => {
    const session = new Session();
    const result = streamText({
      model: scripted([[setupCall('c1'), markCall('c2')]]),
      prompt: 'Plan.',
      tools: toAISDKTools(createPlanningTools(session), { session }),
      experimental_onToolCallStart: async ({ toolCall }) => {
        if (toolCall.toolCallId === 'c1') await sleep(30);
      },
      stopWhen: stepCountIs(3),
    });
    expect(await result.text).toBe('All done.');
    expect(selectLatest(session, Plan)?.status).toBe('completed');
  });

  it('applies 20 calls of one step in emission order', async () => {
    const session = new Session();
    const applied: string[] = [];
    const ids = Array.from({ length: 20 }, (_, index) => `call_${index}`);
    const delays = ids.map(() => Math.floor(Math.random() * 8));
    const result = streamText({
      model: scripted([ids.map((id) => toolCall(id, 'record', { label: id }))]),
      prompt: 'Record.',
      tools: toAISDKTools([recorder(applied)], { session }),
      experimental_onToolCallStart: async ({ toolCall }) => {
        await sleep(delays[ids.indexOf(toolCall.toolCallId)] ?? 0);
      },
    });
    await result.consumeStream();
    expect(applied).toEqual(ids);
  });

  // Ported from vercel/ai packages/ai/src/generate-text/stream-text.test.ts,
  // "tool execution errors > should add tool-error parts to ui message stream".
  it('vercel/ai stream-text "should add tool-error parts to ui message stream": a refusal is tool-output-error', async () => {
    const session = new Session();
    const result = streamText({
      model: scripted([[markCall('call-1')]]),
      prompt: 'test-input',
      tools: toAISDKTools(createPlanningTools(session), { session }),
    });
    const chunks: { type: string; errorText?: string }[] = [];
    for await (const chunk of result.toUIMessageStream({
      onError: (error) => (AISDKToolError.isInstance(error) ? error.message : 'An error occurred.'),
    }))
      chunks.push(chunk);
    expect(chunks.find((chunk) => chunk.type === 'tool-output-error')?.errorText).toBe(
      'Tool validation failed: No plan is currently initialised.',
    );
    expect(chunks.some((chunk) => chunk.type === 'tool-output-available')).toBe(false);
  });
});
