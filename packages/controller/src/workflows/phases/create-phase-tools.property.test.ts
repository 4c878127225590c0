import { invokeTool, Session, selectLatest } from '@plankit/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryFiles } from '../testing/memory-files.ts';
import { planned } from '../testing/review-fixtures.ts';
import { todosYaml, unwrap } from '../testing/unwrap.ts';
import { completeTodo } from './complete-todo.ts';
import type { PhaseFiles } from './create-phase-tools.ts';
import { createPhaseTools } from './create-phase-tools.ts';
import { PhaseJob } from './phase-job.ts';
import { startPhaseJob } from './start-phase-job.ts';

type Call =
  | { readonly tool: 'todo_complete'; readonly id: number }
  | { readonly tool: 'job_complete' }
  | { readonly tool: 'todo_write'; readonly count: number };

/** Completes every open todo of `job` but the last `left`. */
function upTo(job: PhaseJob, left: number): PhaseJob {
  let next = job;
  const open = job.todos.filter((todo) => todo.status !== 'completed');
  for (const todo of open.slice(0, Math.max(0, open.length - left))) {
    next = unwrap(completeTodo(next, { id: todo.id, now: next.updatedAt }));
  }
  return next;
}

const T0 = 1000;
const strategic = upTo(startPhaseJob({ jobId: 'job-1', now: T0 }), 2);
const tactical = upTo(planned(startPhaseJob({ jobId: 'job-1', now: T0 }), T0), 2);
const transition = upTo(
  (() => {
    let job = planned(startPhaseJob({ jobId: 'job-1', now: T0 }), T0);
    for (const todo of job.todos) job = unwrap(completeTodo(job, { id: todo.id, now: T0 }));
    return job;
  })(),
  1,
);
const STARTS = [strategic, tactical, transition] as const;

/** A session holding `start`, its tools, and files holding `todos`, with I/O run by `wrap`. */
function setup(start: PhaseJob, todos: string, wrap: <T>(run: () => Promise<T>) => Promise<T>) {
  const session = new Session({ sessionId: 'race', clock: () => T0 });
  const memory = new MemoryFiles();
  memory.files.set('todos.yaml', todos);
  const files: PhaseFiles = {
    readTodos: (options) => wrap(() => memory.readTodos(options)),
    writeTodos: (document) => wrap(() => memory.writeTodos(document)),
    writeArchive: (archive) => wrap(() => memory.writeArchive(archive)),
  };
  const [todoComplete, todoWrite, jobComplete] = createPhaseTools(session, { files });
  session.dispatch(PhaseJob, start);
  const invoke = (call: Call, now: number) => {
    switch (call.tool) {
      case 'todo_complete':
        return invokeTool(todoComplete, { id: call.id }, { session, now });
      case 'job_complete':
        return invokeTool(jobComplete, {}, { session, now });
      case 'todo_write': {
        const items = Array.from({ length: call.count }, (_, i) => ({
          id: i + 1,
          content: `W${i}`,
        }));
        return invokeTool(todoWrite, { phase: 'Written', todos: items }, { session, now });
      }
      default: {
        const unknown: never = call;
        throw new Error(`unreachable: ${String(unknown)}`);
      }
    }
  };
  return { session, memory, invoke };
}

function* permutations<T>(items: readonly T[]): Generator<T[]> {
  if (items.length <= 1) {
    yield [...items];
    return;
  }
  for (let i = 0; i < items.length; i++) {
    const rest = [...items.slice(0, i), ...items.slice(i + 1)];
    for (const tail of permutations(rest)) yield [items[i] as T, ...tail];
  }
}

const call: fc.Arbitrary<Call> = fc.oneof(
  {
    arbitrary: fc.record({
      tool: fc.constant('todo_complete' as const),
      id: fc.integer({ min: 1, max: 6 }),
    }),
    weight: 4,
  },
  { arbitrary: fc.constant({ tool: 'job_complete' as const }), weight: 1 },
  {
    arbitrary: fc.record({
      tool: fc.constant('todo_write' as const),
      count: fc.constantFrom(3, 5),
    }),
    weight: 1,
  },
);

describe('createPhaseTools: concurrency', () => {
  it('ends concurrent calls, in any interleaving, in the state of a serial order of the calls that succeeded', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.constantFrom(...STARTS),
        fc.constantFrom(todosYaml(5), todosYaml(4)),
        fc.array(call, { minLength: 2, maxLength: 4 }),
        async (s, start, todos, calls) => {
          const live = setup(start, todos, (run) => s.schedule(Promise.resolve()).then(run));
          const pending = calls.map((c, i) =>
            s.schedule(Promise.resolve()).then(() => live.invoke(c, T0 + 10 * (i + 1))),
          );
          await s.waitFor(Promise.all(pending));
          const results = await Promise.all(pending);
          const succeeded = calls
            .map((c, i) => ({ c, i }))
            .filter((_, i) => results[i]?.success === true);
          const final = selectLatest(live.session, PhaseJob);
          const file = live.memory.files.get('todos.yaml');
          for (const result of results) expect(result.message.length).toBeLessThan(2000);
          let matched = false;
          for (const order of permutations(succeeded)) {
            const serial = setup(start, todos, (run) => run());
            let all = true;
            for (const { c, i } of order) {
              if (!(await serial.invoke(c, T0 + 10 * (i + 1))).success) all = false;
            }
            if (
              all &&
              JSON.stringify(selectLatest(serial.session, PhaseJob)) === JSON.stringify(final) &&
              serial.memory.files.get('todos.yaml') === file
            ) {
              matched = true;
              break;
            }
          }
          expect(
            matched,
            `no serial order of ${JSON.stringify(succeeded)} gives ${s.report().length} steps' state`,
          ).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  }, 60_000);

  it('never loses one of two concurrent completions, nor revives a job job_complete ended', async () => {
    const three = upTo(planned(startPhaseJob({ jobId: 'job-1', now: T0 }), T0), 3);
    const live = setup(three, todosYaml(5), (run) => run());
    const open = three.todos.filter((todo) => todo.status !== 'completed').slice(0, 2);
    const results = await Promise.all(
      open.map((todo) => live.invoke({ tool: 'todo_complete', id: todo.id }, T0 + 5)),
    );
    expect(results.map((result) => result.success)).toEqual([true, true]);
    const todos = selectLatest(live.session, PhaseJob)?.todos ?? [];
    for (const todo of open) {
      expect(todos.find((item) => item.id === todo.id)?.status).toBe('completed');
    }

    let release = (): void => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const racing = setup(strategic, todosYaml(5), async (run) => {
      await gate;
      return run();
    });
    const last = strategic.todos.filter((todo) => todo.status !== 'completed');
    await racing.invoke({ tool: 'todo_complete', id: last[0]?.id ?? 0 }, T0 + 1);
    const handOff = racing.invoke({ tool: 'todo_complete', id: last[1]?.id ?? 0 }, T0 + 2);
    const ending = racing.invoke({ tool: 'job_complete' }, T0 + 3);
    release();
    const [handed, ended] = await Promise.all([handOff, ending]);
    // The calls ran in order: the hand-off moved to tactical, where job_complete is refused.
    expect(handed.success).toBe(true);
    expect(ended.success).toBe(false);
    expect(selectLatest(racing.session, PhaseJob)?.phase).toBe('tactical');
  });
});
