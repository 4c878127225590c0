import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnyTool } from '../../define-tool.ts';
import { invokeTool } from '../../invoke-tool.ts';
import { batch, dependencies } from '../../plan-model.ts';
import { selectLatest } from '../../select-latest.ts';
import { Session } from '../../session.ts';
import { snapshotFromJSON } from '../../snapshot-from-json.ts';
import { snapshotToJSON } from '../../snapshot-to-json.ts';
import { binaryString } from '../../testing/binary-string.ts';
import { createPlanningTools } from '../create-planning-tools.ts';
import { Plan } from '../plan.ts';
import { findCycle } from './dependency-problem.ts';
import { renderPlanMermaid } from './render-plan-mermaid.ts';

function planning() {
  const session = new Session({ sessionId: 'p', clock: () => 1_700_000_000_000 });
  const tools = createPlanningTools(session, {
    inProgress: 'single',
    extensions: [dependencies(), batch()],
  });
  return { session, tools, plan: () => selectLatest(session, Plan) };
}

const id = fc.integer({ min: 1, max: 9 }).map((n) => `S00${n}`);
const edit = fc.oneof(
  fc.record({
    kind: fc.constant('update' as const),
    step: id,
    deps: fc.array(id, { maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant('add' as const), deps: fc.array(id, { maxLength: 3 }) }),
  fc.record({
    kind: fc.constant('mark' as const),
    step: id,
    status: fc.constantFrom('pending', 'in_progress', 'blocked', 'done'),
  }),
);
type Edit = typeof edit extends fc.Arbitrary<infer T> ? T : never;

// One edit as a batch operation, and as the arguments of the single tool that makes it.
const operation = (e: Edit): Record<string, unknown> =>
  e.kind === 'update'
    ? { op: 'update', step_id: e.step, depends_on: e.deps }
    : e.kind === 'add'
      ? { op: 'add', title: 'x', depends_on: e.deps }
      : { op: 'mark', step_id: e.step, status: e.status };
const singleArgs = (e: Edit): Record<string, unknown> => {
  const { op: _op, ...args } = operation(e);
  return e.kind === 'add' ? { steps: [args] } : args;
};

const setup = { objective: 'o', initial_steps: [{ title: 'a' }, { title: 'b' }, { title: 'c' }] };

describe('dependencies and batches (properties)', () => {
  it('random dependency edits keep the graph acyclic, every invariant, and a lossless round trip', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { maxLength: 20 }), async (edits) => {
        const { session, tools, plan } = planning();
        await invokeTool(tools.planning_setup_plan, setup, { session });
        for (const e of edits) {
          const before = plan();
          const tool =
            e.kind === 'update'
              ? tools.planning_update_step
              : e.kind === 'add'
                ? tools.planning_add_step
                : tools.planning_mark_step;
          const result = await invokeTool(tool as AnyTool, singleArgs(e), { session });
          if (!result.success) expect(plan()).toBe(before);
          expect(result.message.length).toBeLessThan(2000);
          const current = plan() as Plan;
          expect(Plan.safeParse(current).success).toBe(true);
          const index = new Map(current.steps.map((s, i) => [s.step_id, i]));
          const edges = current.steps.map((s) =>
            (s.depends_on ?? []).map((d) => index.get(d) as number),
          );
          expect(findCycle(edges)).toBeUndefined();
        }
        const text = JSON.stringify(snapshotToJSON(session.snapshot()));
        expect(snapshotFromJSON(text, planning().session)).toEqual({
          ok: true,
          value: session.snapshot(),
        });
      }),
      { numRuns: 100 },
    );
  });

  it('a batch equals its operations applied in sequence when all succeed, and changes nothing when any fails', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 8 }), async (edits) => {
        const batched = planning();
        const serial = planning();
        await invokeTool(batched.tools.planning_setup_plan, setup, { session: batched.session });
        await invokeTool(serial.tools.planning_setup_plan, setup, { session: serial.session });
        const before = batched.plan();
        const result = await invokeTool(
          batched.tools.planning_apply_batch,
          { operations: edits.map(operation) },
          { session: batched.session },
        );
        let allOk = true;
        for (const e of edits) {
          const tool =
            e.kind === 'update'
              ? serial.tools.planning_update_step
              : e.kind === 'add'
                ? serial.tools.planning_add_step
                : serial.tools.planning_mark_step;
          const one = await invokeTool(tool as AnyTool, singleArgs(e), {
            session: serial.session,
          });
          allOk &&= one.success;
        }
        expect(result.success).toBe(allOk);
        expect(result.message.length).toBeLessThan(2000);
        if (allOk) expect(batched.plan()).toEqual(serial.plan());
        else expect(batched.plan()).toBe(before);
      }),
      { numRuns: 150 },
    );
  });

  it('renderPlanMermaid: every label stays in its quotes, holds no %%, and shows the title as written (property)', () => {
    // Mermaid's entity escapes, read back as it reads them: `#35;` is `#`, `#quot;` is `"`.
    const NAMED: Readonly<Record<string, string>> = { quot: '"', lt: '<', gt: '>' };
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the controls a label shows as spaces
    const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
    const decode = (label: string): string =>
      label.replace(/#(\w+);/g, (whole, name: string) =>
        /^\d+$/.test(name) ? String.fromCharCode(Number(name)) : (NAMED[name] ?? whole),
      );
    const text = fc.string({
      unit: fc.oneof(
        fc.constantFrom('%', '#', '"', '<', '>', '{', '}', ';', ':', '-', '[', ']', ' '),
        fc.constantFrom('%%{init: {}}%%', '#quot;', '#37;', '-->', 'click n0 call alert()'),
        binaryString({ minLength: 1, maxLength: 1 }),
      ),
      minLength: 1,
      maxLength: 40,
    });
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), (titles) => {
        const plan: Plan = {
          objective: 'o',
          status: 'active',
          steps: titles.map((title, i) => ({
            step_id: `S00${i + 1}`,
            title,
            details: null,
            status: 'pending',
            notes: [],
          })),
        };
        const lines = renderPlanMermaid(plan).split('\n');
        expect(lines).toHaveLength(1 + titles.length + 4);
        titles.forEach((title, i) => {
          const match = /^ {2}n(\d+)\["([^"]*)"\]:::pending$/.exec(lines[i + 1] ?? '');
          expect(match?.[1]).toBe(String(i));
          const label = match?.[2] ?? '';
          expect(label).not.toContain('%%');
          // Control characters (which the tools refuse) show as spaces.
          expect(decode(label)).toBe(`S00${i + 1} [pending] ${title.replace(CONTROL, ' ')}`);
        });
      }),
      { numRuns: 300 },
    );
  });
});
