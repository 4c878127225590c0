import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineDataType } from './define-data-type.ts';
import { defineTool } from './define-tool.ts';
import { invokeTool } from './invoke-tool.ts';
import { selectAll } from './select-all.ts';
import { selectLatest } from './select-latest.ts';
import { selectWhere } from './select-where.ts';
import { Session } from './session.ts';
import type { SessionSnapshot } from './session-snapshot.ts';
import { snapshotFromJSON } from './snapshot-from-json.ts';
import { snapshotToJSON } from './snapshot-to-json.ts';
import { ToolCall } from './tool-call.ts';

const Note = defineDataType('test.log.Note', z.strictObject({ text: z.string() }));

const noteTool = defineTool({
  name: 'note_add',
  description: 'Add a note.',
  parameters: z.strictObject({ text: z.string() }),
  resultType: Note,
  handler: ({ text }) => ({ message: `Noted ${text}.`, value: { text } }),
});

const echoTool = defineTool({
  name: 'echo',
  description: 'Echo without a result type.',
  parameters: z.strictObject({ n: z.number() }),
  handler: ({ n }) => ({ message: 'ok', value: [n] }),
});

type Op =
  | { readonly kind: 'note'; readonly text: string }
  | { readonly kind: 'echo'; readonly n: number }
  | { readonly kind: 'rollback'; readonly to: number; readonly json: boolean };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('note'), text: fc.string() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('echo'), n: fc.integer() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('rollback'), to: fc.nat(), json: fc.boolean() }),
  },
);

const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('the tool-call log under calls, rollbacks and caps', () => {
  it('keeps every snapshot, rollback and JSON round trip exact (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
        fc.array(op, { maxLength: 160 }),
        async (cap, ops) => {
          let now = 0;
          const session = new Session({ clock: () => now++, maxLoggedCalls: cap });
          session.register(Note, (slice, { value }) => [...slice, value]);
          // Each kept snapshot with the plain data it held when it was taken.
          const kept: { snapshot: SessionSnapshot; data: unknown }[] = [
            { snapshot: session.snapshot(), data: plain(session.snapshot().slices) },
          ];
          let model: unknown[] = [];
          for (const step of ops) {
            if (step.kind === 'rollback') {
              const target = kept[step.to % kept.length] as (typeof kept)[number];
              let snapshot = target.snapshot;
              if (step.json) {
                const read = snapshotFromJSON(JSON.stringify(snapshotToJSON(snapshot)), session);
                if (!read.ok) throw read.error;
                snapshot = read.value;
              }
              const rolled = session.rollback(snapshot);
              if (!rolled.ok) throw rolled.error;
              expect(plain(session.snapshot().slices)).toEqual(target.data);
              model = [...selectAll(target.snapshot, ToolCall)];
            } else {
              const result =
                step.kind === 'note'
                  ? await invokeTool(noteTool, { text: step.text }, { session })
                  : await invokeTool(echoTool, { n: step.n }, { session });
              if (!result.success) {
                // Only text no store can hold is refused, and then nothing changed.
                expect(result.message).toMatch(/U\+0000|surrogate/);
              } else {
                model = [...model, selectLatest(session, ToolCall)];
                if (cap !== undefined && model.length > cap) model = model.slice(-cap);
              }
            }
            const log = selectAll(session, ToolCall);
            expect(log).toEqual(model);
            expect(Object.isFrozen(log)).toBe(true);
            expect(selectLatest(session, ToolCall)).toBe(log[log.length - 1]);
            expect(selectWhere(session, ToolCall, () => true)).toEqual(log);
            kept.push({ snapshot: session.snapshot(), data: plain(session.snapshot().slices) });
          }
          // No later change reached an earlier snapshot.
          for (const { snapshot, data } of kept) expect(plain(snapshot.slices)).toEqual(data);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('keeps the newest maxLoggedCalls entries and refuses a bad cap', async () => {
    const session = new Session({ clock: () => 1, maxLoggedCalls: 2 });
    for (let n = 0; n < 5; n++) await invokeTool(echoTool, { n }, { session });
    expect(selectAll(session, ToolCall).map((call) => call.params)).toEqual([{ n: 3 }, { n: 4 }]);
    expect(session.maxLoggedCalls).toBe(2);
    for (const bad of [0, -1, 1.5, Number.NaN, '3'])
      expect(() => new Session({ maxLoggedCalls: bad as number })).toThrow(/maxLoggedCalls/);
  });

  it('refuses an invokeTool result value no store can hold, naming the field', async () => {
    const session = new Session({ clock: () => 1 });
    const bad = defineTool({
      name: 'bad',
      description: 'Returns U+0000.',
      parameters: z.strictObject({}),
      handler: () => ({ message: 'ok', value: { deep: ['\u0000'] } }),
    });
    const result = await invokeTool(bad, {}, { session });
    expect(result.success).toBe(false);
    expect(result.message).toContain('result.value.deep[0] must not contain U+0000');
    expect(session.snapshot().revision).toBe(0);
  });
});
