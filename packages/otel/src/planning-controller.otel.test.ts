import { trace } from '@opentelemetry/api';
import {
  createPlanningController,
  initialSnapshot,
  type MachineSnapshot,
  type PlanningOutcome,
  type PlanningStage,
  transition,
} from '@plankit/controller';
import { createPlanningTools, invokeTool, type Result, Session } from '@plankit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { recordTraces, type TraceRecorder } from './testing/trace-recorder.ts';

let recorder: TraceRecorder | undefined;
afterEach(async () => {
  await recorder?.stop();
  recorder = undefined;
});

const START = Date.UTC(2026, 0, 15, 9, 0);
type Snapshot = MachineSnapshot<PlanningStage, PlanningOutcome>;

function ok<T, E>(result: Result<T, E>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

describe('@plankit/otel with the planning controller', () => {
  it('records the run as a plan span: transitions as events with the budget, approval waits, the calls inside', async () => {
    recorder = recordTraces({ agentName: 'release-planner' });
    const machine = createPlanningController();
    const session = new Session({ sessionId: 'controller-run', clock: () => START });
    const tools = createPlanningTools(session);
    let now = START;
    let snapshot: Snapshot = initialSnapshot(machine, { now });
    const step = (outcome: PlanningOutcome, confidence: number | null = null) => {
      now += 1_000;
      snapshot = ok(
        transition(machine, snapshot, { outcome, now, confidence, costUsd: 0.01, tokens: 1_000 }),
      );
    };
    await trace.getTracer('host').startActiveSpan('invoke_agent release-planner', async (span) => {
      step('sufficient_context');
      await invokeTool(
        tools.planning_setup_plan,
        { objective: 'Release v2', initial_steps: [{ title: 'Outline' }, { title: 'Schedule' }] },
        { session, callId: 'call-setup', conversationId: 'chat-9' },
      );
      step('success', 0.9);
      step('valid');
      await invokeTool(
        tools.planning_mark_step,
        { step_id: 'S001', status: 'done' },
        { session, callId: 'call-mark', conversationId: 'chat-9' },
      );
      step('success', 0.85);
      step('valid');
      step('success', 0.8);
      step('valid');
      expect(snapshot.status).toBe('waiting');
      step('approved');
      span.end();
    });
    expect(snapshot.status).toBe('done');
    const spans = recorder.spans();
    const plan = spans.find((span) => span.name === 'plan release-planner');
    expect(plan?.attributes['gen_ai.agent.name']).toBe('release-planner');
    const transitions = plan?.events.filter((event) => event.name === 'plankit.transition') ?? [];
    expect(transitions.length).toBe(8);
    expect(transitions.map((event) => event.attributes?.['plankit.approval.waiting'])).toContain(
      true,
    );
    expect(transitions.at(-1)?.attributes?.['plankit.machine.status']).toBe('done');
    expect(transitions.at(-1)?.attributes?.['plankit.budget.total_turns']).toBe(8);
    // The planning calls made during the run hang under its plan span.
    const calls = spans.filter((span) => span.name.startsWith('execute_tool'));
    expect(calls.map((span) => span.attributes['gen_ai.tool.call.id'])).toEqual([
      'call-setup',
      'call-mark',
    ]);
    for (const call of calls)
      expect(call.parentSpanContext?.spanId).toBe(plan?.spanContext().spanId);
    await expect(recorder.tree()).toMatchFileSnapshot(
      './__snapshots__/planning-controller.tree.txt',
    );
  });
});
