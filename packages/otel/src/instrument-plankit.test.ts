import { hasSubscribers } from 'node:diagnostics_channel';
import { type Attributes, context, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import {
  createPlanningTools,
  defineTool,
  invokeTool,
  PlankitError,
  Session,
  SetupPlan,
} from '@plankit/core';
import { PLAN_CHANNEL, TOOL_CALL_CHANNEL } from '@plankit/core/diagnostics';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { instrumentPlankit } from './instrument-plankit.ts';
import { GenAIAttributes, PlankitAttributes } from './semantic-conventions.ts';
import { recordTraces, type TraceRecorder } from './testing/trace-recorder.ts';

const NOW = Date.UTC(2026, 0, 15, 9, 0, 0);
const OBJECTIVE = 'Ship the secret launch plan';
const TITLES = ['Draft the confidential notes', 'Publish the hidden page'];

let recorder: TraceRecorder | undefined;
afterEach(async () => {
  await recorder?.stop();
  recorder = undefined;
});

/** A scripted run straight through core: set up, mark, one refused call, add, mark done. */
async function planningRun(options: { conversationId?: string } = {}) {
  const session = new Session({ sessionId: 'otel-session', clock: () => NOW });
  const tools = createPlanningTools(session);
  const call = { session, ...options };
  const results = [
    await invokeTool(
      tools.planning_setup_plan,
      { objective: OBJECTIVE, initial_steps: TITLES.map((title) => ({ title })) },
      call,
    ),
    await invokeTool(tools.planning_mark_step, { step_id: 'S001', status: 'in_progress' }, call),
    await invokeTool(tools.planning_mark_step, { step_id: 'S009', status: 'done' }, call),
    await invokeTool(tools.planning_mark_step, { step_id: 'S001', status: 'done' }, call),
  ];
  return { session, tools, results };
}

const only = (spans: ReadableSpan[], name: string): ReadableSpan[] =>
  spans.filter((span) => span.name === name);

const SETUP_ONE = { objective: OBJECTIVE, initial_steps: [{ title: 'One' }] };

/**
 * Records traces and runs `call` inside an active span a host opened, named `name` with
 * `attributes`, on a fresh session; returns the finished spans.
 */
async function inHostSpan(
  name: string,
  attributes: Attributes,
  call: (
    tools: ReturnType<typeof createPlanningTools>,
    options: { readonly session: Session },
  ) => Promise<unknown>,
): Promise<ReadableSpan[]> {
  recorder = recordTraces();
  const session = new Session({ sessionId: 'otel-session', clock: () => NOW });
  const tools = createPlanningTools(session);
  await trace.getTracer('host').startActiveSpan(name, { attributes }, async (span) => {
    await call(tools, { session });
    span.end();
  });
  return recorder.spans();
}

describe('instrumentPlankit: planning tool calls', () => {
  it('records each call as an execute_tool span with the GenAI attributes and each plan change', async () => {
    recorder = recordTraces();
    const { results } = await planningRun({ conversationId: 'chat-1' });
    expect(results.map((result) => result.success)).toEqual([true, true, false, true]);
    await expect(recorder.tree()).toMatchFileSnapshot('./__snapshots__/invoke-tool.tree.txt');
    const spans = recorder.spans();
    expect(spans).toHaveLength(4);
    for (const span of spans) {
      expect(span.kind).toBe(0); // INTERNAL
      expect(span.attributes[GenAIAttributes.OPERATION_NAME]).toBe('execute_tool');
      expect(span.attributes[GenAIAttributes.TOOL_TYPE]).toBe('function');
      expect(span.attributes[GenAIAttributes.CONVERSATION_ID]).toBe('chat-1');
      expect(span.name).toBe(`execute_tool ${String(span.attributes[GenAIAttributes.TOOL_NAME])}`);
    }
    const refused = spans[2];
    expect(refused?.attributes[GenAIAttributes.ERROR_TYPE]).toBe('step_unknown');
    expect(refused?.status).toEqual({ code: 2, message: 'step_unknown' });
    const done = spans[3];
    expect(done?.attributes[PlankitAttributes.STEP_ID]).toEqual(['S001']);
    expect(done?.attributes[PlankitAttributes.STEP_STATUS]).toEqual(['done']);
    expect(done?.attributes[`${PlankitAttributes.PLAN_COUNTS_PREFIX}done`]).toBe(1);
    // A call makes one change at most: its span's attributes say all of it, with no event.
    expect(done?.events).toEqual([]);
  });

  it('puts changes made outside a call on the active span, each with a plankit.plan.changed event', async () => {
    recorder = recordTraces();
    const { session } = await planningRun();
    const before = session.snapshot();
    await trace.getTracer('host').startActiveSpan('host work', async (span) => {
      session.dispatch(SetupPlan, { objective: 'Other', initial_steps: [] });
      session.rollback(before);
      span.end();
    });
    const host = only(recorder.spans(), 'host work')[0];
    // The attributes hold the plan after the last change; the events, every change.
    expect(host?.attributes[PlankitAttributes.PLAN_REVISION]).toBe(5);
    expect(host?.attributes[`${PlankitAttributes.PLAN_COUNTS_PREFIX}done`]).toBe(1);
    expect(
      host?.events.map((event) => [
        event.name,
        event.attributes?.[PlankitAttributes.PLAN_REVISION],
      ]),
    ).toEqual([
      ['plankit.plan.changed', 4],
      ['plankit.plan.changed', 5],
    ]);
    expect(host?.events[0]?.attributes?.[PlankitAttributes.STEP_CHANGE]).toEqual([
      'removed',
      'removed',
    ]);
  });

  it('records no plan text, arguments or results while content capture is off', async () => {
    recorder = recordTraces({ captureContent: false });
    await planningRun();
    const dump = recorder.dump();
    for (const text of [OBJECTIVE, ...TITLES]) expect(dump).not.toContain(text);
    expect(dump).not.toContain(GenAIAttributes.TOOL_CALL_ARGUMENTS);
    expect(dump).not.toContain(GenAIAttributes.TOOL_CALL_RESULT);
  });

  it('records arguments, results, refusal messages and the objective with content capture on', async () => {
    recorder = recordTraces({ captureContent: true });
    await planningRun();
    const [setup, , refused] = recorder.spans();
    expect(String(setup?.attributes[GenAIAttributes.TOOL_CALL_ARGUMENTS])).toContain(OBJECTIVE);
    expect(setup?.attributes[GenAIAttributes.TOOL_CALL_RESULT]).toBeTypeOf('string');
    expect(setup?.attributes[PlankitAttributes.PLAN_OBJECTIVE]).toBe(OBJECTIVE);
    expect(refused?.attributes[PlankitAttributes.TOOL_REFUSAL_MESSAGE]).toContain('S009');
  });

  it('turns content capture on from OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT', async () => {
    const name = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT';
    const saved = process.env[name];
    process.env[name] = 'true';
    try {
      recorder = recordTraces();
    } finally {
      if (saved === undefined) delete process.env[name];
      else process.env[name] = saved;
    }
    await planningRun();
    expect(recorder.dump()).toContain(OBJECTIVE);
  });

  it('clips an attribute value over the limit without splitting a surrogate pair', async () => {
    recorder = recordTraces({ maxAttributeLength: 16 });
    const conversationId = `chat-${'😀'.repeat(40)}`;
    await planningRun({ conversationId });
    const value = String(recorder.spans()[0]?.attributes[GenAIAttributes.CONVERSATION_ID]);
    expect(value.length).toBeLessThanOrEqual(16);
    expect(value.endsWith('...')).toBe(true);
    // No lone surrogate: the clip never cuts a pair in two.
    expect(value).not.toMatch(
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u,
    );
  });

  it('adds its attributes to the execute_tool span a host opened instead of opening a second', async () => {
    const spans = await inHostSpan('execute_tool planning_setup_plan', {}, (tools, call) =>
      invokeTool(tools.planning_setup_plan, SETUP_ONE, { ...call, conversationId: 'chat-2' }),
    );
    expect(spans.map((span) => span.name)).toEqual(['execute_tool planning_setup_plan']);
    expect(spans[0]?.instrumentationScope.name).toBe('host');
    expect(spans[0]?.attributes[GenAIAttributes.CONVERSATION_ID]).toBe('chat-2');
    expect(spans[0]?.attributes[PlankitAttributes.STEP_ID]).toEqual(['S001']);
  });

  it('takes a host span for this tool by its GenAI attributes, whatever its name', async () => {
    const attributes = {
      [GenAIAttributes.OPERATION_NAME]: 'execute_tool',
      [GenAIAttributes.TOOL_NAME]: 'planning_setup_plan',
    };
    const spans = await inHostSpan('planning_setup_plan', attributes, (tools, call) =>
      invokeTool(tools.planning_setup_plan, SETUP_ONE, call),
    );
    expect(spans.map((span) => span.name)).toEqual(['planning_setup_plan']);
    expect(spans[0]?.attributes[PlankitAttributes.STEP_ID]).toEqual(['S001']);
  });

  it("opens its own span inside another tool's span, and leaves that span's attributes alone", async () => {
    // An agent run as a tool: the host's `research` tool plans with plankit's tools.
    const attributes = {
      [GenAIAttributes.OPERATION_NAME]: 'execute_tool',
      [GenAIAttributes.TOOL_NAME]: 'research',
    };
    const spans = await inHostSpan('execute_tool research', attributes, (tools, call) =>
      invokeTool(tools.planning_mark_step, { step_id: 'S001', status: 'done' }, call),
    );
    const research = only(spans, 'execute_tool research')[0];
    const mark = only(spans, 'execute_tool planning_mark_step')[0];
    expect(spans).toHaveLength(2);
    expect(mark?.parentSpanContext?.spanId).toBe(research?.spanContext().spanId);
    expect(mark?.attributes[GenAIAttributes.ERROR_TYPE]).toBe('plan_missing');
    expect(research?.attributes[GenAIAttributes.ERROR_TYPE]).toBeUndefined();
    expect(Object.keys(research?.attributes ?? {}).sort()).toEqual(Object.keys(attributes).sort());
  });

  it('hangs its spans under the active span the host opened around the agent', async () => {
    recorder = recordTraces();
    const tracer = trace.getTracer('host');
    await tracer.startActiveSpan('invoke_agent planner', async (span) => {
      await planningRun();
      span.end();
    });
    const spans = recorder.spans();
    const agent = only(spans, 'invoke_agent planner')[0];
    const tools = spans.filter((span) => span.name.startsWith('execute_tool'));
    expect(tools).toHaveLength(4);
    for (const tool of tools)
      expect(tool.parentSpanContext?.spanId).toBe(agent?.spanContext().spanId);
  });

  it('keeps the spans of two sessions apart when their calls in flight share a host call id', async () => {
    recorder = recordTraces();
    const gates: (() => void)[] = [];
    const wait = defineTool({
      name: 'wait',
      description: 'Waits, then answers or refuses.',
      parameters: z.strictObject({ fail: z.boolean() }),
      handler: async ({ fail }) => {
        await new Promise<void>((resolve) => gates.push(resolve));
        if (fail) throw new Error('refused on purpose');
        return { message: 'Done.', value: null };
      },
    });
    const first = new Session({ sessionId: 'first', clock: () => NOW });
    const second = new Session({ sessionId: 'second', clock: () => NOW });
    const calls = [
      invokeTool(wait, { fail: true }, { session: first, callId: 'call_1' }),
      invokeTool(wait, { fail: false }, { session: second, callId: 'call_1' }),
    ];
    while (gates.length < 2) await new Promise((resolve) => setImmediate(resolve));
    // The second session's call ends first.
    gates[1]?.();
    gates[0]?.();
    await Promise.all(calls);
    const bySession = Object.fromEntries(
      recorder.spans().map((span) => [span.attributes['plankit.session.id'], span]),
    );
    expect(recorder.spans()).toHaveLength(2);
    expect(bySession['first']?.attributes['error.type']).toBe('tool_execution_failed');
    expect(bySession['second']?.attributes['error.type']).toBeUndefined();
  });

  it('stops: no span after the disposer ran, and the disposer may run twice', async () => {
    const exporter = new InMemorySpanExporter();
    recorder = recordTraces({}, exporter);
    await recorder.stop();
    recorder = undefined;
    // The global SDK is gone too; subscribe a fresh instrumentation to a local provider.
    const local = recordTraces();
    recorder = local;
    const stop = instrumentPlankit({ tracerProvider: local.provider });
    stop();
    stop();
    await planningRun();
    // Only the recorder's own subscription records: one span per call, not two.
    expect(local.spans()).toHaveLength(4);
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });
});

describe('instrumentPlankit: the global tracer provider', () => {
  it('records into an SDK registered after it was called, plan changes included', async () => {
    const stop = instrumentPlankit();
    try {
      recorder = recordTraces();
      await planningRun();
      // The recorder's own subscription and the earlier one each record every call, and each
      // puts the call's plan change on its span.
      const setups = only(recorder.spans(), 'execute_tool planning_setup_plan');
      expect(setups).toHaveLength(2);
      for (const span of setups) {
        expect(span.attributes[PlankitAttributes.PLAN_REVISION]).toBe(1);
        expect(span.attributes[PlankitAttributes.STEP_ID]).toEqual(['S001', 'S002']);
      }
    } finally {
      stop();
    }
  });

  it('stays off plankit:plan until an SDK registers, so core builds no plan payloads', async () => {
    const stop = instrumentPlankit();
    try {
      expect(hasSubscribers(TOOL_CALL_CHANNEL)).toBe(true);
      await planningRun();
      expect(hasSubscribers(PLAN_CHANNEL)).toBe(false);
      const provider = new BasicTracerProvider();
      trace.setGlobalTracerProvider(provider);
      // The first event after the SDK registers subscribes, before that call changes the plan.
      const exporter = new InMemorySpanExporter();
      const recorded = new BasicTracerProvider({
        spanProcessors: [new SimpleSpanProcessor(exporter)],
      });
      expect(hasSubscribers(PLAN_CHANNEL)).toBe(false);
      const local = instrumentPlankit({ tracerProvider: recorded });
      expect(hasSubscribers(PLAN_CHANNEL)).toBe(true);
      local();
      expect(hasSubscribers(PLAN_CHANNEL)).toBe(false);
      await planningRun();
      expect(hasSubscribers(PLAN_CHANNEL)).toBe(true);
      stop();
      expect(hasSubscribers(PLAN_CHANNEL)).toBe(false);
      expect(hasSubscribers(TOOL_CALL_CHANNEL)).toBe(false);
    } finally {
      stop();
      trace.disable();
    }
  });
});

describe('instrumentPlankit: failures never reach a tool call', () => {
  it('records nothing and fails nothing when no OpenTelemetry SDK is registered', async () => {
    const stop = instrumentPlankit();
    try {
      const { results } = await planningRun();
      expect(results.map((result) => result.success)).toEqual([true, true, false, true]);
      expect(trace.getSpan(context.active())).toBeUndefined();
    } finally {
      stop();
    }
  });

  it('keeps every call working when the tracer throws', async () => {
    const errors: unknown[] = [];
    const onUncaught = (error: unknown) => errors.push(error);
    process.on('uncaughtException', onUncaught);
    const stop = instrumentPlankit({
      tracerProvider: {
        getTracer: () => {
          const fail = () => {
            throw new Error('tracer down');
          };
          return { startSpan: fail, startActiveSpan: fail };
        },
      },
    });
    try {
      const { results } = await planningRun();
      expect(results.map((result) => result.success)).toEqual([true, true, false, true]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(errors).toEqual([]);
    } finally {
      stop();
      process.off('uncaughtException', onUncaught);
    }
  });

  it('keeps every call working when the exporter throws', async () => {
    recorder = recordTraces(
      {},
      {
        export: () => {
          throw new Error('collector down');
        },
        shutdown: async () => {},
      },
    );
    const { results } = await planningRun();
    expect(results.map((result) => result.success)).toEqual([true, true, false, true]);
    expect(recorder.spans()).toHaveLength(4);
  });

  it('refuses an unknown option or a wrong type by name', () => {
    const bad = [
      [{ tracer: {} }, 'instrumentPlankit: options.tracer is not an option.'],
      [{ captureContent: 'yes' }, 'instrumentPlankit: options.captureContent must be a boolean.'],
      [{ agentName: '' }, 'instrumentPlankit: options.agentName must be a non-empty string.'],
      [
        { maxAttributeLength: 3 },
        'instrumentPlankit: options.maxAttributeLength must be a whole number >= 16.',
      ],
    ] as const;
    for (const [options, message] of bad) {
      let thrown: unknown;
      try {
        instrumentPlankit(options as never);
      } catch (error) {
        thrown = error;
      }
      expect(PlankitError.isInstance(thrown)).toBe(true);
      expect((thrown as Error).message).toBe(message);
    }
  });
});
