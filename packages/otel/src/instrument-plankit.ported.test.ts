import { channel } from 'node:diagnostics_channel';
import {
  type Attributes,
  type Context,
  context,
  type DiagLogger,
  DiagLogLevel,
  diag,
  TraceFlags,
  trace,
} from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type Sampler,
  SamplingDecision,
  SimpleSpanProcessor,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { createPlanningTools, defineTool, invokeTool, Session, SetupPlan } from '@plankit/core';
import {
  type MachineTransitioned,
  POOL_CHANNEL,
  TOOL_CALL_CHANNEL,
  type ToolCallEnded,
  type ToolCallStarted,
  TRANSITION_CHANNEL,
} from '@plankit/core/diagnostics';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { instrumentPlankit } from './instrument-plankit.ts';
import { GenAIAttributes, PlankitAttributes } from './semantic-conventions.ts';
import { recordTraces, type TraceRecorder } from './testing/trace-recorder.ts';

// Cases ported from the peers' own telemetry tests (vercel/ai, openai/openai-agents-js; the
// langchainjs repository holds no OpenTelemetry test). Each keeps the behaviour its origin
// pins, restated for plankit's channels: the peers' APIs (integrations, processors) differ.

const NOW = Date.UTC(2026, 0, 15, 9, 0, 0);
const OBJECTIVE = 'Ship the secret launch plan';
const SETUP_ONE = { objective: OBJECTIVE, initial_steps: [{ title: 'One' }] };

/** A `tool-call-start` as core publishes it, for tests that drive the channel by hand. */
const callStart = (
  callId: string,
  toolName = 'planning_mark_step',
  sessionId = 'ported-session',
): ToolCallStarted => ({
  type: 'tool-call-start',
  phase: 'start',
  callId,
  toolName,
  sessionId,
  at: NOW,
  arguments: {},
});

/** Its `tool-call-end`: a success, or a refusal with `code`. */
const callEnd = (
  callId: string,
  sessionId = 'ported-session',
  code: string | null = null,
): ToolCallEnded => ({
  type: 'tool-call-end',
  phase: 'end',
  callId,
  toolName: 'planning_mark_step',
  sessionId,
  at: NOW,
  ok: code === null,
  code,
  field: code === null ? null : 'step_id',
  message: code === null ? 'Done.' : 'refused',
  value: null,
});

/** The context of a parent span from another process, as a propagator reads it off a request. */
const underRemoteParent = (traceId: string, spanId: string, traceFlags: TraceFlags): Context =>
  trace.setSpanContext(context.active(), { traceId, spanId, traceFlags, isRemote: true });

let recorder: TraceRecorder | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  await recorder?.stop();
  recorder = undefined;
});

function planning(sessionId = 'ported-session') {
  const session = new Session({ sessionId, clock: () => NOW });
  return { session, tools: createPlanningTools(session) };
}

/** A tool whose handler waits for the test to let it go, then answers or throws. */
function gatedTool() {
  const gates: (() => void)[] = [];
  const tool = defineTool({
    name: 'wait',
    description: 'Waits, then answers or throws.',
    parameters: z.strictObject({ fail: z.boolean() }),
    handler: async ({ fail }) => {
      await new Promise<void>((resolve) => gates.push(resolve));
      if (fail) throw new Error('the handler failed on purpose');
      return { message: 'Done.', value: { answer: 42 } };
    },
  });
  const opened = async (count: number) => {
    while (gates.length < count) await new Promise((resolve) => setImmediate(resolve));
  };
  return { tool, gates, opened };
}

/** What OpenTelemetry's `diag` logger receives during a test. */
function captureDiag(): string[] {
  const lines: string[] = [];
  const log =
    (level: string) =>
    (message: string, ...args: unknown[]) =>
      lines.push(`${level} ${message} ${args.map(String).join(' ')}`);
  const logger: DiagLogger = {
    error: log('error'),
    warn: log('warn'),
    info: log('info'),
    debug: log('debug'),
    verbose: log('verbose'),
  };
  diag.setLogger(logger, { logLevel: DiagLogLevel.ALL, suppressOverrideMessage: true });
  cleanups.push(() => diag.disable());
  return lines;
}

describe('instrumentPlankit: cases ported from vercel/ai', () => {
  // vercel/ai packages/otel/src/open-telemetry.test.ts
  // 'onToolExecutionStart / onToolExecutionEnd' > 'creates an execute_tool span with correct attributes'
  it('vercel/ai telemetry: creates an execute_tool span with correct attributes -> the GenAI ids are on the span at its start, where a sampler reads them', async () => {
    const seen: { name: string; attributes: Attributes }[] = [];
    const sampler: Sampler = {
      shouldSample: (_context, _traceId, name, _kind, attributes) => {
        seen.push({ name, attributes: { ...attributes } });
        return { decision: SamplingDecision.RECORD_AND_SAMPLED };
      },
      toString: () => 'RecordingSampler',
    };
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      sampler,
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const stop = instrumentPlankit({ tracerProvider: provider });
    cleanups.push(stop);
    const { session, tools } = planning();
    await invokeTool(tools.planning_setup_plan, SETUP_ONE, {
      session,
      callId: 'tool-call-1',
      conversationId: 'chat-1',
    });
    expect(seen).toEqual([
      {
        name: 'execute_tool planning_setup_plan',
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'planning_setup_plan',
          'gen_ai.tool.call.id': 'tool-call-1',
          'gen_ai.tool.type': 'function',
          'gen_ai.conversation.id': 'chat-1',
          'plankit.session.id': 'ported-session',
        },
      },
    ]);
    expect(exporter.getFinishedSpans().map((span) => span.kind)).toEqual([0]); // INTERNAL
  });

  // vercel/ai packages/otel/src/open-telemetry.test.ts
  // 'onToolExecutionStart / onToolExecutionEnd' > 'sets gen_ai.tool.call.result on success'
  it('vercel/ai telemetry: sets gen_ai.tool.call.result on success -> the value as JSON, with the arguments, on the ended span', async () => {
    recorder = recordTraces({ captureContent: true });
    const { tool, gates, opened } = gatedTool();
    const session = new Session({ sessionId: 'ported-session', clock: () => NOW });
    const call = invokeTool(tool, { fail: false }, { session, callId: 'tool-call-1' });
    await opened(1);
    // Still running: nothing finished yet.
    expect(recorder.spans()).toEqual([]);
    gates[0]?.();
    expect((await call).success).toBe(true);
    const [span] = recorder.spans();
    expect(span?.name).toBe('execute_tool wait');
    expect(span?.attributes[GenAIAttributes.TOOL_CALL_ARGUMENTS]).toBe('{"fail":false}');
    expect(span?.attributes[GenAIAttributes.TOOL_CALL_RESULT]).toBe('{"answer":42}');
    expect(span?.status.code).toBe(0); // UNSET
  });

  // vercel/ai packages/otel/src/open-telemetry.test.ts
  // 'onToolExecutionStart / onToolExecutionEnd' > 'records error on tool failure'
  it('vercel/ai telemetry: records error on tool failure -> a handler that throws ends its span with an ERROR status and error.type', async () => {
    for (const captureContent of [false, true]) {
      recorder = recordTraces({ captureContent });
      const { tool, gates, opened } = gatedTool();
      const session = new Session({ sessionId: 'ported-session', clock: () => NOW });
      const call = invokeTool(tool, { fail: true }, { session, callId: 'tool-call-1' });
      await opened(1);
      gates[0]?.();
      const result = await call;
      expect(result.success).toBe(false);
      const [span] = recorder.spans();
      expect(recorder.spans()).toHaveLength(1);
      expect(span?.attributes[GenAIAttributes.ERROR_TYPE]).toBe('tool_execution_failed');
      expect(span?.status.code).toBe(2); // ERROR
      // The refusal's words are content: the status says the code unless capture is on.
      expect(span?.status.message).toBe(captureContent ? result.message : 'tool_execution_failed');
      await recorder.stop();
      recorder = undefined;
    }
  });

  // vercel/ai packages/otel/src/open-telemetry.test.ts
  // 'full lifecycle' > 'does not use ai.* attribute prefix anywhere'
  it("vercel/ai telemetry: does not use ai.* attribute prefix anywhere -> every key is gen_ai.*, error.type or one of plankit's documented names", async () => {
    recorder = recordTraces({ captureContent: true, agentName: 'release-planner' });
    const documented = new Set<string>(Object.values(GenAIAttributes));
    const prefixes: string[] = [];
    for (const name of Object.values(PlankitAttributes)) {
      if (name.endsWith('.')) prefixes.push(name);
      else documented.add(name);
    }
    const { session, tools } = planning();
    // A capped, confident move: every budget figure and the confidence become attributes.
    const transition = (overrides: Partial<MachineTransitioned>): void =>
      transitionWith({
        from: 'DRAFT_OUTLINE',
        to: 'VALIDATE_OUTLINE',
        event: 'success',
        confidence: 0.9,
        budget: {
          run: 1,
          turns: 1,
          totalTurns: 1,
          costUsd: 0.01,
          tokens: 100,
          elapsedMs: 1_000,
          maxTurns: 10,
          maxCostUsd: 2,
          maxTokens: 10_000,
          maxWallTimeMs: 60_000,
        },
        ...overrides,
      });
    await trace.getTracer('host').startActiveSpan('invoke_agent release-planner', async (span) => {
      transition({});
      await invokeTool(
        tools.planning_setup_plan,
        { objective: OBJECTIVE, initial_steps: [{ title: 'One' }, { title: 'Two' }] },
        { session, conversationId: 'chat-1' },
      );
      await invokeTool(tools.planning_mark_step, { step_id: 'S009', status: 'done' }, { session });
      session.dispatch(SetupPlan, { objective: 'Other', initial_steps: [] });
      channel(POOL_CHANNEL).publish({
        type: 'pool-full',
        conversationId: 'chat-1',
        live: 4,
        waiting: 1,
      });
      transition({ kind: 'cap', event: 'max_turns', status: 'frozen', cap: 'max_turns' });
      span.end();
    });
    const keys = new Set<string>();
    // The host's span holds only what plankit wrote on it (the change outside a call).
    for (const span of recorder.spans()) {
      for (const key of Object.keys(span.attributes)) keys.add(key);
      for (const event of span.events)
        for (const key of Object.keys(event.attributes ?? {})) keys.add(key);
    }
    // Every kind of span and event wrote something.
    expect(keys.size).toBeGreaterThan(30);
    for (const key of keys) {
      expect(key).not.toMatch(/^ai\./);
      const known = documented.has(key) || prefixes.some((prefix) => key.startsWith(prefix));
      expect(known ? key : `undocumented: ${key}`).toBe(key);
    }
  });

  // vercel/ai packages/otel/src/legacy-open-telemetry.test.ts
  // 'telemetry disabled / recordInputs / recordOutputs' > 'records non-input/output attributes even when recordInputs is false'
  it('vercel/ai telemetry: records non-input/output attributes even when recordInputs is false -> ids, codes, statuses and counts without content capture', async () => {
    recorder = recordTraces({ captureContent: false });
    const { session, tools } = planning();
    const call = { session, conversationId: 'chat-1' };
    await invokeTool(
      tools.planning_setup_plan,
      { objective: OBJECTIVE, initial_steps: [{ title: 'One' }, { title: 'Two' }] },
      { ...call, callId: 'call-setup' },
    );
    await invokeTool(
      tools.planning_mark_step,
      { step_id: 'S009', status: 'done' },
      { ...call, callId: 'call-refused' },
    );
    const [setup, refused] = recorder.spans();
    expect(setup?.attributes).toMatchObject({
      'gen_ai.tool.call.id': 'call-setup',
      'gen_ai.conversation.id': 'chat-1',
      'plankit.plan.revision': 1,
      'plankit.plan.status': 'active',
      'plankit.step.id': ['S001', 'S002'],
      'plankit.step.change': ['added', 'added'],
      'plankit.plan.counts.total': 2,
      'plankit.plan.counts.pending': 2,
    });
    expect(refused?.attributes['error.type']).toBe('step_unknown');
    expect(refused?.status).toEqual({ code: 2, message: 'step_unknown' });
    expect(recorder.dump()).not.toContain(OBJECTIVE);
    expect(recorder.dump()).not.toContain('S009');
  });

  // vercel/ai packages/otel/src/legacy-open-telemetry.test.ts
  // 'onToolExecutionEnd' > 'does nothing for unknown tool call id'
  it('vercel/ai telemetry: does nothing for unknown tool call id -> an end for another call leaves the open span open, and its own end closes it', () => {
    recorder = recordTraces();
    const calls = channel(TOOL_CALL_CHANNEL);
    const ended = (callId: string, sessionId = 'ported-session'): ToolCallEnded =>
      callEnd(callId, sessionId, 'step_unknown');
    calls.publish(callStart('tool-call-1'));
    calls.publish(ended('unknown-tool'));
    // The same call id in another session is another call.
    calls.publish(ended('tool-call-1', 'other-session'));
    expect(recorder.spans()).toEqual([]);
    calls.publish(ended('tool-call-1'));
    expect(recorder.spans().map((span) => span.attributes['gen_ai.tool.call.id'])).toEqual([
      'tool-call-1',
    ]);
  });

  // vercel/ai packages/otel/src/legacy-open-telemetry.test.ts
  // 'onToolExecutionEnd' > 'removes tool span from state after finishing'
  it('vercel/ai telemetry: removes tool span from state after finishing -> a repeated end ends the span once', () => {
    recorder = recordTraces();
    const diagnostics = captureDiag();
    const calls = channel(TOOL_CALL_CHANNEL);
    calls.publish(callStart('tool-call-1'));
    const end = callEnd('tool-call-1');
    calls.publish(end);
    calls.publish(end);
    expect(recorder.spans()).toHaveLength(1);
    // The SDK reports a second end() of one span on diag; there is none.
    expect(diagnostics.filter((line) => line.includes('end()'))).toEqual([]);
  });

  // vercel/ai packages/otel/src/legacy-open-telemetry.test.ts
  // 'onToolExecutionStart' > 'creates multiple tool spans for concurrent tool calls'
  it('vercel/ai telemetry: creates multiple tool spans for concurrent tool calls -> one span per call of one session, each with its own outcome', async () => {
    recorder = recordTraces();
    const { tool, gates, opened } = gatedTool();
    const session = new Session({ sessionId: 'ported-session', clock: () => NOW });
    const first = invokeTool(tool, { fail: true }, { session, callId: 'tool-1' });
    const second = invokeTool(tool, { fail: false }, { session, callId: 'tool-2' });
    await opened(2);
    // The second call ends first.
    gates[1]?.();
    gates[0]?.();
    await Promise.all([first, second]);
    const byId = Object.fromEntries(
      recorder.spans().map((span) => [span.attributes['gen_ai.tool.call.id'], span]),
    );
    expect(recorder.spans()).toHaveLength(2);
    expect(byId['tool-1']?.attributes['error.type']).toBe('tool_execution_failed');
    expect(byId['tool-2']?.attributes['error.type']).toBeUndefined();
    expect(byId['tool-2']?.status.code).toBe(0);
    // Siblings, not one inside the other.
    expect(byId['tool-1']?.parentSpanContext).toBeUndefined();
    expect(byId['tool-2']?.parentSpanContext).toBeUndefined();
  });

  // vercel/ai packages/ai/src/telemetry/create-telemetry-dispatcher.test.ts
  // 'swallows sync errors thrown by integrations'
  it('vercel/ai telemetry: swallows sync errors thrown by integrations -> a span processor that throws reaches neither a call nor the disposer', async () => {
    const diagnostics = captureDiag();
    const exporter = new InMemorySpanExporter();
    const throwing: SpanProcessor = {
      onStart: () => {},
      onEnd: (span) => {
        if (span.name.includes('mark_step')) throw new Error('processor down');
      },
      forceFlush: async () => {},
      shutdown: async () => {},
    };
    const provider = new BasicTracerProvider({
      spanProcessors: [throwing, new SimpleSpanProcessor(exporter)],
    });
    const stop = instrumentPlankit({ tracerProvider: provider });
    cleanups.push(stop);
    const { session, tools } = planning();
    const mark = await invokeTool(
      tools.planning_mark_step,
      { step_id: 'S001', status: 'done' },
      { session },
    );
    expect(mark.success).toBe(false);
    expect(diagnostics.some((line) => line.includes('processor down'))).toBe(true);
    // Two calls still open when the instrumentation stops: the first span's processor
    // throws; the disposer does not, and still ends the other.
    const calls = channel(TOOL_CALL_CHANNEL);
    for (const [callId, toolName] of [
      ['open-1', 'planning_mark_step'],
      ['open-2', 'planning_setup_plan'],
    ] as const)
      calls.publish(callStart(callId, toolName));
    expect(() => stop()).not.toThrow();
    expect(
      exporter.getFinishedSpans().map((span) => span.attributes['gen_ai.tool.call.id']),
    ).toContain('open-2');
  });
});

describe('instrumentPlankit: cases ported from openai/openai-agents-js', () => {
  // openai/openai-agents-js packages/agents-core/test/tracing.test.ts
  // 'TraceProvider span creation without parents' > 'returns NoopSpan when parent trace/span is noop'
  it('openai-agents tracing: returns NoopSpan when parent trace/span is noop -> under an unsampled parent nothing records and the call still works', async () => {
    recorder = recordTraces();
    const { session, tools } = planning();
    const unsampled = underRemoteParent(
      '0af7651916cd43dd8448eb211c80319c',
      'b7ad6b7169203331',
      TraceFlags.NONE,
    );
    const results = await context.with(unsampled, async () => [
      await invokeTool(tools.planning_setup_plan, SETUP_ONE, { session, callId: 'call-1' }),
      await invokeTool(tools.planning_mark_step, { step_id: 'S009', status: 'done' }, { session }),
    ]);
    expect(results.map((result) => result.success)).toEqual([true, false]);
    expect(recorder.spans()).toEqual([]);
    // Nothing was held: the same call id, sampled this time, gets a span of its own.
    await invokeTool(
      tools.planning_mark_step,
      { step_id: 'S001', status: 'done' },
      {
        session,
        callId: 'call-1',
      },
    );
    expect(recorder.spans().map((span) => span.attributes['plankit.step.id'])).toEqual([['S001']]);
  });

  // openai/openai-agents-js packages/agents-core/test/tracing.test.ts
  // 'Span creation inherits tracing fields from parents' > 'inherits from parent span'
  it("openai-agents tracing: inherits from parent span -> a call under a remote sampled parent joins that parent's trace", async () => {
    recorder = recordTraces();
    const { session, tools } = planning();
    const [traceId, spanId] = ['4bf92f3577b34da6a3ce929d0e0e4736', '00f067aa0ba902b7'];
    await context.with(underRemoteParent(traceId, spanId, TraceFlags.SAMPLED), () =>
      invokeTool(tools.planning_setup_plan, SETUP_ONE, { session }),
    );
    const [span] = recorder.spans();
    expect(span?.name).toBe('execute_tool planning_setup_plan');
    expect(span?.spanContext().traceId).toBe(traceId);
    expect(span?.parentSpanContext?.spanId).toBe(spanId);
    // The remote parent is not a span plankit can write on: the change stays on the call's span.
    expect(span?.attributes['plankit.step.id']).toEqual(['S001']);
  });

  // openai/openai-agents-js packages/agents-core/test/createSpans.test.ts
  // 'with*Span helpers' > 'records errors and restores the previous span when the callback throws'
  it("openai-agents tracing: records errors and restores the previous span when the callback throws -> after a refused call the host's span is active again", async () => {
    recorder = recordTraces();
    const { session, tools } = planning();
    const tracer = trace.getTracer('host');
    await tracer.startActiveSpan('invoke_agent host', async (outer) => {
      const refused = await invokeTool(
        tools.planning_mark_step,
        { step_id: 'S001', status: 'done' },
        { session, callId: 'call-refused' },
      );
      expect(refused.success).toBe(false);
      expect(trace.getActiveSpan()).toBe(outer);
      // A change made now is the host's, not the refused call's.
      session.dispatch(SetupPlan, {
        objective: OBJECTIVE,
        initial_steps: [{ title: 'One', details: null }],
      });
      outer.end();
    });
    const refused = recorder
      .spans()
      .find((span) => span.name === 'execute_tool planning_mark_step');
    const outer = recorder.spans().find((span) => span.name === 'invoke_agent host');
    expect(refused?.attributes['error.type']).toBe('plan_missing');
    expect(refused?.attributes['plankit.plan.revision']).toBeUndefined();
    expect(outer?.attributes['plankit.plan.revision']).toBe(1);
    expect(outer?.events.map((event) => event.name)).toEqual(['plankit.plan.changed']);
    expect(outer?.status.code).toBe(0);
  });

  // openai/openai-agents-js packages/agents-core/test/tracing.test.ts
  // 'BatchTraceProcessor' > 'continues scheduled exports after an exporter exception'
  it('openai-agents tracing: continues scheduled exports after an exporter exception -> a span that failed to export costs that span, not the ones after it', async () => {
    // The SDK's own processors catch an exporter's errors; a synchronous processor (an
    // exporter called in place) throws into plankit's end of the call instead.
    const diagnostics = captureDiag();
    const exporter = new InMemorySpanExporter();
    const simple = new SimpleSpanProcessor(exporter);
    let ends = 0;
    const flaky: SpanProcessor = {
      onStart: (span, parent) => simple.onStart(span, parent),
      onEnd: (span) => {
        ends += 1;
        if (ends === 1) throw new Error('simulated exporter failure');
        simple.onEnd(span);
      },
      forceFlush: () => simple.forceFlush(),
      shutdown: () => simple.shutdown(),
    };
    const stop = instrumentPlankit({
      tracerProvider: new BasicTracerProvider({ spanProcessors: [flaky] }),
    });
    cleanups.push(stop);
    const { session, tools } = planning();
    await invokeTool(tools.planning_setup_plan, SETUP_ONE, { session, callId: 'failed' });
    await invokeTool(
      tools.planning_mark_step,
      { step_id: 'S001', status: 'done' },
      {
        session,
        callId: 'recovered',
      },
    );
    expect(diagnostics.some((line) => line.includes('simulated exporter failure'))).toBe(true);
    expect(
      exporter.getFinishedSpans().map((span) => span.attributes['gen_ai.tool.call.id']),
    ).toEqual(['recovered']);
  });

  // openai/openai-agents-js packages/agents-core/test/taskTurnTracing.test.ts
  // 'runner task and turn tracing' > 'ends task and turn spans exactly once when a streamed run is cancelled'
  it('openai-agents tracing: ends task and turn spans exactly once when a streamed run is cancelled -> stopping mid-call ends the span once, and the late end does nothing', async () => {
    // The recorder sets up context; a second instrumentation, stopped mid-call, is the one read.
    recorder = recordTraces();
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const stop = instrumentPlankit({ tracerProvider: provider });
    cleanups.push(stop);
    const diagnostics = captureDiag();
    const { tool, gates, opened } = gatedTool();
    const session = new Session({ sessionId: 'ported-session', clock: () => NOW });
    await trace.getTracer('host').startActiveSpan('invoke_agent host', async (outer) => {
      transitionOnce();
      const call = invokeTool(tool, { fail: false }, { session, callId: 'in-flight' });
      await opened(1);
      stop();
      expect(exporter.getFinishedSpans()).toHaveLength(2);
      gates[0]?.();
      expect((await call).success).toBe(true);
      outer.end();
    });
    const names = exporter.getFinishedSpans().map((span) => span.name);
    expect(names.filter((name) => name === 'execute_tool wait')).toHaveLength(1);
    expect(names.filter((name) => name === 'plan planning-controller')).toHaveLength(1);
    expect(diagnostics.filter((line) => line.includes('end()'))).toEqual([]);
  });

  // openai/openai-agents-js packages/agents-core/test/taskTurnTracing.test.ts
  // 'runner task and turn tracing' > 'keeps parallel model generation spans under their own turns in browser runtimes'
  it('openai-agents tracing: keeps parallel model generation spans under their own turns -> each call hangs under the plan span of its own run', async () => {
    recorder = recordTraces();
    const tracer = trace.getTracer('host');
    const run = (agent: 'a' | 'b', opened: Promise<void>, bothOpen: () => void) =>
      tracer.startActiveSpan(`invoke_agent ${agent}`, async (span) => {
        transitionOnce(`machine-${agent}`);
        bothOpen();
        // Both runs' plan spans are open before either calls a tool.
        await opened;
        const { session, tools } = planning(`session-${agent}`);
        await invokeTool(tools.planning_setup_plan, SETUP_ONE, {
          session,
          callId: `call-${agent}`,
        });
        transitionOnce(`machine-${agent}`, 'done');
        span.end();
      });
    let count = 0;
    let release: () => void = () => {};
    const opened = new Promise<void>((resolve) => {
      release = resolve;
    });
    const bothOpen = () => {
      count += 1;
      if (count === 2) release();
    };
    await Promise.all([run('a', opened, bothOpen), run('b', opened, bothOpen)]);
    const spans = recorder.spans();
    for (const agent of ['a', 'b']) {
      const plan = spans.find((span) => span.attributes['plankit.machine'] === `machine-${agent}`);
      const call = spans.find((span) => span.attributes['gen_ai.tool.call.id'] === `call-${agent}`);
      expect(plan).toBeDefined();
      expect(call?.parentSpanContext?.spanId).toBe(plan?.spanContext().spanId);
    }
  });
});

/**
 * One transition as the controller publishes it: `planning-controller` leaving
 * COLLECT_CONTEXT, uncapped, with `overrides`. A running one opens its run's plan span, a done
 * one ends it.
 */
function transitionWith(overrides: Partial<MachineTransitioned>): void {
  channel(TRANSITION_CHANNEL).publish({
    type: 'transition',
    machine: 'planning-controller',
    startedAt: NOW,
    from: 'COLLECT_CONTEXT',
    to: 'DRAFT_OUTLINE',
    kind: 'outcome',
    event: 'sufficient_context',
    confidence: null,
    status: 'running',
    cap: null,
    at: NOW,
    budget: {
      run: 1,
      turns: 1,
      totalTurns: 1,
      costUsd: 0,
      tokens: 0,
      elapsedMs: 0,
      maxTurns: null,
      maxCostUsd: null,
      maxTokens: null,
      maxWallTimeMs: null,
    },
    ...overrides,
  } satisfies MachineTransitioned);
}

/** One transition of `machine` with `status`. */
function transitionOnce(
  machine = 'planning-controller',
  status: MachineTransitioned['status'] = 'running',
): void {
  transitionWith({ machine, status });
}
