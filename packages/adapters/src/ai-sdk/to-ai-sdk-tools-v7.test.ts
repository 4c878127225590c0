import {
  createPlanningTools,
  defineTool,
  Plan,
  Session,
  selectLatest,
  ToolValidationError,
} from '@plankit/core';
import * as aiV7 from 'ai-v7';
import { generateText, type ModelMessage, stepCountIs, streamText, type ToolSet } from 'ai-v7';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai-v7/test';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { AISDKToolError } from './ai-sdk-tool-error.ts';
import { type AISDKToolOutput, toAISDKTools as toTools } from './to-ai-sdk-tools.ts';

// The adapter imports `ai`; here it gets ai@7, as in an app that installed only ai@7.
vi.mock('ai', () => import('ai-v7'));

/** The adapter's tools, typed for ai@7 (the published types resolve `ai` to whichever major is installed). */
const toAISDKTools = (...args: Parameters<typeof toTools>): ToolSet =>
  toTools(...args) as unknown as ToolSet;

const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};
const toolCall = (id: string, toolName: string, input: unknown) => ({
  type: 'tool-call' as const,
  toolCallId: id,
  toolName,
  input: JSON.stringify(input),
});
type Call = ReturnType<typeof toolCall>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A mock model answering each step with the next list of tool calls, then with text. */
function scripted(steps: Call[][], prompts: unknown[] = []) {
  return new MockLanguageModelV4({
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

describe('toAISDKTools with generateText of ai 7 (runs on Node 20)', () => {
  it('builds its tools with ai@7 here', async () => {
    const ai = await import('ai');
    expect(ai.generateText).toBe(aiV7.generateText);
  });

  it('runs a multi-step loop; a refusal is a tool-error part and the model reads exactly plankit text', async () => {
    const session = new Session();
    const tools = createPlanningTools(session);
    const prompts: unknown[] = [];
    const result = await generateText({
      model: scripted(
        [
          [
            setupCall('c1'),
            toolCall('c2', 'planning_mark_step', { step_id: 'S9', status: 'done' }),
          ],
          [markCall('c3')],
        ],
        prompts,
      ),
      prompt: 'Plan v2.',
      tools: toAISDKTools(tools, { session }),
      stopWhen: stepCountIs(5),
    });
    expect(result.text).toBe('All done.');
    const refusal = result.steps[0]?.content.find((part) => part.type === 'tool-error');
    const error = refusal?.type === 'tool-error' ? refusal.error : undefined;
    expect(AISDKToolError.isInstance(error)).toBe(true);
    expect(ToolValidationError.isInstance((error as AISDKToolError).cause)).toBe(true);
    const secondPrompt = JSON.stringify(prompts[1]);
    expect(secondPrompt).toContain('"type":"text","value":"Plan initialised with 1 step."');
    // ai@7 sends error.toString(); AISDKToolError makes that the bare message.
    expect(secondPrompt).toContain(
      '"type":"error-text","value":"Tool validation failed: Step S9 does not exist."',
    );
    expect(selectLatest(session, Plan)?.status).toBe('completed');
  });

  // Ported from vercel/ai packages/ai/src/generate-text/generate-text.test.ts,
  // "tool execution errors > should include error result in response messages".
  it('vercel/ai generate-text "tool execution errors": the response messages of a refusal', async () => {
    const session = new Session();
    const result = await generateText({
      model: scripted([[markCall('call-1')]]),
      prompt: 'test-input',
      tools: toAISDKTools(createPlanningTools(session), { session }),
    });
    expect(result.content.map((part) => part.type)).toEqual(['tool-call', 'tool-error']);
    expect(JSON.stringify(result.response.messages[1])).toContain(
      '"output":{"type":"error-text","value":"Tool validation failed: No plan is currently initialised."}',
    );
  });

  it('answers a call to a name Object.prototype has (constructor, __proto__) as an unavailable tool, without failing the generation', async () => {
    for (const name of ['constructor', '__proto__']) {
      const session = new Session();
      const result = await generateText({
        model: scripted([[toolCall('c1', name, {})]]),
        prompt: 'test-input',
        tools: toAISDKTools(createPlanningTools(session), { session }),
      });
      expect(JSON.stringify(result.response.messages[1])).toContain(
        `Model tried to call unavailable tool '${name}'`,
      );
    }
  });

  it('applies a setup before the mark emitted after it when onToolExecutionStart delays the setup', async () => {
    const session = new Session();
    await generateText({
      model: scripted([[setupCall('c1'), markCall('c2')]]),
      prompt: 'Plan.',
      tools: toAISDKTools(createPlanningTools(session), { session }),
      onToolExecutionStart: async ({ toolCall }) => {
        if (toolCall.toolCallId === 'c1') await sleep(30);
      },
    });
    expect(selectLatest(session, Plan)?.status).toBe('completed');
  });

  it('applies 20 calls of one step in emission order, whatever order their hooks finish in', async () => {
    const session = new Session();
    const applied: string[] = [];
    const ids = Array.from({ length: 20 }, (_, index) => `call_${index}`);
    const delays = ids.map(() => Math.floor(Math.random() * 8));
    await generateText({
      model: scripted([ids.map((id) => toolCall(id, 'record', { label: id }))]),
      prompt: 'Record.',
      tools: toAISDKTools([recorder(applied)], { session }),
      onToolExecutionStart: async ({ toolCall }) => {
        await sleep(delays[ids.indexOf(toolCall.toolCallId)] ?? 0);
      },
    });
    expect(applied).toEqual(ids);
  });

  it('keeps steps apart when prepareStep returns one messages array and the provider reuses ids', async () => {
    const session = new Session();
    const applied: string[] = [];
    const messages: ModelMessage[] = [{ role: 'user', content: 'Record.' }];
    await generateText({
      model: scripted([
        [toolCall('call_0', 'record', { label: 'a' })],
        [toolCall('call_0', 'record', { label: 'b' })],
      ]),
      messages,
      prepareStep: () => ({ messages }),
      tools: toAISDKTools([recorder(applied)], { session }),
      stopWhen: stepCountIs(3),
    });
    expect(applied).toEqual(['a', 'b']);
  });

  it('applies a step in model order under toolCallConcurrency', async () => {
    const session = new Session();
    const applied: string[] = [];
    const ids = Array.from({ length: 6 }, (_, index) => `call_${index}`);
    await generateText({
      model: scripted([ids.map((id) => toolCall(id, 'record', { label: id }))]),
      prompt: 'Record.',
      tools: toAISDKTools([recorder(applied)], { session }),
      toolCallConcurrency: 2,
      onToolExecutionStart: async ({ toolCall }) => {
        if (toolCall.toolCallId === 'call_0') await sleep(20);
      },
    });
    expect(applied).toEqual(ids);
  });

  it('sends strict planning tools strict: true with a strict schema, and reads nulls back as absent', async () => {
    const session = new Session();
    let seen: { name: string; strict?: boolean; inputSchema: { required?: string[] } }[] = [];
    const model = scripted([
      [
        setupCall('c1'),
        toolCall('c2', 'planning_mark_step', { step_id: 'S001', status: 'done', note: null }),
      ],
    ]);
    const inner = model.doGenerate;
    model.doGenerate = async (options) => {
      if (seen.length === 0) seen = options.tools as typeof seen;
      return inner(options);
    };
    const result = await generateText({
      model,
      prompt: 'Plan.',
      tools: toAISDKTools(createPlanningTools(session), { session }),
    });
    const mark = seen.find((t) => t.name === 'planning_mark_step');
    expect(mark?.strict).toBe(true);
    expect(mark?.inputSchema.required).toEqual(['step_id', 'status', 'note']);
    expect(result.steps[0]?.toolResults.map((part) => part.toolCallId)).toEqual(['c1', 'c2']);
    expect(selectLatest(session, Plan)?.status).toBe('completed');
  });
});

describe('toAISDKTools with streamText of ai 7 (runs on Node 20)', () => {
  it('applies a setup delayed by onToolExecutionStart before the mark emitted after it', async () => {
    const session = new Session();
    const result = streamText({
      model: scripted([[setupCall('c1'), markCall('c2')]]),
      prompt: 'Plan.',
      tools: toAISDKTools(createPlanningTools(session), { session }),
      onToolExecutionStart: async ({ toolCall }) => {
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
      onToolExecutionStart: async ({ toolCall }) => {
        await sleep(delays[ids.indexOf(toolCall.toolCallId)] ?? 0);
      },
    });
    await result.consumeStream();
    expect(applied).toEqual(ids);
  });

  // Ported from vercel/ai packages/ai/src/generate-text/stream-text.test.ts,
  // "tool execution errors > should add tool-error parts to ui message stream". ai@7 shows
  // the tool error's own text unless `redactToolErrors` is set.
  it('vercel/ai stream-text "should add tool-error parts to ui message stream": plankit text as tool-output-error', async () => {
    const session = new Session();
    const result = streamText({
      model: scripted([[markCall('call-1')]]),
      prompt: 'test-input',
      tools: toAISDKTools(createPlanningTools(session), { session }),
    });
    const chunks: { type: string; errorText?: string; output?: unknown }[] = [];
    for await (const chunk of result.toUIMessageStream()) chunks.push(chunk);
    expect(chunks.find((chunk) => chunk.type === 'tool-output-error')?.errorText).toBe(
      'Tool validation failed: No plan is currently initialised.',
    );
    expect(chunks.some((chunk) => chunk.type === 'tool-output-available')).toBe(false);
  });

  it('returns { result, content } from execute for successes', async () => {
    const session = new Session();
    const result = streamText({
      model: scripted([[setupCall('c1')]]),
      prompt: 'Plan.',
      tools: toAISDKTools(createPlanningTools(session), { session }),
    });
    const toolResults = await result.toolResults;
    expect((toolResults[0]?.output as AISDKToolOutput | undefined)?.content).toBe(
      'Plan initialised with 1 step.',
    );
  });
});
