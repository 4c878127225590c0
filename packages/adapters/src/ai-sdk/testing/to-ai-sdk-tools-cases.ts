import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import {
  createPlanningTools,
  defineTool,
  Plan,
  Session,
  selectLatest,
  ToolValidationError,
} from '@plankit/core';
import { TOOL_CALL_CHANNEL, type ToolCallEvent } from '@plankit/core/diagnostics';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { toStrictJsonSchema } from '../../host/strict-schema/to-strict-json-schema.ts';
import { toolJsonSchema } from '../../tool-json-schema.ts';
import { AISDKToolError } from '../ai-sdk-tool-error.ts';
import { type AISDKToolOutput, toAISDKTools } from '../to-ai-sdk-tools.ts';
import type { AISDKMajor } from './ai-sdk-host-run.ts';
import { type Call, sleep, stepResult, stepStreamParts, toolCall } from './chat-script.ts';

// Each major types its own options, results and mock model; the cases only rely on the shapes
// both share, so they take them untyped.
// biome-ignore lint/suspicious/noExplicitAny: see above.
type PerMajor = any;

/** What one AI SDK major provides for the toAISDKTools cases: ai 6 and ai 7 differ only in these. */
export interface ToolsMajor extends AISDKMajor {
  /** `ai 6` or `ai 7`, in the names of the tests. */
  readonly name: string;
  readonly streamText: (options: PerMajor) => PerMajor;
  /** From the major's `ai/test`. */
  readonly convertArrayToReadableStream: (parts: PerMajor[]) => PerMajor;
  /** The hook run before each tool call executes: renamed between the majors. */
  readonly onToolStart: 'experimental_onToolCallStart' | 'onToolExecutionStart';
  /** Whether `generateText` takes `toolCallConcurrency` (ai 7). */
  readonly toolCallConcurrency: boolean;
  /**
   * The `toUIMessageStream` options that show a tool error's own text: ai 6 masks it unless
   * `onError` returns it; ai 7 shows it unless `redactToolErrors` is set.
   */
  readonly showToolErrors: object | undefined;
}

/** The delay the start hook adds to one call, so later calls of its step finish their hook first. */
const delayCall = (major: ToolsMajor, id: string, ms: number) => ({
  [major.onToolStart]: async ({ toolCall }: { toolCall: { toolCallId: string } }) => {
    if (toolCall.toolCallId === id) await sleep(ms);
  },
});

/** A start hook that delays each of `ids` by its own random few milliseconds. */
const shuffledStarts = (major: ToolsMajor, ids: readonly string[]) => {
  const delays = ids.map(() => Math.floor(Math.random() * 8));
  return {
    [major.onToolStart]: async ({ toolCall }: { toolCall: { toolCallId: string } }) => {
      await sleep(delays[ids.indexOf(toolCall.toolCallId)] ?? 0);
    },
  };
};

/** A mock model answering each step with the next list of tool calls, then with text. */
function scripted(major: ToolsMajor, steps: Call[][], prompts: unknown[] = []) {
  return new major.MockModel({
    doGenerate: async (options: { prompt: unknown }) => {
      prompts.push(options.prompt);
      return stepResult(steps.shift(), 'All done.');
    },
    doStream: async (options: { prompt: unknown }) => {
      prompts.push(options.prompt);
      return {
        stream: major.convertArrayToReadableStream(stepStreamParts(steps.shift(), 'All done.')),
      };
    },
  }) as PerMajor;
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

/**
 * The toAISDKTools cases, each written once and run against one AI SDK major: the
 * `to-ai-sdk-tools.test.ts` (ai 6) and `to-ai-sdk-tools-v7.test.ts` (ai 7) files call this with
 * their major.
 */
export function describeToAISDKTools(major: ToolsMajor): void {
  const { generateText, streamText, stepCountIs } = major;

  describe(`toAISDKTools with generateText and the AI SDK mock model (${major.name})`, () => {
    it(`builds its tools with the ai package of ${major.name}`, async () => {
      const ai = await import('ai');
      expect(ai.generateText).toBe(generateText);
    });

    it('runs a multi-step loop; a refusal is a tool-error part and the model reads plankit text', async () => {
      const session = new Session({ sessionId: 'ai-sdk', clock: () => 1 });
      const tools = createPlanningTools(session);
      const prompts: unknown[] = [];
      let seenTools: unknown;
      const model = scripted(
        major,
        [
          [
            setupCall('c1'),
            toolCall('c2', 'planning_mark_step', { step_id: 'S9', status: 'done' }),
          ],
          [markCall('c3')],
        ],
        prompts,
      );
      const inner = model.doGenerate.bind(model);
      model.doGenerate = async (options: { tools: unknown }) => {
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
      const first: { type: string; toolCallId?: string; error?: unknown }[] =
        result.steps[0]?.content ?? [];
      const refusal = first.find((part) => part.type === 'tool-error');
      expect(refusal?.toolCallId).toBe('c2');
      const error = refusal?.error;
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
      // ai 7 sends error.toString(); AISDKToolError makes that the bare message.
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
        model: scripted(major, [[markCall('call-1')]]),
        prompt: 'test-input',
        tools: toAISDKTools(createPlanningTools(session), { session }),
      });
      expect(result.content.map((part: { type: string }) => part.type)).toEqual([
        'tool-call',
        'tool-error',
      ]);
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
          model: scripted(major, [[toolCall('c1', name, {})]], prompts),
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

    it(`applies a setup before the mark emitted after it when ${major.onToolStart} delays the setup`, async () => {
      const session = new Session();
      const result = await generateText({
        model: scripted(major, [[setupCall('c1'), markCall('c2')]]),
        prompt: 'Plan.',
        tools: toAISDKTools(createPlanningTools(session), { session }),
        ...delayCall(major, 'c1', 30),
      });
      const outputs: AISDKToolOutput[] | undefined = result.steps[0]?.toolResults.map(
        (part: { output: unknown }) => part.output as AISDKToolOutput,
      );
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
        model: scripted(major, [[setupCall('c1'), markCall('c2')]]),
        prompt: 'Plan.',
        tools,
        ...delayCall(major, 'c1', 30),
      });
      const error = result.steps[0]?.content.find(
        (part: { type: string }) => part.type === 'tool-error',
      );
      expect((error as { error: Error } | undefined)?.error.message).toBe(
        'Tool validation failed: No plan is currently initialised.',
      );
    });

    it('applies 20 calls of one step in emission order, whatever order they complete their hooks in', async () => {
      const session = new Session();
      const applied: string[] = [];
      const ids = Array.from({ length: 20 }, (_, index) => `call_${index}`);
      await generateText({
        model: scripted(major, [ids.map((id) => toolCall(id, 'record', { label: id }))]),
        prompt: 'Record.',
        tools: toAISDKTools([recorder(applied)], { session }),
        ...shuffledStarts(major, ids),
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
      type Options = { toolCallId: string; messages: unknown[] };
      const tools = {
        planning_setup_plan: {
          ...setup,
          onInputAvailable: (options: Options) => {
            seen.push(['onInputAvailable', options.toolCallId, options.messages]);
            return setup.onInputAvailable?.(options as never);
          },
          execute: (input: unknown, options: Options) => {
            seen.push(['execute', options.toolCallId, options.messages]);
            return setup.execute?.(input, options as never) as Promise<AISDKToolOutput>;
          },
        },
      };
      await generateText({
        model: scripted(major, [[setupCall('call-1')]]),
        prompt: 'test-input',
        tools,
      });
      expect(seen.map(([hook, id]) => [hook, id])).toEqual([
        ['onInputAvailable', 'call-1'],
        ['execute', 'call-1'],
      ]);
      expect(seen[1]?.[2]).toBe(seen[0]?.[2]);
      expect(seen[0]?.[2]).toEqual([{ role: 'user', content: 'test-input' }]);
    });

    it('keeps steps apart when prepareStep returns one messages array and the provider reuses ids', async () => {
      const session = new Session();
      const applied: string[] = [];
      const messages = [{ role: 'user', content: 'Record.' }];
      await generateText({
        model: scripted(major, [
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

    if (major.toolCallConcurrency)
      it('applies a step in model order under toolCallConcurrency', async () => {
        const session = new Session();
        const applied: string[] = [];
        const ids = Array.from({ length: 6 }, (_, index) => `call_${index}`);
        await generateText({
          model: scripted(major, [ids.map((id) => toolCall(id, 'record', { label: id }))]),
          prompt: 'Record.',
          tools: toAISDKTools([recorder(applied)], { session }),
          toolCallConcurrency: 2,
          ...delayCall(major, 'call_0', 20),
        });
        expect(applied).toEqual(ids);
      });

    it('sends strict planning tools a strict schema, reads their nulls back as absent, and leaves others non-strict', async () => {
      const session = new Session();
      const applied: string[] = [];
      let seenTools: {
        name: string;
        inputSchema: { required?: string[] };
        strict?: boolean;
      }[] = [];
      const model = scripted(major, [
        [
          setupCall('c1'),
          toolCall('c2', 'planning_mark_step', { step_id: 'S001', status: 'done', note: null }),
          toolCall('c3', 'record', { label: 'x' }),
        ],
      ]);
      const inner = model.doGenerate.bind(model);
      model.doGenerate = async (options: { tools: unknown }) => {
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
      const mark = seenTools.find((t) => t.name === 'planning_mark_step');
      expect(mark?.strict).toBe(true);
      expect(mark?.inputSchema.required).toEqual(['step_id', 'status', 'note']);
      expect(
        result.steps[0]?.toolResults.map((part: { toolCallId: string }) => part.toolCallId),
      ).toEqual(['c1', 'c2', 'c3']);
      expect(applied).toEqual(['x']);
      expect(selectLatest(session, Plan)?.status).toBe('completed');
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
      const messages = [{ role: 'user' as const, content: 'go' }];
      const options = { toolCallId: 'c1', messages };
      const announced = { ...options, input: { label: 'a' } };
      await record?.onInputAvailable?.(announced);
      const first = await record?.execute?.({ label: 'a' }, options);
      const retried = await record?.execute?.({ label: 'a' }, options);
      expect(retried).toEqual(first);
      expect(applied).toEqual(['a']);
    });

    it("reports the AI SDK's toolCallId and the session's id on plankit:tool-call", async () => {
      const session = new Session({ sessionId: 'thread-9' });
      const { record } = toAISDKTools([recorder([])], { session });
      const messages = [{ role: 'user' as const, content: 'go' }];
      const options = { toolCallId: 'call_ai_1', messages };
      const announced = { ...options, input: { label: 'a' } };
      const events: ToolCallEvent[] = [];
      const listener = (message: unknown) => events.push(message as ToolCallEvent);
      subscribe(TOOL_CALL_CHANNEL, listener);
      try {
        await record?.onInputAvailable?.(announced);
        await record?.execute?.({ label: 'a' }, options);
      } finally {
        unsubscribe(TOOL_CALL_CHANNEL, listener);
      }
      expect(
        events.map(({ phase, callId, conversationId }) => [phase, callId, conversationId]),
      ).toEqual([
        ['start', 'call_ai_1', 'thread-9'],
        ['end', 'call_ai_1', 'thread-9'],
      ]);
    });

    it('treats an id announced again for the same messages array as a new step, not a retry', async () => {
      const session = new Session();
      const applied: string[] = [];
      const { record } = toAISDKTools([recorder(applied)], { session });
      const messages = [{ role: 'user' as const, content: 'go' }];
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
        model: scripted(major, [
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
        ...delayCall(major, 'c1', 30),
      });
      expect(applied).toEqual(['first', 'second']);
    });
  });

  describe(`toAISDKTools with streamText (${major.name})`, () => {
    it(`applies a setup delayed by ${major.onToolStart} before the mark emitted after it`, async () => {
      const session = new Session();
      const result = streamText({
        model: scripted(major, [[setupCall('c1'), markCall('c2')]]),
        prompt: 'Plan.',
        tools: toAISDKTools(createPlanningTools(session), { session }),
        ...delayCall(major, 'c1', 30),
        stopWhen: stepCountIs(3),
      });
      expect(await result.text).toBe('All done.');
      expect(selectLatest(session, Plan)?.status).toBe('completed');
    });

    it('applies 20 calls of one step in emission order', async () => {
      const session = new Session();
      const applied: string[] = [];
      const ids = Array.from({ length: 20 }, (_, index) => `call_${index}`);
      const result = streamText({
        model: scripted(major, [ids.map((id) => toolCall(id, 'record', { label: id }))]),
        prompt: 'Record.',
        tools: toAISDKTools([recorder(applied)], { session }),
        ...shuffledStarts(major, ids),
      });
      await result.consumeStream();
      expect(applied).toEqual(ids);
    });

    // Ported from vercel/ai packages/ai/src/generate-text/stream-text.test.ts,
    // "tool execution errors > should add tool-error parts to ui message stream".
    it('vercel/ai stream-text "should add tool-error parts to ui message stream": a refusal is tool-output-error', async () => {
      const session = new Session();
      const result = streamText({
        model: scripted(major, [[markCall('call-1')]]),
        prompt: 'test-input',
        tools: toAISDKTools(createPlanningTools(session), { session }),
      });
      const chunks: { type: string; errorText?: string }[] = [];
      for await (const chunk of result.toUIMessageStream(major.showToolErrors)) chunks.push(chunk);
      expect(chunks.find((chunk) => chunk.type === 'tool-output-error')?.errorText).toBe(
        'Tool validation failed: No plan is currently initialised.',
      );
      expect(chunks.some((chunk) => chunk.type === 'tool-output-available')).toBe(false);
    });

    it('returns { result, content } from execute for successes', async () => {
      const session = new Session();
      const result = streamText({
        model: scripted(major, [[setupCall('c1')]]),
        prompt: 'Plan.',
        tools: toAISDKTools(createPlanningTools(session), { session }),
      });
      const toolResults: { output: unknown }[] = await result.toolResults;
      expect((toolResults[0]?.output as AISDKToolOutput | undefined)?.content).toBe(
        'Plan initialised with 1 step.',
      );
    });
  });
}
