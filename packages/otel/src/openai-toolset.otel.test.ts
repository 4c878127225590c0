import { createOpenAIToolset } from '@plankit/adapters/openai';
import { createPlanningTools, Session } from '@plankit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { recordTraces, type TraceRecorder } from './testing/trace-recorder.ts';

let recorder: TraceRecorder | undefined;
afterEach(async () => {
  await recorder?.stop();
  recorder = undefined;
});

const NOW = Date.UTC(2026, 0, 15, 9, 0, 0);
const chatCall = (id: string, name: string, args: unknown) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: JSON.stringify(args) },
});

describe('@plankit/otel with the OpenAI toolset', () => {
  it('records a scripted run of chat tool calls as one execute_tool span per call, by the host call id', async () => {
    recorder = recordTraces();
    const session = new Session({ sessionId: 'openai-run', clock: () => NOW });
    const toolset = createOpenAIToolset(createPlanningTools(session), { strict: true });
    const turns = [
      [
        chatCall('call_setup', 'planning_setup_plan', {
          objective: 'Ship the release',
          initial_steps: [
            { title: 'Freeze', details: null },
            { title: 'Tag', details: null },
          ],
        }),
      ],
      [
        chatCall('call_mark_1', 'planning_mark_step', {
          step_id: 'S001',
          status: 'done',
          note: null,
        }),
        chatCall('call_bad', 'planning_mark_step', { step_id: 'S007', status: 'done', note: null }),
      ],
      [
        chatCall('call_mark_2', 'planning_mark_step', {
          step_id: 'S002',
          status: 'done',
          note: null,
        }),
      ],
    ];
    const outcomes: boolean[] = [];
    for (const calls of turns)
      for (const record of await toolset.runChatToolCalls(calls, { session }))
        outcomes.push(record.result.success);
    expect(outcomes).toEqual([true, true, false, true]);
    const spans = recorder.spans();
    expect(spans.map((span) => span.attributes['gen_ai.tool.name'])).toEqual([
      'planning_setup_plan',
      'planning_mark_step',
      'planning_mark_step',
      'planning_mark_step',
    ]);
    // The host's own call ids, which the toolset passes to invokeTool.
    expect(spans.map((span) => span.attributes['gen_ai.tool.call.id'])).toEqual([
      'call_setup',
      'call_mark_1',
      'call_bad',
      'call_mark_2',
    ]);
    expect(spans.map((span) => span.attributes['error.type'] ?? null)).toEqual([
      null,
      null,
      'step_unknown',
      null,
    ]);
    await expect(recorder.tree()).toMatchFileSnapshot('./__snapshots__/openai-toolset.tree.txt');
  });
});
