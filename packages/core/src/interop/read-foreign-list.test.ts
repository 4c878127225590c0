import { describe, expect, it } from 'vitest';
import { Plan } from '../planning/plan.ts';
import { selectLatest } from '../select-latest.ts';
import { ToolValidationError } from '../tool-validation-error.ts';
import { fromACPPlan } from './acp-plan.ts';
import { applyPlanningCalls } from './apply-planning-calls.ts';
import { fromClaudeTasks } from './claude-tasks.ts';
import { fromCodexPlan } from './codex-plan.ts';
import { fromLangChainTodos, toLangChainTodos } from './langchain-todos.ts';
import { fromPydanticAIPlan } from './pydantic-ai-plan.ts';
import { MAX_INTEROP_ITEMS } from './read-foreign-list.ts';
import { planWith } from './testing/plan-with.ts';

function refusal(result: { ok: boolean; error?: unknown }): ToolValidationError {
  expect(result.ok).toBe(false);
  const error = result.error;
  if (!ToolValidationError.isInstance(error)) throw new Error('expected a ToolValidationError');
  expect(error.message.length).toBeLessThan(2000);
  return error;
}

describe('foreign lists no plan could follow', () => {
  it('refuses two items with the same text, naming both', async () => {
    const { session } = await planWith([{ title: 'a' }]);
    const error = refusal(
      fromLangChainTodos(selectLatest(session, Plan), {
        todos: [
          { content: 'a', status: 'pending' },
          { content: 'b', status: 'pending' },
          { content: ' b ', status: 'completed' },
        ],
      }),
    );
    expect(error.code).toBe('list_duplicate');
    expect(error.field).toBe('todos[2].content');
    expect(error.message).toBe(
      'todos[2].content repeats todos[1].content; every item of the list must be different, so each matches one step.',
    );
  });

  it('refuses two pydantic-ai-harness items with the same id', () => {
    const error = refusal(
      fromPydanticAIPlan(undefined, {
        items: [
          { id: 'x', content: 'a' },
          { id: 'x', content: 'b' },
        ],
      }),
    );
    expect(error.code).toBe('list_duplicate');
    expect(error.field).toBe('items[1].id');
  });

  it('refuses 10,000 items before reading any', () => {
    const plan = Array.from({ length: 10_000 }, (_, i) => ({
      step: `step ${i}`,
      status: 'pending',
    }));
    const error = refusal(fromCodexPlan(undefined, { plan }));
    expect(error.code).toBe('list_too_long');
    expect(error.field).toBe('plan');
    expect(error.message).toBe(
      `Field plan holds 10000 items; a plan takes at most ${MAX_INTEROP_ITEMS} in one write.`,
    );
    expect(fromCodexPlan(undefined, { plan: plan.slice(0, MAX_INTEROP_ITEMS) }).ok).toBe(true);
  });

  it('refuses a status outside the format, naming the format’s statuses', () => {
    const error = refusal(fromCodexPlan(undefined, { plan: [{ step: 'a', status: 'done' }] }));
    expect(error.code).toBe('status_invalid');
    expect(error.field).toBe('plan[0].status');
    expect(error.message).toBe(
      'plan[0].status "done"; it must be one of: pending, in_progress, completed.',
    );
    const missing = refusal(
      fromACPPlan(undefined, {
        sessionUpdate: 'plan',
        entries: [{ content: 'a', priority: 'low' }],
      }),
    );
    expect(missing.message).toBe(
      'entries[0].status must be one of: pending, in_progress, completed.',
    );
  });

  it('refuses the harness’s cancelled, which no plankit step status says', () => {
    const error = refusal(
      fromPydanticAIPlan(undefined, { items: [{ content: 'a', status: 'cancelled' }] }),
    );
    expect(error.code).toBe('status_invalid');
    expect(error.message).toContain('pending, in_progress, completed, blocked');
  });

  it('refuses a __proto__ key, in the arguments or in an item, as a field the format lacks', () => {
    const inItem = JSON.parse('{"todos":[{"content":"a","status":"pending","__proto__":{"x":1}}]}');
    const error = refusal(fromLangChainTodos(undefined, inItem));
    expect(error.code).toBe('schema');
    expect(error.field).toBe('todos[0].__proto__');
    const atTop = JSON.parse('{"__proto__":{"todos":[]},"todos":[]}');
    expect(refusal(fromLangChainTodos(undefined, atTop)).field).toBe('__proto__');
    // A list inherited from the prototype is not the arguments' own.
    const inherited = Object.create({ todos: [] });
    expect(refusal(fromLangChainTodos(undefined, inherited)).field).toBe('todos');
  });

  it('refuses what is not the format’s shape', () => {
    expect(refusal(fromCodexPlan(undefined, null)).code).toBe('schema');
    expect(refusal(fromCodexPlan(undefined, { plan: {} })).field).toBe('plan');
    expect(refusal(fromCodexPlan(undefined, { plan: ['a'] })).field).toBe('plan[0]');
    expect(
      refusal(fromCodexPlan(undefined, { plan: [{ step: 1, status: 'pending' }] })).field,
    ).toBe('plan[0].step');
    expect(refusal(fromACPPlan(undefined, { sessionUpdate: 'tool_call', entries: [] })).field).toBe(
      'sessionUpdate',
    );
    expect(
      refusal(
        fromClaudeTasks(undefined, {
          tasks: [{ subject: 'a', status: 'pending', description: 3 }],
        }),
      ).field,
    ).toBe('tasks[0].description');
  });

  it('clips what it quotes, so a huge key or status still makes a short refusal', () => {
    const key = 'k'.repeat(100_000);
    expect(refusal(fromCodexPlan(undefined, { [key]: 1, plan: [] })).message.length).toBeLessThan(
      200,
    );
    const status = 's'.repeat(100_000);
    expect(
      refusal(fromCodexPlan(undefined, { plan: [{ step: 'a', status }] })).message.length,
    ).toBeLessThan(200);
  });

  it('changes nothing when a list is refused', async () => {
    const { session } = await planWith([{ title: 'a' }]);
    const before = session.snapshot();
    refusal(fromCodexPlan(selectLatest(session, Plan), { plan: [{ step: 'a', status: 'nope' }] }));
    expect(session.snapshot()).toBe(before);
  });
});

describe('text the tools refuse', () => {
  it('non-ASCII text is refused by the ASCII rule when the calls run, and nothing changes', async () => {
    const { session, tools } = await planWith([{ title: 'a' }, { title: 'b' }]);
    const before = session.snapshot();
    const write = fromCodexPlan(selectLatest(session, Plan), {
      plan: [
        { step: 'a', status: 'completed' },
        { step: 'b', status: 'pending' },
        { step: 'caf\u00e9', status: 'pending' },
      ],
    });
    if (!write.ok) throw write.error;
    const applied = await applyPlanningCalls(tools, write.value.calls, { session });
    expect(applied.ok).toBe(false);
    if (applied.ok) return;
    expect(applied.error.code).toBe('text_not_ascii');
    expect(applied.error.field).toBe('steps[0].title');
    // The dry run refused it: the mark before the add never reached the session.
    expect(session.snapshot()).toBe(before);
  });

  it('non-ASCII text is accepted by tools made with text: unicode', async () => {
    const { session, tools } = await planWith([{ title: 'a' }], 'Ship it', 'unicode');
    const todos = [
      { content: 'a', status: 'completed' },
      { content: 'Écrire les tests 🧪', status: 'in_progress' },
      { content: '部署到生产环境', status: 'pending' },
    ];
    const write = fromLangChainTodos(selectLatest(session, Plan), { todos }, { text: 'unicode' });
    if (!write.ok) throw write.error;
    const applied = await applyPlanningCalls(tools, write.value.calls, { session });
    if (!applied.ok) throw applied.error;
    expect(toLangChainTodos(applied.value).todos).toEqual(todos);
    expect(applied.value?.steps.map((step) => step.step_id)).toEqual(['S001', 'S002', 'S003']);
  });

  it('under text: unicode, an item in another normal form is the same step', async () => {
    const { session } = await planWith([{ title: 'Caf\u00e9 menu' }], 'Ship it', 'unicode');
    const plan = selectLatest(session, Plan);
    const decomposed = { todos: [{ content: 'Cafe\u0301 menu', status: 'pending' }] };
    expect(fromLangChainTodos(plan, decomposed, { text: 'unicode' })).toEqual({
      ok: true,
      value: { calls: [], unlisted: [] },
    });
    // Two items that differ only in normal form are one item twice.
    const twice = fromLangChainTodos(
      plan,
      { todos: [{ content: 'Caf\u00e9 menu', status: 'pending' }, decomposed.todos[0]] },
      { text: 'unicode' },
    );
    expect(twice.ok ? undefined : twice.error.code).toBe('list_duplicate');
  });

  it('a title over the limit is refused with the tools’ own words', async () => {
    const { session, tools } = await planWith([{ title: 'a' }]);
    const write = fromLangChainTodos(selectLatest(session, Plan), {
      todos: [{ content: 'x'.repeat(161), status: 'pending' }],
    });
    if (!write.ok) throw write.error;
    const applied = await applyPlanningCalls(tools, write.value.calls, { session });
    expect(applied.ok ? undefined : applied.error.message).toBe('Title must be <= 160 characters.');
  });
});
