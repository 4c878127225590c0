import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { dataTypeName } from '../define-data-type.ts';
import { invokeTool } from '../invoke-tool.ts';
import { dependencies } from '../plan-model.ts';
import {
  createPlanningTools,
  type PlanningToolsOptions,
} from '../planning/create-planning-tools.ts';
import { Plan } from '../planning/plan.ts';
import { SetupPlan } from '../planning/plan-commands.ts';
import { Session } from '../session.ts';
import { resetDiagnostics } from './diagnostics-channel.ts';
import { PLAN_CHANNEL, TOOL_CALL_CHANNEL } from './diagnostics-channels.ts';
import type { DiagnosticsEvent, PlanChanged } from './diagnostics-event.ts';
import { PLAN_SLICE, type PlanChangeSource, planChanged } from './plan-changed.ts';

function listen(name: string) {
  const events: DiagnosticsEvent[] = [];
  const listener = (message: unknown) => events.push(message as DiagnosticsEvent);
  subscribe(name, listener);
  onTestFinished(() => {
    unsubscribe(name, listener);
  });
  return events;
}

function planning(options?: PlanningToolsOptions) {
  const session = new Session({ sessionId: 'plan-s', clock: () => 50 });
  const tools = createPlanningTools(session, options);
  const call = (name: string, args: unknown, callId?: string) =>
    invokeTool(
      (tools as unknown as Record<string, Parameters<typeof invokeTool>[0]>)[name] as Parameters<
        typeof invokeTool
      >[0],
      args,
      {
        session,
        ...(callId === undefined ? {} : { callId }),
      },
    );
  return { session, call };
}

const THREE = {
  objective: 'Ship v2',
  initial_steps: [{ title: 'A' }, { title: 'B' }, { title: 'C' }],
};

beforeEach(() => resetDiagnostics());

describe('plankit:plan', () => {
  it("is the slice of core's Plan data type", () => {
    expect(PLAN_SLICE).toBe(dataTypeName(Plan));
  });

  it('reports a setup: every step added, the counts and the call that made it', async () => {
    const events = listen(PLAN_CHANNEL);
    const { call } = planning();
    await call('planning_setup_plan', THREE, 'call_1');
    const expected: PlanChanged = {
      type: 'plan-changed',
      sessionId: 'plan-s',
      revision: 1,
      cause: 'commit',
      callId: 'call_1',
      toolName: 'planning_setup_plan',
      at: 50,
      planStatus: 'active',
      steps: [
        { stepId: 'S001', status: 'pending', change: 'added' },
        { stepId: 'S002', status: 'pending', change: 'added' },
        { stepId: 'S003', status: 'pending', change: 'added' },
      ],
      counts: { total: 3, pending: 3, in_progress: 0, blocked: 0, done: 0 },
      objective: 'Ship v2',
    };
    expect(events).toEqual([expected]);
    expect(Object.isFrozen(events[0])).toBe(true);
  });

  it('reports only the step a mark changed, with the new counts and plan status', async () => {
    const { call } = planning();
    await call('planning_setup_plan', { objective: 'Ship', initial_steps: [{ title: 'A' }] });
    const events = listen(PLAN_CHANNEL);
    await call('planning_mark_step', { step_id: 'S001', status: 'in_progress' });
    await call('planning_mark_step', { step_id: 'S001', status: 'done' });
    expect(events).toMatchObject([
      {
        revision: 2,
        steps: [{ stepId: 'S001', status: 'in_progress', change: 'updated' }],
        counts: { total: 1, in_progress: 1 },
        planStatus: 'active',
      },
      { revision: 3, counts: { total: 1, done: 1 }, planStatus: 'completed' },
    ]);
    expect((events[0] as PlanChanged).callId).toMatch(/^plankit-call-\d+$/);
  });

  it('reports the added and updated steps of add and update, and the removed ones of clear', async () => {
    const { call } = planning();
    await call('planning_setup_plan', THREE);
    const events = listen(PLAN_CHANNEL);
    await call('planning_add_step', { steps: [{ title: 'D' }] });
    await call('planning_update_step', { step_id: 'S002', title: 'B again' });
    await call('planning_clear_plan', {});
    expect(events.map((event) => (event as PlanChanged).steps)).toEqual([
      [{ stepId: 'S004', status: 'pending', change: 'added' }],
      [{ stepId: 'S002', status: 'pending', change: 'updated' }],
      ['S001', 'S002', 'S003', 'S004'].map((stepId) => ({
        stepId,
        status: 'pending',
        change: 'removed',
      })),
    ]);
    expect(events[2]).toMatchObject({ planStatus: 'abandoned', counts: { total: 0 } });
  });

  it('reports a dispatch and a rollback, without a call', async () => {
    const { session, call } = planning({ extensions: [dependencies()] });
    await call('planning_setup_plan', THREE);
    const before = session.snapshot();
    const events = listen(PLAN_CHANNEL);
    session.dispatch(SetupPlan, { objective: 'Other', initial_steps: [] });
    session.rollback(before);
    expect(events).toMatchObject([
      { cause: 'commit', revision: 2, counts: { total: 0 }, objective: 'Other' },
      { cause: 'rollback', revision: 3, counts: { total: 3, pending: 3 }, objective: 'Ship v2' },
    ]);
    expect(events[0]).not.toHaveProperty('callId');
    expect((events[0] as PlanChanged).steps).toHaveLength(3);
  });

  it('comes between the start and the end of the call that made it', async () => {
    const order: string[] = [];
    const record = (message: unknown) => order.push((message as { type: string }).type);
    subscribe(TOOL_CALL_CHANNEL, record);
    subscribe(PLAN_CHANNEL, record);
    onTestFinished(() => {
      unsubscribe(TOOL_CALL_CHANNEL, record);
      unsubscribe(PLAN_CHANNEL, record);
    });
    const { call } = planning();
    await call('planning_setup_plan', THREE);
    await call('planning_read_plan', {});
    expect(order).toEqual([
      'tool-call-start',
      'plan-changed',
      'tool-call-end',
      'tool-call-start',
      'tool-call-end',
    ]);
  });

  it('is not published for a refused call, nor while nobody listens', async () => {
    const { session, call } = planning();
    await call('planning_setup_plan', THREE);
    const events = listen(PLAN_CHANNEL);
    await call('planning_mark_step', { step_id: 'S009', status: 'done' });
    expect(events).toEqual([]);
    expect(session.snapshot().revision).toBe(1);
  });

  it('keeps the counts true across a run of changes, each started from the last', async () => {
    const { session, call } = planning();
    const events = listen(PLAN_CHANNEL);
    await call('planning_setup_plan', THREE);
    await call('planning_mark_step', { step_id: 'S002', status: 'in_progress' });
    await call('planning_add_step', { steps: [{ title: 'D' }, { title: 'E' }] });
    await call('planning_mark_step', { step_id: 'S001', status: 'done' });
    await call('planning_mark_step', { step_id: 'S002', status: 'blocked' });
    const before = session.snapshot();
    await call('planning_mark_step', { step_id: 'S005', status: 'done' });
    session.rollback(before);
    await call('planning_clear_plan', {});
    const counts = events.map((event) => (event as PlanChanged).counts);
    expect(counts).toEqual([
      { total: 3, pending: 3, in_progress: 0, blocked: 0, done: 0 },
      { total: 3, pending: 2, in_progress: 1, blocked: 0, done: 0 },
      { total: 5, pending: 4, in_progress: 1, blocked: 0, done: 0 },
      { total: 5, pending: 3, in_progress: 1, blocked: 0, done: 1 },
      { total: 5, pending: 3, in_progress: 0, blocked: 1, done: 1 },
      { total: 5, pending: 2, in_progress: 0, blocked: 1, done: 2 },
      { total: 5, pending: 3, in_progress: 0, blocked: 1, done: 1 },
      { total: 0, pending: 0, in_progress: 0, blocked: 0, done: 0 },
    ]);
    expect(events.map((event) => (event as PlanChanged).steps.length)).toEqual([
      3, 1, 2, 1, 1, 1, 1, 5,
    ]);
  });
});

describe('planChanged', () => {
  const source: PlanChangeSource = {
    sessionId: 's',
    revision: 2,
    cause: 'commit',
    at: 1,
    callId: undefined,
    toolName: undefined,
  };

  /** A frozen plan slice of `size` pending steps, each one counting the reads of its fields. */
  function countedPlan(size: number) {
    const reads = { count: 0 };
    const steps = Array.from({ length: size }, (_, i) => {
      const step = Object.freeze({
        step_id: `S${String(i + 1).padStart(3, '0')}`,
        title: `Step ${i + 1}`,
        details: null,
        status: 'pending' as const,
        notes: Object.freeze([]),
      });
      return new Proxy(step, {
        get(target, key, receiver) {
          reads.count++;
          return Reflect.get(target, key, receiver);
        },
      });
    });
    const slice = (list: readonly unknown[]) =>
      Object.freeze([
        Object.freeze({ objective: 'o', status: 'active', steps: Object.freeze(list) }),
      ]);
    return { reads, steps, slice };
  }

  it('reads only the step a change replaced, however long the plan', () => {
    const readsFor = (size: number): number => {
      const { reads, steps, slice } = countedPlan(size);
      const before = slice(steps);
      const memo = { steps: undefined, counts: undefined };
      planChanged(source, undefined, before, memo);
      const marked: unknown[] = [...steps];
      const half = Math.floor(size / 2);
      marked[half] = Object.freeze({ ...(steps[half] as object), status: 'in_progress' });
      reads.count = 0;
      const payload = planChanged(source, before, slice(marked), memo);
      expect(payload.steps).toEqual([
        {
          stepId: `S${String(half + 1).padStart(3, '0')}`,
          status: 'in_progress',
          change: 'updated',
        },
      ]);
      expect(payload.counts).toEqual({
        total: size,
        pending: size - 1,
        in_progress: 1,
        blocked: 0,
        done: 0,
      });
      return reads.count;
    };
    const small = readsFor(20);
    expect(small).toBeGreaterThan(0);
    expect(readsFor(200)).toBe(small);
    expect(readsFor(900)).toBe(small);
  });
});
