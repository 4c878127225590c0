import {
  Agent,
  Runner,
  setTraceProcessors,
  setTracingDisabled,
  type TracingProcessor,
} from '@openai/agents';
import { trace } from '@opentelemetry/api';
import { toOpenAIAgentsTools } from '@plankit/adapters/openai-agents';
import { createPlanningTools, Session } from '@plankit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../adapters/src/openai-agents/testing/scripted-model.ts';
import { recordTraces, type TraceRecorder } from './testing/trace-recorder.ts';

let recorder: TraceRecorder | undefined;
afterEach(async () => {
  await recorder?.stop();
  recorder = undefined;
  setTraceProcessors([]);
  setTracingDisabled(true);
});

type AgentsSpan = Parameters<TracingProcessor['onSpanEnd']>[0];

/** The Agents SDK's own tracing: a processor that keeps the spans it is handed. */
function agentsSpans(): AgentsSpan[] {
  const ended: AgentsSpan[] = [];
  const processor: TracingProcessor = {
    onTraceStart: async () => {},
    onTraceEnd: async () => {},
    onSpanStart: async () => {},
    onSpanEnd: async (span) => {
      ended.push(span);
    },
    shutdown: async () => {},
    forceFlush: async () => {},
  };
  setTraceProcessors([processor]);
  setTracingDisabled(false);
  return ended;
}

describe('@plankit/otel with the OpenAI Agents SDK and its tracing on', () => {
  it("opens the one OpenTelemetry tool span per call: the SDK's function span is in its own trace", async () => {
    recorder = recordTraces();
    const ended = agentsSpans();
    const session = new Session({ sessionId: 'agents', clock: () => 1 });
    const model = new ScriptedModel([
      [
        {
          name: 'planning_setup_plan',
          args: { objective: 'Ship v2', initial_steps: [{ title: 'Draft' }] },
          callId: 'call_a',
        },
      ],
      [{ name: 'planning_mark_step', args: { step_id: 'S9', status: 'done' }, callId: 'call_b' }],
      'Planned.',
    ]);
    const agent = new Agent({
      name: 'planner',
      model,
      tools: toOpenAIAgentsTools(createPlanningTools(session), { session }),
    });
    await trace.getTracer('host').startActiveSpan('invoke_agent planner', async (span) => {
      const result = await new Runner().run(agent, 'Plan v2.');
      expect(result.finalOutput).toBe('Planned.');
      span.end();
    });

    // The SDK traced each call as a function span of its own tracing (TracingProcessor), which
    // OpenTelemetry never sees.
    const functions = ended.filter((span) => span.spanData.type === 'function');
    expect(functions.map((span) => (span.spanData as { name?: string }).name)).toEqual([
      'planning_setup_plan',
      'planning_mark_step',
    ]);
    // In OpenTelemetry: exactly one execute_tool span per call, plankit's, by the host's id.
    const spans = recorder.spans();
    const tools = spans.filter(
      (span) => span.attributes['gen_ai.operation.name'] === 'execute_tool',
    );
    expect(tools.map((span) => [span.name, span.attributes['gen_ai.tool.call.id']])).toEqual([
      ['execute_tool planning_setup_plan', 'call_a'],
      ['execute_tool planning_mark_step', 'call_b'],
    ]);
    for (const span of tools) expect(span.instrumentationScope.name).toBe('@plankit/otel');
    expect(tools[1]?.attributes['error.type']).toBe('step_unknown');
    expect(spans.map((span) => span.instrumentationScope.name).sort()).toEqual([
      '@plankit/otel',
      '@plankit/otel',
      'host',
    ]);
  });
});
