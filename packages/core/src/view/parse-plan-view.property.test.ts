import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Plan, PlanStep } from '../planning/plan.ts';
import { formatStepId } from '../planning/step-id.ts';
import type { SessionSnapshot } from '../session-snapshot.ts';
import { parsePlanView } from './parse-plan-view.ts';
import { PLAN_REVISION_SLICE, PLAN_SLICE, type PlanView, planView } from './plan-view.ts';

// Printable ASCII without leading or trailing spaces: text the tools could have stored.
const text = (max: number) =>
  fc
    .string({
      unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
      minLength: 1,
      maxLength: max,
    })
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
const agentId = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._:@/+-]{0,20}$/);
const status = fc.constantFrom('pending', 'in_progress', 'blocked', 'done' as const);

/** A plan the tools could have built: steps with earlier steps as dependencies (no cycles). */
const plan: fc.Arbitrary<Plan> = fc
  .tuple(
    text(240),
    fc.array(
      fc.record({
        title: text(160),
        details: fc.option(text(512), { nil: null }),
        status,
        notes: fc.array(text(40), { maxLength: 3 }),
        deps: fc.array(fc.nat(), { maxLength: 4 }),
        owner: fc.option(agentId, { nil: undefined }),
        // Ids are never reused, so a plan's numbers may skip (a removed step, a cleared plan).
        gap: fc.integer({ min: 1, max: 3 }),
      }),
      { maxLength: 12 },
    ),
    fc.boolean(),
  )
  .map(([objective, raw, withDependencies]) => {
    let n = 0;
    const steps: PlanStep[] = [];
    for (const [i, s] of raw.entries()) {
      n += s.gap;
      const earlier = steps.map((step) => step.step_id);
      const depends =
        i === 0 ? [] : [...new Set(s.deps.map((d) => earlier[d % earlier.length] as string))];
      steps.push({
        step_id: formatStepId(n),
        title: s.title,
        details: s.details,
        status: s.status,
        notes: s.notes,
        ...(withDependencies ? { depends_on: depends } : {}),
        ...(s.owner === undefined ? {} : { owner: s.owner }),
      });
    }
    const done = steps.length > 0 && steps.every((step) => step.status === 'done');
    return { objective, status: done ? 'completed' : 'active', steps } as Plan;
  });

const revision = fc.option(
  fc.record({
    revision: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    actor: fc.option(agentId, { nil: null }),
    explanation: fc.option(text(512), { nil: null }),
  }),
  { nil: undefined },
);

/** Views of plans the tools could build, from a snapshot with or without history. */
const view: fc.Arbitrary<PlanView> = fc.tuple(plan, revision).map(([p, r]) => {
  const snapshot: SessionSnapshot = {
    sessionId: 's',
    revision: 1,
    slices: { [PLAN_SLICE]: [p], ...(r === undefined ? {} : { [PLAN_REVISION_SLICE]: [r] }) },
  };
  return planView(snapshot) as PlanView;
});

/** Deeply frozen, and exactly what parsing its own JSON gives: not a partial plan. */
function expectWhole(value: PlanView): void {
  const stack: unknown[] = [value];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (typeof item !== 'object' || item === null) continue;
    expect(Object.isFrozen(item)).toBe(true);
    stack.push(...Object.values(item));
  }
  expect(parsePlanView(JSON.parse(JSON.stringify(value)))).toEqual({ ok: true, value });
  expect(value.counts.total).toBe(value.steps.length);
}

/** Sets `path` in a JSON copy of `value` to `replacement`. */
function mutate(
  value: PlanView,
  path: readonly (string | number)[],
  replacement: unknown,
): unknown {
  const copy = JSON.parse(JSON.stringify(value)) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path.at(-1) as string | number] = replacement;
  return copy;
}

/** Every path to a field of `value`, objects and arrays included. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [];
  const out: (string | number)[][] = [];
  for (const [key, child] of Object.entries(value)) {
    const at = [...prefix, Array.isArray(value) ? Number(key) : key];
    out.push(at, ...paths(child, at));
  }
  return out;
}

const junk = fc.anything({
  withBigInt: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  withBoxedValues: true,
  withUnicodeString: true,
});

describe('parsePlanView properties', () => {
  it('reads back any view of a plan the tools could build, through JSON, as the same frozen view', () => {
    fc.assert(
      fc.property(view, (v) => {
        const read = parsePlanView(JSON.parse(JSON.stringify(v)));
        expect(read).toEqual({ ok: true, value: v });
        if (read.ok) expectWhole(read.value);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary values, and refuses them with a problem under 2,000 characters', () => {
    fc.assert(
      fc.property(junk, (value) => {
        const read = parsePlanView(value);
        expect(read.ok).toBe(false);
        if (!read.ok) {
          expect(read.error.message.length).toBeLessThan(2000);
          expect(Object.isFrozen(read.error)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a view with any one field replaced by junk is refused, or read whole and consistent', () => {
    fc.assert(
      fc.property(
        view.chain((v) => fc.tuple(fc.constant(v), fc.constantFrom(...paths(v)), junk)),
        ([v, path, replacement]) => {
          const read = parsePlanView(mutate(v, path, replacement));
          if (read.ok) expectWhole(read.value);
          else expect(read.error.message).toMatch(/^(Plan view|Not a plan view)/);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuses 1 MiB strings, NaN, deep nesting and __proto__ tricks in every field, naming it', () => {
    const huge = 'x'.repeat(1 << 20);
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const hostile = fc.constantFrom<unknown>(
      huge,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      -1,
      1.5,
      deep,
      JSON.parse('{"__proto__": {"kind": "plankit.plan"}}'),
      Object.create({ step_id: 'S001', title: 't' }),
    );
    fc.assert(
      fc.property(
        view
          .filter((v) => v.steps.length > 0 && v.revision !== null)
          .chain((v) => fc.tuple(fc.constant(v), fc.constantFrom(...paths(v)), hostile)),
        ([v, path, replacement]) => {
          const read = parsePlanView(mutate(v, path, replacement));
          expect(read.ok).toBe(false);
          if (!read.ok) {
            expect(read.error.code).toMatch(/^plan_view_/);
            expect(read.error.message.length).toBeLessThan(2000);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
