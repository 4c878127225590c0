import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Plan, PlanStep } from '../plan.ts';
import { diffPlans, type PlanDiff, type StepChange } from './diff-plans.ts';

const STATUSES = ['pending', 'in_progress', 'blocked', 'done'] as const;

function step(n: number, status: PlanStep['status'] = 'pending', notes: string[] = []): PlanStep {
  return Object.freeze({
    step_id: `S${String(n).padStart(3, '0')}`,
    title: `Step ${n}`,
    details: null,
    status,
    notes: Object.freeze(notes),
  });
}

const plan = (steps: readonly PlanStep[]): Plan =>
  Object.freeze({ objective: 'Ship', status: 'active' as const, steps: Object.freeze([...steps]) });

/**
 * The diff as it was computed before the shared ends were skipped: every step of both plans
 * matched by id. diffPlans must give the same answer for any edit a reducer can make.
 */
function diffByIdOnly(before: Plan, after: Plan): readonly StepChange[] {
  const byId = new Map(before.steps.map((s) => [s.step_id, s]));
  const kept = new Set<string>();
  const changes: StepChange[] = [];
  for (const s of after.steps) {
    const was = byId.get(s.step_id);
    if (was === undefined) {
      changes.push({ change: 'added', step_id: s.step_id, step: s });
      continue;
    }
    kept.add(s.step_id);
    if (was === s) continue;
    const fields = diffPlans(plan([was]), plan([s])).steps[0];
    if (fields !== undefined) changes.push(fields);
  }
  for (const s of before.steps)
    if (!kept.has(s.step_id)) changes.push({ change: 'removed', step_id: s.step_id, step: s });
  return changes;
}

/** An edit as reducers make them: untouched steps stay the same objects. */
const edit = fc.oneof(
  fc.record({
    kind: fc.constant('mark' as const),
    at: fc.nat(),
    status: fc.constantFrom(...STATUSES),
  }),
  fc.record({ kind: fc.constant('note' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('rebuild' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), with: fc.nat() }),
);

function isDeeplyFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (!Object.isFrozen(value)) return false;
  return Object.values(value).every(isDeeplyFrozen);
}

describe('diffPlans', () => {
  it('skipping the steps both plans share at either end changes nothing: the same diff as matching every step by id', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 12 }),
        fc.array(edit, { maxLength: 6 }),
        (size, edits) => {
          const before = plan(Array.from({ length: size }, (_, i) => step(i + 1)));
          const steps = [...before.steps];
          let next = size + 1;
          for (const e of edits) {
            const at = steps.length === 0 ? 0 : e.at % steps.length;
            const current = steps[at];
            if (e.kind === 'insert') steps.splice(e.at % (steps.length + 1), 0, step(next++));
            else if (current === undefined) continue;
            else if (e.kind === 'mark')
              steps[at] = step(Number(current.step_id.slice(1)), e.status, [...current.notes]);
            else if (e.kind === 'note')
              steps[at] = step(Number(current.step_id.slice(1)), current.status, [
                ...current.notes,
                'seen',
              ]);
            else if (e.kind === 'rebuild') steps[at] = Object.freeze({ ...current });
            else if (e.kind === 'remove') steps.splice(at, 1);
            else {
              const other = e.with % steps.length;
              steps[at] = steps[other] as PlanStep;
              steps[other] = current;
            }
          }
          const after = plan(steps);
          const diff: PlanDiff = diffPlans(before, after);
          expect(diff.steps).toEqual(diffByIdOnly(before, after));
          expect(isDeeplyFrozen(diff)).toBe(true);
        },
      ),
    );
  });
});
