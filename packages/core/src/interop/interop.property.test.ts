import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StepStatus } from '../planning/plan.ts';
import { Plan } from '../planning/plan.ts';
import type { Result } from '../result.ts';
import { selectLatest } from '../select-latest.ts';
import type { ToolValidationError } from '../tool-validation-error.ts';
import { fromACPPlan, toACPPlan } from './acp-plan.ts';
import { applyPlanningCalls } from './apply-planning-calls.ts';
import { fromClaudeTasks, toClaudeTasks } from './claude-tasks.ts';
import { fromCodexPlan, toCodexPlan } from './codex-plan.ts';
import { fromLangChainTodos, toLangChainTodos } from './langchain-todos.ts';
import type { PlanWrite } from './planning-call.ts';
import { fromPydanticAIPlan, toPydanticAIPlan } from './pydantic-ai-plan.ts';
import { planWith } from './testing/plan-with.ts';
import type { TodoStatus } from './todo-status.ts';

type From = (plan: Plan | undefined, args: unknown) => Result<PlanWrite, ToolValidationError>;

const FORMATS: readonly (readonly [string, (plan: Plan | undefined) => unknown, From])[] = [
  ['LangChain todos', toLangChainTodos, fromLangChainTodos],
  ['Codex update_plan', toCodexPlan, fromCodexPlan],
  ['ACP plan update', toACPPlan, fromACPPlan],
  ['Claude tasks', toClaudeTasks, fromClaudeTasks],
  ['pydantic-ai-harness write_plan', toPydanticAIPlan, fromPydanticAIPlan],
];

// Titles of letters and inner spaces: never equal to the `renamed N` and `new N` of the edits.
const title = fc.stringMatching(/^[a-z](?:[a-z ]{0,10}[a-z])?$/);
const stepStatus = fc.constantFrom<StepStatus>('pending', 'in_progress', 'blocked', 'done');
const steps = fc.uniqueArray(fc.record({ title, status: stepStatus }), {
  selector: (step) => step.title,
  maxLength: 8,
});
const todoStatus = fc.constantFrom<TodoStatus>('pending', 'in_progress', 'completed');

describe('round trips', () => {
  for (const [name, to, from] of FORMATS) {
    it(`${name}: the list a plan shows converts back to no call`, async () => {
      await fc.assert(
        fc.asyncProperty(steps, async (spec) => {
          const { session } = await planWith(spec);
          const plan = selectLatest(session, Plan);
          const write = from(plan, JSON.parse(JSON.stringify(to(plan))));
          expect(write).toEqual({ ok: true, value: { calls: [], unlisted: [] } });
        }),
        { numRuns: 40 },
      );
    });
  }

  it('formats that carry ids match by id: a reordered list with renamed items keeps every step', async () => {
    const reordered = steps.chain((spec) =>
      fc.record({
        spec: fc.constant(spec),
        order: fc.shuffledSubarray(
          spec.map((_, i) => i),
          { minLength: spec.length, maxLength: spec.length },
        ),
        renamed: fc.uniqueArray(fc.nat({ max: Math.max(spec.length - 1, 0) }), {
          maxLength: spec.length,
        }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(reordered, async ({ spec, order, renamed }) => {
        const { session } = await planWith(spec);
        const plan = selectLatest(session, Plan);
        const items = toPydanticAIPlan(plan).items;
        const rename = (i: number, text: string) => (renamed.includes(i) ? `renamed ${i}` : text);
        const harness = fromPydanticAIPlan(plan, {
          items: order.map((i) => ({ ...items[i], content: rename(i, items[i]?.content ?? '') })),
        });
        const tasks = toClaudeTasks(plan).tasks;
        const claude = fromClaudeTasks(plan, {
          tasks: order.map((i) => ({ ...tasks[i], subject: rename(i, tasks[i]?.subject ?? '') })),
        });
        for (const write of [harness, claude]) {
          if (!write.ok) throw write.error;
          // Only renames: no step added, none left out, no status moved.
          expect(write.value.unlisted).toEqual([]);
          expect(write.value.calls.map((call) => call.tool).sort()).toEqual(
            renamed.map(() => 'planning_update_step'),
          );
          expect(
            write.value.calls
              .map((call) => ('step_id' in call.args ? call.args.step_id : ''))
              .sort(),
          ).toEqual(renamed.map((i) => plan?.steps[i]?.step_id).sort());
        }
      }),
      { numRuns: 40 },
    );
  });

  it('an edited Codex list comes back as written, every step keeping its id', async () => {
    const edits = steps.chain((spec) =>
      fc.record({
        spec: fc.constant(spec),
        statuses: fc.array(todoStatus, { minLength: spec.length, maxLength: spec.length }),
        rename: fc.option(fc.nat({ max: Math.max(spec.length - 1, 0) }), { nil: undefined }),
        added: fc.array(todoStatus, { maxLength: 3 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(edits, async ({ spec, statuses, rename, added }) => {
        const { session, tools } = await planWith(spec);
        const before = selectLatest(session, Plan);
        const renamed = rename !== undefined && rename < spec.length ? rename : undefined;
        const edited = [
          ...toCodexPlan(before).plan.map((item, i) => ({
            step: i === renamed ? `renamed ${i}` : item.step,
            status: statuses[i] as TodoStatus,
          })),
          ...added.map((status, k) => ({ step: `new ${k}`, status })),
        ];
        const write = fromCodexPlan(before, { plan: edited });
        if (!write.ok) throw write.error;
        const snapshot = session.snapshot();
        const applied = await applyPlanningCalls(tools, write.value.calls, { session });
        // A list sharing no item with the plan (its one step renamed) is a new plan.
        const newPlan = spec.length === 1 && renamed === 0;
        // The tools' rule: a completed plan takes no edit or new step unless a step reopens.
        const stuck =
          !newPlan &&
          before?.status === 'completed' &&
          statuses.every((status) => status === 'completed') &&
          (renamed !== undefined || added.length > 0);
        if (stuck) {
          expect(applied.ok ? undefined : applied.error.code).toBe('plan_not_active');
          expect(session.snapshot()).toBe(snapshot);
          return;
        }
        if (!applied.ok) throw applied.error;
        expect(toCodexPlan(applied.value).plan).toEqual(edited);
        expect(applied.value?.steps.slice(0, spec.length).map((s) => s.step_id)).toEqual(
          before?.steps.map((s) => s.step_id),
        );
        // Steps the edit left alone keep their title, and their status unless the list moved it.
        for (let i = 0; i < spec.length; i++) {
          if (i === renamed) continue;
          const was = before?.steps[i];
          const now = applied.value?.steps[i];
          expect(now?.title).toBe(was?.title);
          if (toCodexPlan(before).plan[i]?.status === edited[i]?.status)
            expect(now?.status).toBe(was?.status);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('a new list makes a plan that shows the same list in every format', async () => {
    const list = fc.uniqueArray(fc.record({ content: title, status: todoStatus }), {
      selector: (item) => item.content,
      minLength: 1,
      maxLength: 8,
    });
    await fc.assert(
      fc.asyncProperty(list, async (todos) => {
        const { session, tools } = await planWith([]);
        const write = fromLangChainTodos(undefined, { todos });
        if (!write.ok) throw write.error;
        const applied = await applyPlanningCalls(tools, write.value.calls, { session });
        if (!applied.ok) throw applied.error;
        expect(toLangChainTodos(applied.value).todos).toEqual(todos);
        expect(
          toACPPlan(applied.value).entries.map(({ content, status }) => ({ content, status })),
        ).toEqual(todos);
        expect(toPydanticAIPlan(applied.value).items.map((item) => item.id)).toEqual(
          todos.map((_, i) => `S${String(i + 1).padStart(3, '0')}`),
        );
      }),
      { numRuns: 40 },
    );
  });
});
