import { OpenTelemetry } from '@ai-sdk/otel';
import { trace } from '@opentelemetry/api';
import { toAISDKTools } from '@plankit/adapters/ai-sdk';
import { createPlanningTools, Session } from '@plankit/core';
import { generateText, stepCountIs, type Telemetry, type ToolSet } from 'ai-v7';
import { MockLanguageModelV4 } from 'ai-v7/test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stepResult, toolCall } from '../../adapters/src/ai-sdk/testing/chat-script.ts';
import { recordTraces, type TraceRecorder } from './testing/trace-recorder.ts';

// The adapter imports `ai`; here it gets ai@7, as in an app that installed only ai@7.
vi.mock('ai', () => import('ai-v7'));

let recorder: TraceRecorder | undefined;
afterEach(async () => {
  await recorder?.stop();
  recorder = undefined;
});

describe('@plankit/otel with AI SDK 7 telemetry on', () => {
  it('adds plankit attributes to the execute_tool span AI SDK opens: one tool span per call', async () => {
    recorder = recordTraces();
    const session = new Session({ sessionId: 'ai-sdk-7', clock: () => 1 });
    const steps = [
      [
        toolCall('c1', 'planning_setup_plan', {
          objective: 'Ship v2',
          initial_steps: [{ title: 'Draft' }, { title: 'Review' }],
        }),
        toolCall('c2', 'planning_mark_step', { step_id: 'S9', status: 'done' }),
      ],
      [toolCall('c3', 'planning_mark_step', { step_id: 'S001', status: 'done' })],
    ];
    const model = new MockLanguageModelV4({
      doGenerate: async () => stepResult(steps.shift(), 'All done.'),
    });
    const result = await generateText({
      model,
      prompt: 'Plan v2.',
      // The adapter is typed against the `ai` the repository installs (6); at run time it gets 7.
      tools: toAISDKTools(createPlanningTools(session), { session }) as unknown as ToolSet,
      stopWhen: stepCountIs(5),
      experimental_telemetry: {
        // @ai-sdk/otel pins its own copy of ai 7, whose types are a twin of ai-v7's.
        integrations: [
          new OpenTelemetry({ tracer: trace.getTracer('ai') }) as unknown as Telemetry,
        ],
        recordInputs: false,
        recordOutputs: false,
      },
    });
    expect(result.text).toBe('All done.');
    const tools = recorder.spans().filter((span) => span.name.startsWith('execute_tool'));
    expect(tools.map((span) => span.attributes['gen_ai.tool.call.id'])).toEqual(['c1', 'c2', 'c3']);
    // Each is AI SDK's own span, carrying plankit's attributes: never a second span.
    for (const span of tools) expect(span.instrumentationScope.name).toBe('ai');
    expect(tools[1]?.attributes['error.type']).toBe('step_unknown');
    expect(tools[2]?.attributes['plankit.step.status']).toEqual(['done']);
    await expect(recorder.tree()).toMatchFileSnapshot('./__snapshots__/ai-sdk-v7.tree.txt');
  });
});
