import {
  type AnyTool,
  createPlanningTools,
  invokeTool,
  Plan,
  type Result,
  Session,
  selectLatest,
  snapshotFromJSON,
  snapshotToJSON,
} from '@plankit/core';
import { trimText } from '@plankit/core/internal-unstable';
import { history, planHistory } from '@plankit/core/plan-model';
import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { warnWhenSkipped } from '../postgres/testing/postgres-url.ts';
import { attachStore } from './attach-store.ts';
import type { SessionStore } from './session-store.ts';
import type { StoreError } from './store-error.ts';
import { ok } from './testing/store-contract.ts';
import { type StoreKind, storeKinds } from './testing/store-kinds.ts';

warnWhenSkipped('The PostgresStore Unicode properties');

const NOW = 1_700_000_000_000;

// Pieces a plan in any language is made of: scripts of every plane, combining marks (alone,
// stacked, before and after their base), emoji sequences (ZWJ, skin tones, presentation
// selectors), right-to-left text, and characters the tools refuse or normalise away.
const piece = fc.constantFrom(
  'e',
  '\u0301',
  '\u0308\u0323',
  'A\u030A',
  '\u00C5',
  '\u212B',
  '\uFB01',
  '日本語',
  '翻訳',
  'ｶﾀｶﾅ',
  '한국어',
  'שלום',
  'مرحبا',
  '🚀',
  '👩\u200D💻',
  '👍\u{1F3FD}',
  '❤\uFE0F',
  '\uFE0F',
  '葛\u{E0100}',
  'a\u200Cb',
  '𝔘𝔫𝔦',
  '\u{20000}',
  ' ',
  '\u3000',
  '’',
  '—',
  '\u202E',
  '\u2066',
  '\u200B',
  '\u00AD',
  '\u{E0041}',
  '\u2028',
  '\uFEFF',
  '\uFDD0',
  '\u{1FFFF}',
  '\u0085',
  '\u0000',
  '\n',
  '\ud800',
);
const text: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }), weight: 2 },
  {
    arbitrary: fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => parts.join('')),
    weight: 4,
  },
  { arbitrary: fc.constantFrom('x'.repeat(160), '日'.repeat(160), '🚀'.repeat(161)), weight: 1 },
);

/** What the tools store for `value`: NFC, then trimmed (step ids and agent ids stay ASCII). */
const stored = (value: string): string => trimText(value.normalize('NFC'));

interface Call {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  /** Where the text of the call lands in the plan when it succeeds. */
  readonly read: (plan: Plan | undefined, session: Session) => unknown;
  /** The text the call sent there. */
  readonly sent: string;
}

const calls: fc.Arbitrary<Call> = fc.oneof(
  text.map(
    (value): Call => ({
      tool: 'planning_setup_plan',
      args: { objective: value, initial_steps: [{ title: 'Start' }], explanation: 'start' },
      read: (plan) => plan?.objective,
      sent: value,
    }),
  ),
  text.map(
    (value): Call => ({
      tool: 'planning_add_step',
      args: { steps: [{ title: value }], explanation: 'add' },
      read: (plan) => plan?.steps.at(-1)?.title,
      sent: value,
    }),
  ),
  text.map(
    (value): Call => ({
      tool: 'planning_add_step',
      args: { steps: [{ title: 'Step', details: value }], explanation: 'add' },
      read: (plan) => plan?.steps.at(-1)?.details,
      sent: value,
    }),
  ),
  text.map(
    (value): Call => ({
      tool: 'planning_mark_step',
      args: { step_id: 'S001', status: 'in_progress', note: value, explanation: 'note' },
      read: (plan) => plan?.steps[0]?.notes.at(-1),
      sent: value,
    }),
  ),
  text.map(
    (value): Call => ({
      tool: 'planning_update_step',
      args: { step_id: 'S001', title: 'Renamed', explanation: value },
      read: (_plan, session) => planHistory(session).at(-1)?.explanation,
      sent: value,
    }),
  ),
);

/** Runs per property: fewer for a real server, whose round trips cost more. */
const RUNS: Readonly<Record<StoreKind['name'], number>> = {
  MemoryStore: 40,
  FileStore: 25,
  PostgresStore: 10,
};

const STORES = storeKinds('plankit-unicode-');

let sessions = 0;

/** A session with the planning tools in Unicode mode and the plan history. */
function unicodeSession(sessionId: string): { session: Session; tools: readonly AnyTool[] } {
  let tick = NOW;
  const session = new Session({ sessionId, clock: () => tick++ });
  const tools = createPlanningTools(session, {
    text: 'unicode',
    extensions: [history({ agent: 'lead' })],
  });
  return { session, tools };
}

function unwrap<T>(result: Result<T, Error>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

/** The session's state read back through fromJSON, the store's log, and a snapshot. */
async function expectReadsBack(first: Session, store: SessionStore): Promise<void> {
  const id = first.sessionId;
  const state = first.snapshot().slices;
  const read = snapshotFromJSON(
    JSON.stringify(snapshotToJSON(first.snapshot())),
    unicodeSession(id).session,
  );
  expect(read.ok && read.value.slices, read.ok ? '' : read.error.message).toEqual(state);
  const errors: StoreError[] = [];
  const onError = (error: StoreError) => errors.push(error);
  const second = unicodeSession(id).session;
  const replayed = unwrap(await attachStore(second, store, { onError }));
  expect(second.snapshot().slices).toEqual(state);
  if (first.snapshot().revision > 0) ok(await replayed.checkpoint());
  ok(await replayed.detach());
  const third = unicodeSession(id).session;
  const fromSnapshot = unwrap(await attachStore(third, store, { onError }));
  expect(fromSnapshot.issues).toEqual([]);
  expect(third.snapshot().slices).toEqual(state);
  ok(await fromSnapshot.detach());
  expect(errors.map((error) => error.message)).toEqual([]);
}

for (const kind of STORES) {
  describe.skipIf(kind.skip)(`Unicode plan text through ${kind.label}`, () => {
    let store: SessionStore;
    let dispose: () => Promise<void>;

    beforeAll(async () => {
      ({ store, dispose } = await kind.open());
    });

    afterAll(async () => {
      await dispose?.();
    });

    it('accepted text reads back exactly as stored (NFC, trimmed); refused text changes nothing', async () => {
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(calls, { minLength: 1, maxLength: 8 }),
          fc.constantFrom(1, 3, Number.POSITIVE_INFINITY),
          async (script, snapshotEvery) => {
            const { session, tools } = unicodeSession(`unicode-${++sessions}`);
            const attachment = unwrap(await attachStore(session, store, { snapshotEvery }));
            await invokeTool(
              tools.find((tool) => tool.name === 'planning_setup_plan') as AnyTool,
              { objective: '計画', initial_steps: [{ title: '最初' }] },
              { session },
            );
            for (const call of script) {
              const tool = tools.find((candidate) => candidate.name === call.tool) as AnyTool;
              const before = session.snapshot();
              const result = await invokeTool(tool, call.args, { session });
              expect(result.message.length).toBeLessThan(2_000);
              // Blank optional text (details, an explanation) is stored as null.
              const expected = stored(call.sent) === '' ? null : stored(call.sent);
              if (result.success) {
                accepted++;
                expect(call.read(selectLatest(session, Plan), session)).toBe(expected);
              } else expect(session.snapshot()).toBe(before);
            }
            ok(await attachment.detach());
            await expectReadsBack(session, store);
          },
        ),
        { numRuns: RUNS[kind.name] },
      );
      // The generators reach text the tools accept, not only refusals.
      expect(accepted).toBeGreaterThan(RUNS[kind.name]);
    }, 120_000);

    it('a title sent decomposed (e and U+0301) and one sent precomposed are the same title once stored', async () => {
      const plans: unknown[] = [];
      for (const title of ['Cafe\u0301 menu', 'Caf\u00E9 menu']) {
        const { session, tools } = unicodeSession(`cafe-${++sessions}`);
        const attachment = unwrap(await attachStore(session, store));
        const setup = tools.find((tool) => tool.name === 'planning_setup_plan') as AnyTool;
        const result = await invokeTool(
          setup,
          { objective: title, initial_steps: [{ title, details: title }] },
          { session },
        );
        expect(result.success, result.message).toBe(true);
        ok(await attachment.detach());
        const again = unicodeSession(session.sessionId).session;
        ok(await unwrap(await attachStore(again, store)).detach());
        plans.push(selectLatest(again, Plan));
      }
      expect(plans[0]).toEqual(plans[1]);
      expect((plans[0] as Plan).steps[0]?.title).toBe('Caf\u00E9 menu');
      expect(Buffer.from((plans[0] as Plan).objective, 'utf8')).toEqual(
        Buffer.from('Caf\u00E9 menu', 'utf8'),
      );
    });
  });
}
