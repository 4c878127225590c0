import { describe, expect, it } from 'vitest';
import { Plan } from '../planning/plan.ts';
import { selectLatest } from '../select-latest.ts';
import { applyPlanningCalls } from './apply-planning-calls.ts';
import { fromLangChainTodos, toLangChainTodos } from './langchain-todos.ts';
import { planWith } from './testing/plan-with.ts';

// Ported from langchainjs libs/langchain/src/agents/middleware/tests/todoList.test.ts: the
// write_todos arguments those tests send, carried through a plankit plan and back. The tests
// of the middleware itself (system prompts, parallel write_todos calls) are about the agent
// loop, not the list, and have no counterpart here.
describe('todoListMiddleware (langchainjs)', () => {
  it('should add the custom system prompt to the model request and custom tool description: the todos written come back', async () => {
    const { session, tools } = await planWith([]);
    const args = { todos: [{ content: 'Complete the requested task', status: 'in_progress' }] };
    const write = fromLangChainTodos(selectLatest(session, Plan), args);
    if (!write.ok) throw write.error;
    const applied = await applyPlanningCalls(tools, write.value.calls, { session });
    if (!applied.ok) throw applied.error;
    expect(toLangChainTodos(applied.value).todos).toEqual([
      { content: 'Complete the requested task', status: 'in_progress' },
    ]);
  });

  it('should allow a single write_todos call', async () => {
    const write = fromLangChainTodos(undefined, {
      todos: [{ content: 'Task 1', status: 'pending' }],
    });
    expect(write).toEqual({
      ok: true,
      value: {
        calls: [
          {
            tool: 'planning_setup_plan',
            args: { objective: 'Plan', initial_steps: [{ title: 'Task 1' }] },
          },
        ],
        unlisted: [],
      },
    });
  });
});
