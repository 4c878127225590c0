import { describe, expect, it } from 'vitest';
import { PREDEFINED_TODOS, predefinedTodos } from './predefined-todos.ts';

describe('predefined todos', () => {
  it("are seed 001's, word for word", () => {
    expect(PREDEFINED_TODOS.initial).toEqual([
      {
        id: 1,
        content:
          'Explore the workspace and populate workspace.md with an overview of the environment, available tools, and any existing context.',
      },
      {
        id: 2,
        content:
          'Read the instructions.md file and create an execution plan in main_plan.md. The plan should outline the phases needed to complete the task.',
      },
      {
        id: 3,
        content:
          'Divide the plan into phases, where each phase contains 5-20 concrete, actionable todos.',
      },
      {
        id: 4,
        content: 'Write the todos for the first phase to todos.yaml using the todo_write tool.',
      },
    ]);
    expect(PREDEFINED_TODOS.transition).toEqual([
      {
        id: 1,
        content:
          'Summarize what was accomplished in the previous tactical phase. Note any issues encountered, decisions made, or discoveries.',
      },
      {
        id: 2,
        content:
          'Update workspace.md with new learnings, patterns discovered, or important context for future phases.',
      },
      {
        id: 3,
        content:
          'Update main_plan.md to mark completed phases and adjust upcoming phases if needed based on learnings.',
      },
      {
        id: 4,
        content:
          'Write todos for the next phase to todos.yaml, or call job_complete if the plan is fully executed.',
      },
    ]);
    expect(PREDEFINED_TODOS.revision.map((todo) => todo.id)).toEqual([1, 2, 3, 4]);
    expect(PREDEFINED_TODOS.revision[3]?.content).toContain('todo_write');
  });

  it('name the configured range, and are frozen', () => {
    expect(predefinedTodos({ min: 3, max: 8 }).initial[2]?.content).toBe(
      'Divide the plan into phases, where each phase contains 3-8 concrete, actionable todos.',
    );
    expect(Object.isFrozen(PREDEFINED_TODOS.initial[0])).toBe(true);
    expect(() => predefinedTodos({ min: 5, max: 4 })).toThrow(/range/);
  });
});
