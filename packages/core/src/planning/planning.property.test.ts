import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invokeTool } from '../invoke-tool.ts';
import { selectAll } from '../select-all.ts';
import { selectLatest } from '../select-latest.ts';
import { Session } from '../session.ts';
import { snapshotFromJSON } from '../snapshot-from-json.ts';
import { snapshotToJSON } from '../snapshot-to-json.ts';
import { binaryString } from '../testing/binary-string.ts';
import { ToolCall } from '../tool-call.ts';
import { createPlanningTools, type PlanningTools } from './create-planning-tools.ts';
import { Plan } from './plan.ts';
import { formatStepId } from './step-id.ts';

const TOOLS = ['setup', 'add', 'update', 'mark', 'clear', 'read'] as const;
type Name = (typeof TOOLS)[number];
interface Command {
  readonly tool: Name;
  readonly args: unknown;
}

// Mostly valid input, so most calls succeed and reach the reducers; the rest probes every refusal.
const validText = fc.constantFrom('a', 'write tests', 'ship it', ' padded ', 'x'.repeat(160));
const invalidText = fc.oneof(
  fc.constantFrom('', '   ', 'caf\u00e9', '\u3000', 'x'.repeat(161), 'y'.repeat(241)),
  fc.string({ maxLength: 12 }),
);
const text = fc.oneof({ arbitrary: validText, weight: 5 }, { arbitrary: invalidText, weight: 1 });
const stepId = fc.oneof(
  { arbitrary: fc.constantFrom('S001', 'S002', 'S003', 'S004', 'S005', ' S002 '), weight: 6 },
  { arbitrary: fc.constantFrom('', 'S999', 's001', '\u00a7'), weight: 1 },
  { arbitrary: fc.string({ maxLength: 4 }), weight: 1 },
);
const status = fc.oneof(
  { arbitrary: fc.constantFrom('pending', 'in_progress', 'blocked', 'done'), weight: 8 },
  { arbitrary: fc.constant('finished'), weight: 1 },
);
const newStep = fc.record({ title: text, details: fc.option(text) }, { requiredKeys: ['title'] });
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.record({
      tool: fc.constant('setup' as const),
      args: fc.record(
        { objective: text, initial_steps: fc.array(newStep, { maxLength: 4 }) },
        { requiredKeys: ['objective'] },
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      tool: fc.constant('add' as const),
      args: fc.record({ steps: fc.array(newStep, { minLength: 1, maxLength: 3 }) }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      tool: fc.constant('update' as const),
      args: fc.record(
        { step_id: stepId, title: fc.option(text), details: fc.option(text) },
        { requiredKeys: ['step_id'] },
      ),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      tool: fc.constant('mark' as const),
      args: fc.record(
        { step_id: stepId, status, note: fc.option(text) },
        { requiredKeys: ['step_id', 'status'] },
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      tool: fc.constantFrom('clear' as const, 'read' as const),
      args: fc.constant({}),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      tool: fc.constantFrom(...TOOLS),
      args: fc.anything({ withNullPrototype: true, withObjectString: true }),
    }),
  },
);
// Start from a plan most of the time, or nearly every later call would meet "no plan".
const firstSetup: fc.Arbitrary<Command> = fc.record({
  tool: fc.constant('setup' as const),
  args: fc.record({
    objective: validText,
    initial_steps: fc.array(fc.record({ title: validText }), { minLength: 1, maxLength: 4 }),
  }),
});
const commands = fc
  .tuple(fc.option(firstSetup, { freq: 8 }), fc.array(command, { maxLength: 30 }))
  .map(([first, rest]) => (first === null ? rest : [first, ...rest]));

function planning(clock = 0) {
  let now = clock;
  const session = new Session({ sessionId: 'prop', clock: () => now++ });
  const tools = createPlanningTools(session);
  return { session, tools };
}

function toolOf(tools: PlanningTools, name: Name) {
  return tools[TOOLS.indexOf(name)] as PlanningTools[number];
}

function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (!Object.isFrozen(value)) return false;
  return Object.values(value).every(isDeepFrozen);
}

const stepNumber = (id: string) => Number(id.slice(1));

describe('planning properties', () => {
  it('a failed call leaves every slice identical; ids stay unique and increasing; snapshots stay frozen', async () => {
    await fc.assert(
      fc.asyncProperty(commands, async (sequence) => {
        const { session, tools } = planning();
        for (const { tool, args } of sequence) {
          const before = session.snapshot();
          const result = await invokeTool(toolOf(tools, tool), args, { session });
          const after = session.snapshot();
          if (!result.success) expect(after).toBe(before);
          expect(isDeepFrozen(after)).toBe(true);
          const ids = selectLatest(session, Plan)?.steps.map((step) => step.step_id) ?? [];
          for (const id of ids) expect(id).toMatch(/^S\d{3,}$/);
          for (let i = 1; i < ids.length; i++)
            expect(stepNumber(ids[i] as string)).toBeGreaterThan(stepNumber(ids[i - 1] as string));
          expect(selectAll(session, Plan).length).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('replaying the tool-call log into a fresh session reproduces the same state', async () => {
    await fc.assert(
      fc.asyncProperty(commands, async (sequence) => {
        const original = planning();
        for (const { tool, args } of sequence)
          await invokeTool(toolOf(original.tools, tool), args, { session: original.session });
        const replay = planning(1_000_000);
        for (const entry of selectAll(original.session, ToolCall)) {
          const tool = replay.tools.find((candidate) => candidate.name === entry.tool);
          if (tool === undefined) throw new Error(`unknown tool ${entry.tool}`);
          const result = await invokeTool(tool, entry.params, {
            session: replay.session,
            now: entry.at,
          });
          expect(result.success).toBe(true);
        }
        expect(replay.session.snapshot().slices).toEqual(original.session.snapshot().slices);
      }),
      { numRuns: 100 },
    );
  });

  it('the JSON snapshot round trip is lossless', async () => {
    await fc.assert(
      fc.asyncProperty(commands, async (sequence) => {
        const { session, tools } = planning();
        for (const { tool, args } of sequence)
          await invokeTool(toolOf(tools, tool), args, { session });
        const text = JSON.stringify(snapshotToJSON(session.snapshot()));
        const restored = snapshotFromJSON(text, planning().session);
        expect(restored).toEqual({ ok: true, value: session.snapshot() });
      }),
      { numRuns: 100 },
    );
  });

  // Any text at all, control characters and lone surrogates included.
  const anyText = fc.oneof(
    binaryString({ maxLength: 12 }),
    fc.constantFrom('ok', 'a\u0000b', 'line\nbreak', '\ud800', 'tab\t', 'del\u007f', ' x '),
  );
  const anyCommand: fc.Arbitrary<Command> = fc.oneof(
    fc.record({
      tool: fc.constant('setup' as const),
      args: fc.record({
        objective: anyText,
        initial_steps: fc.array(fc.record({ title: anyText, details: fc.option(anyText) }), {
          maxLength: 3,
        }),
      }),
    }),
    fc.record({
      tool: fc.constant('add' as const),
      args: fc.record({ steps: fc.array(fc.record({ title: anyText }), { maxLength: 2 }) }),
    }),
    fc.record({
      tool: fc.constant('update' as const),
      args: fc.record({ step_id: fc.oneof(stepId, anyText), title: anyText, details: anyText }),
    }),
    fc.record({
      tool: fc.constant('mark' as const),
      args: fc.record({ step_id: fc.oneof(stepId, anyText), status, note: anyText }),
    }),
  );

  it('whatever the tools accept, whatever the text, round-trips through JSON exactly', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anyCommand, { maxLength: 20 }), async (sequence) => {
        const { session, tools } = planning();
        for (const { tool, args } of sequence)
          await invokeTool(toolOf(tools, tool), args, { session });
        const text = JSON.stringify(snapshotToJSON(session.snapshot()));
        expect(text).not.toMatch(/\\u0000|\\ud[89ab]/);
        const restored = snapshotFromJSON(text, planning().session);
        expect(restored).toEqual({ ok: true, value: session.snapshot() });
      }),
      { numRuns: 200 },
    );
  });

  const SAFE = Number.MAX_SAFE_INTEGER;
  const restoredId = fc.oneof(
    fc.integer({ min: 0, max: 2_000 }).map(formatStepId),
    fc.constantFrom(SAFE - 2, SAFE - 1, SAFE, SAFE + 1, 2 ** 53 + 2).map((n) => `S${String(n)}`),
    fc.constantFrom('Sabc', 'S12x', `S${'9'.repeat(400)}`, 'S001', ''),
    fc.string({ maxLength: 6 }),
  );
  const restoredPlan = fc.record({
    objective: fc.constantFrom('o', 'a\u0000'),
    status: fc.constantFrom('active', 'completed', 'abandoned'),
    steps: fc.array(
      fc.record({
        step_id: restoredId,
        title: fc.constant('t'),
        details: fc.constant(null),
        status: fc.constantFrom('pending', 'done'),
        notes: fc.constant([]),
      }),
      { maxLength: 5 },
    ),
  });

  it('ids minted after any restored plan never collide', async () => {
    await fc.assert(
      fc.asyncProperty(
        restoredPlan,
        fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 4 }),
        async (plan, adds) => {
          const { session, tools } = planning();
          const restored = snapshotFromJSON(
            {
              format: 'plankit.session-snapshot',
              version: 1,
              sessionId: 'prop',
              revision: 1,
              slices: { 'plankit.Plan': [plan] },
            },
            session,
          );
          if (!restored.ok) return;
          expect(session.rollback(restored.value).ok).toBe(true);
          for (const count of adds) {
            const before = session.snapshot();
            const steps = Array.from({ length: count }, () => ({ title: 'new' }));
            const result = await invokeTool(toolOf(tools, 'add'), { steps }, { session });
            if (!result.success) expect(session.snapshot()).toBe(before);
            const ids = selectLatest(session, Plan)?.steps.map((step) => step.step_id) ?? [];
            expect(new Set(ids).size).toBe(ids.length);
            for (const id of ids) expect(id).not.toMatch(/Infinity|e\+/);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
