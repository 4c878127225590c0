import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineDataType } from './define-data-type.ts';
import { type AnyTool, defineTool } from './define-tool.ts';
import { invokeTool } from './invoke-tool.ts';
import { createPlanningTools } from './planning/create-planning-tools.ts';
import { selectAll } from './select-all.ts';
import { Session } from './session.ts';
import { ToolCall } from './tool-call.ts';
import type { ToolResult } from './tool-result.ts';

const Note = defineDataType('test.property.Note', z.strictObject({ text: z.string() }));

/** The six planning tools and an asynchronous tool whose handler waits for `delay`. */
function toolbox(delay: () => Promise<unknown>, inProgress: 'any' | 'single') {
  let now = 0;
  const session = new Session({ sessionId: 'prop', clock: () => now++ });
  session.register(Note, (slice, { value }) => [...slice, value]);
  const planning = createPlanningTools(session, { inProgress });
  const note = defineTool({
    name: 'note_add',
    description: 'Add a note after an asynchronous wait.',
    parameters: z.strictObject({ text: z.string() }),
    resultType: Note,
    handler: async ({ text }) => {
      await delay();
      return { message: `Noted ${text}.`, value: { text } };
    },
  });
  const tools: readonly AnyTool[] = [...planning, note];
  return { session, tools };
}

const title = fc.constantFrom('a', 'b', 'write tests', '  padded ', '');
const stepId = fc.constantFrom('S001', 'S002', 'S003', 'S004', 'S009', ' S002 ');
const status = fc.constantFrom('pending', 'in_progress', 'blocked', 'done');
const call = fc.oneof(
  fc.record({
    tool: fc.constant(0),
    args: fc.record({
      objective: title,
      initial_steps: fc.array(fc.record({ title }), { maxLength: 3 }),
    }),
  }),
  fc.record({
    tool: fc.constant(1),
    args: fc.record({ steps: fc.array(fc.record({ title }), { maxLength: 2 }) }),
  }),
  fc.record({ tool: fc.constant(2), args: fc.record({ step_id: stepId, title }) }),
  fc.record({
    tool: fc.constant(3),
    args: fc.record({ step_id: stepId, status, note: fc.option(title) }),
  }),
  fc.record({ tool: fc.constantFrom(4, 5), args: fc.constant({}) }),
  fc.record({ tool: fc.constant(6), args: fc.record({ text: title }) }),
);

describe('invokeTool properties', () => {
  it('concurrent calls on one session, in any interleaving, end as some serial order of the calls that succeeded', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        // Batches: the calls of one batch start in the same tick; the scheduler orders the
        // batches and every wait of the asynchronous tool.
        fc.array(fc.array(call, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 }),
        fc.constantFrom('any' as const, 'single' as const),
        async (s, batches, inProgress) => {
          const live = toolbox(() => s.schedule(Promise.resolve()), inProgress);
          const pending = batches.map((batch, index) =>
            s
              .schedule(Promise.resolve(), `batch ${index}`)
              .then(() =>
                Promise.all(
                  batch.map(({ tool, args }) =>
                    invokeTool(live.tools[tool] as AnyTool, args, { session: live.session }),
                  ),
                ),
              ),
          );
          await s.waitAll();
          const results: ToolResult<unknown>[] = (await Promise.all(pending)).flat();

          // The log holds exactly the calls that reported success, in commit order...
          const log = selectAll(live.session, ToolCall);
          const succeeded = results.filter((result) => result.success);
          const key = (entry: { message: string; value: unknown }) =>
            JSON.stringify([entry.message, entry.value]);
          expect(log.map((entry) => key(entry.result)).sort()).toEqual(succeeded.map(key).sort());

          // ...and running them one by one in that order gives the same answers and state.
          const serial = toolbox(() => Promise.resolve(), inProgress);
          for (const entry of log) {
            const tool = serial.tools.find((candidate) => candidate.name === entry.tool) as AnyTool;
            const again = await invokeTool(tool, entry.params, {
              session: serial.session,
              now: entry.at,
            });
            expect(again).toEqual(entry.result);
          }
          expect(serial.session.snapshot().slices).toEqual(live.session.snapshot().slices);
        },
      ),
      { numRuns: 150 },
    );
  });

  // Built once: each is expensive to make and to refuse.
  const MEGA = 'x'.repeat(1_048_576);
  const HUGE_ARRAY = Array.from({ length: 100_000 }, (_, i) => ({ title: i }));
  let deep: unknown = {};
  for (let i = 0; i < 10_000; i++) deep = { steps: [deep] };
  const hostileLeaf = fc.oneof(
    fc.anything({ withNullPrototype: true, withObjectString: true, maxDepth: 3 }),
    fc.constantFrom(
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '\u0000',
      'a\nb',
      '\ud800',
      MEGA,
      `S${'9'.repeat(400)}`,
    ),
  );
  const hostileArgs = fc.oneof(
    hostileLeaf,
    fc.constantFrom(
      { steps: HUGE_ARRAY },
      { initial_steps: HUGE_ARRAY, objective: 'o' },
      deep,
      JSON.parse('{"__proto__":{"polluted":true},"objective":"o"}'),
      { [MEGA]: 1 },
    ),
    fc.dictionary(
      fc.constantFrom(
        'objective',
        'initial_steps',
        'steps',
        'step_id',
        'title',
        'details',
        'status',
        'note',
        '__proto__',
        'text',
      ),
      fc.oneof(
        hostileLeaf,
        fc.array(fc.dictionary(fc.constantFrom('title', 'details', '__proto__'), hostileLeaf)),
      ),
    ),
  );

  it('every refusal message is under 2,000 characters and leaves the state unchanged', async () => {
    const { session, tools } = toolbox(() => Promise.resolve(), 'single');
    await invokeTool(
      tools[0] as AnyTool,
      { objective: 'o', initial_steps: [{ title: 'a' }] },
      { session },
    );
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: tools.length - 1 }), hostileArgs, async (index, args) => {
        const before = session.snapshot();
        const result = await invokeTool(tools[index] as AnyTool, args, { session });
        if (result.success) return;
        expect(result.message.length).toBeLessThan(2_000);
        expect(result.error.message.length).toBeLessThan(2_000);
        expect(session.snapshot()).toBe(before);
      }),
      { numRuns: 200 },
    );
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  }, 120_000);
});
