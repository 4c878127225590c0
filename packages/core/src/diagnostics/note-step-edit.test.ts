import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import type { PlanStep } from '../planning/plan.ts';
import { resetDiagnostics } from './diagnostics-channel.ts';
import { PLAN_CHANNEL } from './diagnostics-channels.ts';
import { noteStepEdit, takeStepEdit } from './note-step-edit.ts';
import { type PlanChangeSource, planChanged } from './plan-changed.ts';

const source: PlanChangeSource = {
  sessionId: 's',
  revision: 2,
  cause: 'commit',
  at: 1,
  callId: undefined,
  toolName: undefined,
};

function listen(): void {
  const listener = () => {};
  subscribe(PLAN_CHANNEL, listener);
  onTestFinished(() => {
    unsubscribe(PLAN_CHANNEL, listener);
  });
}

const step = (n: number, status: PlanStep['status'] = 'pending'): PlanStep =>
  Object.freeze({
    step_id: `S${String(n).padStart(3, '0')}`,
    title: `Step ${n}`,
    details: null,
    status,
    notes: Object.freeze([]),
  });

/** A frozen step list whose element reads are counted. */
function countedList(steps: PlanStep[], reads: { count: number }): readonly PlanStep[] {
  return new Proxy(Object.freeze(steps), {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads.count++;
      return Reflect.get(target, key, receiver);
    },
  });
}

const slice = (steps: readonly PlanStep[]) =>
  Object.freeze([Object.freeze({ objective: 'o', status: 'active', steps })]);

beforeEach(() => resetDiagnostics());

describe('noteStepEdit', () => {
  it("lets a mark's change be worked out from the marked step alone, however long the plan", () => {
    listen();
    const readsFor = (size: number, noted: boolean): number => {
      const reads = { count: 0 };
      const old = Array.from({ length: size }, (_, i) => step(i + 1));
      const marked = [...old];
      const half = Math.floor(size / 2);
      marked[half] = step(half + 1, 'done');
      const from = countedList(old, reads);
      const to = countedList(marked, reads);
      if (noted) noteStepEdit(from, to, half, half + 1, half + 1);
      // The counts of the list before are known, as in a session that reported it.
      const counts = { total: size, pending: size, in_progress: 0, blocked: 0, done: 0 };
      const payload = planChanged(source, slice(from), slice(to), { steps: from, counts });
      expect(payload.steps).toEqual([
        { stepId: `S${String(half + 1).padStart(3, '0')}`, status: 'done', change: 'updated' },
      ]);
      expect(payload.counts).toEqual({ ...counts, pending: size - 1, done: 1 });
      return reads.count;
    };
    const small = readsFor(20, true);
    expect(readsFor(200, true)).toBe(small);
    expect(readsFor(900, true)).toBe(small);
    // Without the note both lists are compared from each end to the marked step.
    expect(readsFor(200, false)).toBeGreaterThan(200);
  });

  it("takes an add's range as the steps appended", () => {
    listen();
    const old = Object.freeze([step(1), step(2)]);
    const added = Object.freeze([...old, step(3), step(4)]);
    noteStepEdit(old, added, 2, 2, 4);
    expect(planChanged(source, slice(old), slice(added)).steps).toEqual([
      { stepId: 'S003', status: 'pending', change: 'added' },
      { stepId: 'S004', status: 'pending', change: 'added' },
    ]);
  });

  it('is ignored for a change from another list than the one noted (a rollback in between)', () => {
    listen();
    const first = Object.freeze([step(1), step(2), step(3)]);
    const other = Object.freeze([step(1), step(2, 'blocked'), step(3)]);
    const marked = Object.freeze([first[0] as PlanStep, first[1] as PlanStep, step(3, 'done')]);
    noteStepEdit(first, marked, 2, 3, 3);
    // From `other`, steps 2 and 3 both differ: the note about `first` must not hide step 2.
    expect(planChanged(source, slice(other), slice(marked)).steps).toEqual([
      { stepId: 'S002', status: 'pending', change: 'updated' },
      { stepId: 'S003', status: 'done', change: 'updated' },
    ]);
  });

  it('keeps nothing while nobody listens on plankit:plan, and is taken once', () => {
    const old = Object.freeze([step(1)]);
    const marked = Object.freeze([step(1, 'done')]);
    noteStepEdit(old, marked, 0, 1, 1);
    expect(takeStepEdit(old, marked)).toBeUndefined();
    listen();
    noteStepEdit(old, marked, 0, 1, 1);
    expect(takeStepEdit(marked, old)).toBeUndefined();
    expect(takeStepEdit(old, marked)).toEqual({ start: 0, oldEnd: 1, end: 1 });
    expect(takeStepEdit(old, marked)).toBeUndefined();
  });

  it('tells a step rebuilt equal in place from one with a new title or status', () => {
    listen();
    const old = Object.freeze([step(1), step(2), step(3)]);
    const counts = { total: 3, pending: 3, in_progress: 0, blocked: 0, done: 0 };
    const replaced = (next: PlanStep) => {
      const list = Object.freeze([old[0] as PlanStep, next, old[2] as PlanStep]);
      noteStepEdit(old, list, 1, 2, 2);
      return planChanged(source, slice(old), slice(list), { steps: old, counts });
    };
    const equal = replaced(step(2));
    expect(equal.steps).toEqual([]);
    expect(equal.counts).toEqual(counts);
    const retitled = replaced(Object.freeze({ ...step(2), title: 'Other' }));
    expect(retitled.steps).toEqual([{ stepId: 'S002', status: 'pending', change: 'updated' }]);
    const blocked = replaced(step(2, 'blocked'));
    expect(blocked.steps).toEqual([{ stepId: 'S002', status: 'blocked', change: 'updated' }]);
    expect(blocked.counts).toEqual({ ...counts, pending: 2, blocked: 1 });
  });
});
