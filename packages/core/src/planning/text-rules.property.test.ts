import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invokeTool } from '../invoke-tool.ts';
import { selectAll } from '../select-all.ts';
import { selectLatest } from '../select-latest.ts';
import { Session } from '../session.ts';
import { snapshotFromJSON } from '../snapshot-from-json.ts';
import { snapshotToJSON } from '../snapshot-to-json.ts';
import { ToolCall } from '../tool-call.ts';
import { parsePlanView } from '../view/parse-plan-view.ts';
import { planView } from '../view/plan-view.ts';
import { checkPlan } from './check-plan.ts';
import { createPlanningTools } from './create-planning-tools.ts';
import { Plan } from './plan.ts';
import { registerPlanModelReducers } from './register-plan-model-reducers.ts';
import { trimText } from './text-rules.ts';

// Full-Unicode text in the unicode-mode tools: whatever they accept survives every path a plan
// is kept by, byte for byte after NFC; whatever they refuse changes nothing.

const pieces = fc.constantFrom(
  'e',
  '\u0301',
  '\u0302',
  'A\u030a',
  '\u00e9',
  '\u{1f680}',
  '\u{1f468}\u200d\u{1f469}',
  '\u2764\ufe0f',
  '\ufe0f',
  '\u7ffb\u8a33',
  '\u0645\u06cc\u200c',
  '\u2000',
  ' ',
  '\u3000',
  '\u202e',
  '\u200b',
  '\u{e0041}',
  '\ud800',
  '\u2028',
  '\ufeff',
  '\u0085',
  '\ufdd0',
  '\u{1d11e}',
  '\uac00\u11a8',
  '\u1100\u1161',
);
const unicodeText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 24 }),
  fc.string({ unit: 'binary', maxLength: 16 }),
  fc.array(pieces, { maxLength: 10 }).map((parts) => parts.join('')),
  fc
    .tuple(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }), pieces)
    .map(([a, b]) => `${a}${b}${a}`),
);

type Field = 'objective' | 'title' | 'details' | 'note';
const FIELDS: readonly Field[] = ['objective', 'title', 'details', 'note'];

function unicodeSession(clock = 0) {
  let now = clock;
  const session = new Session({ sessionId: 'unicode', clock: () => now++ });
  const tools = createPlanningTools(session, { text: 'unicode' });
  return { session, tools };
}

/** The plan's text in `field`: the objective, the first step's title or details, its last note. */
function fieldOf(plan: Plan | undefined, field: Field): string | null | undefined {
  if (field === 'objective') return plan?.objective;
  const step = plan?.steps[0];
  if (field === 'note') return step?.notes.at(-1);
  return step?.[field];
}

describe('the unicode text mode (properties)', () => {
  it('stores accepted text in NFC, and it survives JSON, log replay, restore and the plan view byte for byte; refused text changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...FIELDS), unicodeText, async (field, text) => {
        const { session, tools } = unicodeSession();
        const setUp = await invokeTool(
          tools.planning_setup_plan,
          { objective: 'o', initial_steps: [{ title: 't' }] },
          { session },
        );
        expect(setUp.success).toBe(true);
        const before = session.snapshot();
        const result =
          field === 'objective'
            ? await invokeTool(
                tools.planning_setup_plan,
                { objective: text, initial_steps: [{ title: 't' }] },
                { session },
              )
            : field === 'note'
              ? await invokeTool(
                  tools.planning_mark_step,
                  { step_id: 'S001', status: 'in_progress', note: text },
                  { session },
                )
              : await invokeTool(
                  tools.planning_update_step,
                  { step_id: 'S001', [field]: text },
                  { session },
                );
        if (!result.success) {
          expect(session.snapshot()).toBe(before);
          expect(session.snapshot().revision).toBe(before.revision);
          return;
        }
        const plan = selectLatest(session, Plan);
        const stored = fieldOf(plan, field);
        const expected = trimText(text.normalize('NFC'));
        // Blank details are stored as null, as in ascii mode.
        if (field === 'details' && expected === '') expect(stored).toBeNull();
        else expect(stored).toBe(expected);
        if (typeof stored === 'string') expect(stored.normalize('NFC')).toBe(stored);

        // JSON round trip of the whole session.
        const json = JSON.stringify(snapshotToJSON(session.snapshot()));
        const restored = snapshotFromJSON(json, unicodeSession().session);
        expect(restored).toEqual({ ok: true, value: session.snapshot() });

        // The tool-call log replayed into a fresh session.
        const replay = unicodeSession(1_000_000);
        for (const entry of selectAll(session, ToolCall)) {
          const tool = replay.tools.find((candidate) => candidate.name === entry.tool);
          if (tool === undefined) throw new Error(`unknown tool ${entry.tool}`);
          const replayed = await invokeTool(tool, entry.params, {
            session: replay.session,
            now: entry.at,
          });
          expect(replayed.success).toBe(true);
        }
        expect(replay.session.snapshot().slices).toEqual(session.snapshot().slices);

        // The plan restored by hand (the model's rules) and checked by the tools' mode.
        const target = new Session();
        registerPlanModelReducers(target);
        expect(target.dispatch(Plan, JSON.parse(JSON.stringify(plan))).ok).toBe(true);
        expect(fieldOf(selectLatest(target, Plan), field)).toBe(stored);
        expect(checkPlan(plan, { text: 'unicode' }).ok).toBe(true);

        // The plan view, through JSON and back.
        const view = planView(session);
        const read = parsePlanView(JSON.parse(JSON.stringify(view)));
        expect(read).toEqual({ ok: true, value: view });
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it('decomposed and precomposed text are one text once stored', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
        async (text) => {
          const titles = [text.normalize('NFD'), text.normalize('NFC')];
          const stored: (string | undefined)[] = [];
          for (const title of titles) {
            const { session, tools } = unicodeSession();
            const result = await invokeTool(
              tools.planning_setup_plan,
              { objective: 'o', initial_steps: [{ title }] },
              { session },
            );
            stored.push(result.success ? selectLatest(session, Plan)?.steps[0]?.title : undefined);
          }
          expect(stored[0]).toBe(stored[1]);
        },
      ),
      { numRuns: 200 },
    );
  });
});
