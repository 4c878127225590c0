import * as z from 'zod';
import { type Plan, PlanStep } from '../plan.ts';

/** A plan-level value before and after a change; `null` where there was no plan. @public */
export interface ValueChange {
  /** The value before, or `null`. */
  readonly before: string | null;
  /** The value after, or `null`. */
  readonly after: string | null;
}

/** One changed field of a step that stayed in the plan. @public */
export type StepFieldChange =
  | {
      /** The field. */
      readonly field: 'title' | 'details' | 'status' | 'owner';
      /** The value before (`null` for no details or no owner). */
      readonly before: string | null;
      /** The value after. */
      readonly after: string | null;
    }
  | {
      /** The field. */
      readonly field: 'notes' | 'depends_on';
      /** The list before (an absent `depends_on` reads as empty). */
      readonly before: readonly string[];
      /** The list after. */
      readonly after: readonly string[];
    };

/** How one step changed, matched by step id. @public */
export type StepChange =
  | {
      /** The step is new. */
      readonly change: 'added';
      /** Its id. */
      readonly step_id: string;
      /** The step as added. */
      readonly step: PlanStep;
    }
  | {
      /** The step is gone (a clear, or a setup with fewer steps). */
      readonly change: 'removed';
      /** Its id. */
      readonly step_id: string;
      /** The step as it was. */
      readonly step: PlanStep;
    }
  | {
      /** The step stayed and some fields changed. */
      readonly change: 'edited';
      /** Its id. */
      readonly step_id: string;
      /** The changed fields, in the order title, details, status, notes, depends_on, owner. */
      readonly fields: readonly StepFieldChange[];
    };

/** The structured difference between two plans. @public */
export interface PlanDiff {
  /** The objective's change, or `null` when it stayed. */
  readonly objective: ValueChange | null;
  /** The plan status's change, or `null` when it stayed. */
  readonly status: ValueChange | null;
  /** Added and edited steps in the new plan's order, then removed ones in the old order. */
  readonly steps: readonly StepChange[];
}

const Value = z.strictObject({ before: z.string().nullable(), after: z.string().nullable() });

const FieldChange = z.discriminatedUnion('field', [
  z.strictObject({
    field: z.enum(['title', 'details', 'status', 'owner']),
    before: z.string().nullable(),
    after: z.string().nullable(),
  }),
  z.strictObject({
    field: z.enum(['notes', 'depends_on']),
    before: z.array(z.string()),
    after: z.array(z.string()),
  }),
]);

/** Schema of {@link PlanDiff}. @public */
export const PlanDiff: z.ZodType<PlanDiff, PlanDiff> = z.strictObject({
  objective: Value.nullable(),
  status: Value.nullable(),
  steps: z.array(
    z.discriminatedUnion('change', [
      z.strictObject({ change: z.literal('added'), step_id: z.string(), step: PlanStep }),
      z.strictObject({ change: z.literal('removed'), step_id: z.string(), step: PlanStep }),
      z.strictObject({
        change: z.literal('edited'),
        step_id: z.string(),
        fields: z.array(FieldChange).min(1),
      }),
    ]),
  ),
});

const EMPTY: readonly string[] = Object.freeze([]);

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function fieldChanges(before: PlanStep, after: PlanStep): StepFieldChange[] {
  const fields: StepFieldChange[] = [];
  if (before.title !== after.title)
    fields.push(Object.freeze({ field: 'title', before: before.title, after: after.title }));
  if (before.details !== after.details)
    fields.push(Object.freeze({ field: 'details', before: before.details, after: after.details }));
  if (before.status !== after.status)
    fields.push(Object.freeze({ field: 'status', before: before.status, after: after.status }));
  if (!sameList(before.notes, after.notes))
    fields.push(Object.freeze({ field: 'notes', before: before.notes, after: after.notes }));
  const dependsBefore = before.depends_on ?? EMPTY;
  const dependsAfter = after.depends_on ?? EMPTY;
  if (!sameList(dependsBefore, dependsAfter))
    fields.push(Object.freeze({ field: 'depends_on', before: dependsBefore, after: dependsAfter }));
  const ownerBefore = before.owner ?? null;
  const ownerAfter = after.owner ?? null;
  if (ownerBefore !== ownerAfter)
    fields.push(Object.freeze({ field: 'owner', before: ownerBefore, after: ownerAfter }));
  return Object.freeze(fields) as StepFieldChange[];
}

const change = (before: string | null, after: string | null): ValueChange | null =>
  before === after ? null : Object.freeze({ before, after });

/**
 * The structured difference between two plans (`null` or undefined for no plan): the
 * objective and status when they changed, and each step added, removed or edited, matched by
 * step id. Linear in the size of both plans; the steps both share as the same objects at
 * either end (those a reducer left untouched) are skipped by identity. The result is frozen.
 *
 * @example
 * ```ts
 * const diff = diffPlans(before, after);
 * diff.steps; // [{ change: 'edited', step_id: 'S001', fields: [{ field: 'status', before: 'pending', after: 'done' }] }]
 * ```
 * @public
 */
export function diffPlans(
  before: Plan | null | undefined,
  after: Plan | null | undefined,
): PlanDiff {
  const old = before ?? null;
  const next = after ?? null;
  const oldSteps = old?.steps ?? [];
  const newSteps = next?.steps ?? [];
  // Reducers keep the steps they did not touch as the same objects, and step ids are unique in
  // a plan: the steps both lists share at the same place from either end are unchanged, and no
  // step between them can share an id with one of them. Only the middle is matched by id, so a
  // mark on a long plan looks at one step, not every step through a map.
  let start = 0;
  let oldEnd = oldSteps.length;
  let end = newSteps.length;
  const shortest = Math.min(oldEnd, end);
  while (start < shortest && oldSteps[start] === newSteps[start]) start++;
  while (oldEnd > start && end > start && oldSteps[oldEnd - 1] === newSteps[end - 1]) {
    oldEnd--;
    end--;
  }
  const byId = new Map<string, PlanStep>();
  for (let i = start; i < oldEnd; i++) {
    const step = oldSteps[i] as PlanStep;
    byId.set(step.step_id, step);
  }
  const kept = new Set<string>();
  const steps: StepChange[] = [];
  for (let i = start; i < end; i++) {
    const step = newSteps[i] as PlanStep;
    const was = byId.get(step.step_id);
    if (was === undefined) {
      steps.push(Object.freeze({ change: 'added', step_id: step.step_id, step }));
      continue;
    }
    kept.add(step.step_id);
    if (was === step) continue;
    const fields = fieldChanges(was, step);
    if (fields.length > 0)
      steps.push(Object.freeze({ change: 'edited', step_id: step.step_id, fields }));
  }
  for (let i = start; i < oldEnd; i++) {
    const step = oldSteps[i] as PlanStep;
    if (!kept.has(step.step_id))
      steps.push(Object.freeze({ change: 'removed', step_id: step.step_id, step }));
  }
  // Frozen as built, as every result is: a history commit then finds it frozen in one check.
  return Object.freeze({
    objective: change(old?.objective ?? null, next?.objective ?? null),
    status: change(old?.status ?? null, next?.status ?? null),
    steps: Object.freeze(steps),
  });
}
