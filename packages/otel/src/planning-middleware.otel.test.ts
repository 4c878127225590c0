import { AIMessage, HumanMessage, type ToolCall } from '@langchain/core/messages';
import { RunCollectorCallbackHandler } from '@langchain/core/tracers/run_collector';
import { MemorySaver } from '@langchain/langgraph';
import { trace } from '@opentelemetry/api';
import { planningMiddleware } from '@plankit/adapters/langgraph';
import { createAgent } from 'langchain';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedChatModel } from '../../adapters/src/testing/scripted-chat-model.ts';
import { recordTraces, type TraceRecorder } from './testing/trace-recorder.ts';

let recorder: TraceRecorder | undefined;
afterEach(async () => {
  await recorder?.stop();
  recorder = undefined;
});

type IdentifiedCall = ToolCall & { id: string };
const call = (id: string, name: string, args: Record<string, unknown>): IdentifiedCall => ({
  id,
  name,
  args,
  type: 'tool_call',
});
/** What this test reads of a LangChain run. */
interface TracedRun {
  readonly name: string;
  readonly run_type: string;
  readonly child_runs?: readonly TracedRun[] | undefined;
}

const turn = (...calls: IdentifiedCall[]) => new AIMessage({ content: '', tool_calls: calls });

describe('@plankit/otel with planningMiddleware (LangChain createAgent)', () => {
  it('records each planning call of the agent under the span the host opened', async () => {
    recorder = recordTraces();
    const model = new ScriptedChatModel([
      turn(
        call('lc-1', 'planning_setup_plan', {
          objective: 'Ship',
          initial_steps: [{ title: 'Build' }, { title: 'Test' }],
        }),
      ),
      turn(
        call('lc-2', 'planning_mark_step', { step_id: 'S001', status: 'done' }),
        call('lc-3', 'planning_mark_step', { step_id: 'S009', status: 'done' }),
      ),
      new AIMessage('Planned.'),
    ]);
    const agent = createAgent({
      model,
      systemPrompt: 'You are a planner.',
      middleware: [planningMiddleware({ section: '## Planning\n\nKeep a plan.' })],
      checkpointer: new MemorySaver(),
    });
    await trace.getTracer('host').startActiveSpan('invoke_agent planner', async (span) => {
      await agent.invoke(
        { messages: [new HumanMessage('Plan the release.')] },
        { configurable: { thread_id: 'otel' } },
      );
      span.end();
    });
    const tools = recorder.spans().filter((span) => span.name.startsWith('execute_tool'));
    expect(tools.map((span) => span.attributes['gen_ai.tool.name'])).toEqual([
      'planning_setup_plan',
      'planning_mark_step',
      'planning_mark_step',
    ]);
    expect(tools.map((span) => span.attributes['error.type'] ?? null)).toEqual([
      null,
      null,
      'step_unknown',
    ]);
    await expect(recorder.tree()).toMatchFileSnapshot(
      './__snapshots__/planning-middleware.tree.txt',
    );
  });

  it("opens the one OpenTelemetry tool span per call with LangChain's tracing on: its tool runs go to its callbacks", async () => {
    recorder = recordTraces();
    const model = new ScriptedChatModel([
      turn(call('lc-a', 'planning_setup_plan', { objective: 'Ship', initial_steps: [] })),
      turn(call('lc-b', 'planning_read_plan', {})),
      new AIMessage('Planned.'),
    ]);
    const agent = createAgent({
      model,
      systemPrompt: 'You are a planner.',
      middleware: [planningMiddleware({ section: '## Planning\n\nKeep a plan.' })],
      checkpointer: new MemorySaver(),
    });
    // A LangChain tracer, as LangSmith's is: it receives every run through the callbacks.
    const collector = new RunCollectorCallbackHandler();
    await trace.getTracer('host').startActiveSpan('invoke_agent planner', async (span) => {
      await agent.invoke(
        { messages: [new HumanMessage('Plan the release.')] },
        { configurable: { thread_id: 'callbacks' }, callbacks: [collector] },
      );
      span.end();
    });
    const runs: TracedRun[] = [];
    const walk = (run: TracedRun): void => {
      runs.push(run);
      for (const child of run.child_runs ?? []) walk(child);
    };
    for (const run of collector.tracedRuns) walk(run);
    // LangChain traced each call as a tool run of its own, handed to callbacks, not to OTel.
    expect(runs.filter((run) => run.run_type === 'tool').map((run) => run.name)).toEqual([
      'planning_setup_plan',
      'planning_read_plan',
    ]);
    const spans = recorder.spans();
    const tools = spans.filter(
      (span) => span.attributes['gen_ai.operation.name'] === 'execute_tool',
    );
    expect(tools.map((span) => [span.name, span.attributes['gen_ai.tool.call.id']])).toEqual([
      ['execute_tool planning_setup_plan', 'lc-a'],
      ['execute_tool planning_read_plan', 'lc-b'],
    ]);
    expect(new Set(spans.map((span) => span.instrumentationScope.name))).toEqual(
      new Set(['@plankit/otel', 'host']),
    );
  });
});
