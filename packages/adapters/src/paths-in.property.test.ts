import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  checkPlan,
  createPlanningTools,
  formatStepId,
  invokeTool,
  MarkStep,
  Plan,
  renderPlan,
  Session,
  SetupPlan,
  selectLatest,
  snapshotFromJSON,
  type TextMode,
} from '@plankit/core';
import { MAX_STEP_NUMBER } from '@plankit/core/constants';
import {
  history,
  owners,
  PlanChange,
  type PlanRevision,
  planHistory,
  registerPlanHistory,
  registerPlanModelReducers,
  renderPlanDiff,
  renderPlanMermaid,
  renderPlanRevision,
} from '@plankit/core/plan-model';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryString } from '../../core/src/testing/binary-string.ts';
import { reducePlan } from './langgraph/plan-edit.ts';
import { reducePlanHistory } from './langgraph/plan-history-channel.ts';
import { attachStore } from './persistence/stores/attach-store.ts';
import { FileStore } from './persistence/stores/file-store.ts';
import { MemoryStore } from './persistence/stores/memory-store.ts';
import { SESSION_COMMITTED_EVENT } from './persistence/stores/replay-rules.ts';

// One set of text rules, wherever a value enters. Each hostile value is put into one
// field and sent through every path a value can enter by. The plan model's paths (a restored
// plan, a dispatched command, a store's replay) accept exactly the values the tools of either
// text mode could have stored, which are those the Unicode-mode tools store as sent; the paths
// held to a mode (checkPlan, the LangGraph channel: 'ascii' by default, as the tools) accept
// exactly those the tools of that mode store. No rendering of an accepted value may hold a
// line the value did not produce.

const MEGA = 'x'.repeat(1_000_000);

const hostile: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'a',
    ' a',
    'a ',
    'ok text',
    '\u0000',
    'a\u0000b',
    '\u001b[2J',
    'title\u001b[31m',
    'two\nlines',
    'x\r\n#2 plankit.Plan by evil',
    'tab\tx',
    'nel\u0085',
    'ls\u2028ps\u2029',
    'caf\u00e9',
    'cafe\u0301',
    'a\u202eb',
    'Caf\u00e9 menu',
    '翻訳を確認する',
    'Ship v2 🚀',
    'Don\u2019t forget tests',
    'Write the README \u2014 then ship',
    'abc\u202Etxt',
    'a\u2066b\u2069',
    'a\u200Fb',
    'zero\u200Bwidth',
    'soft\u00ADhyphen',
    'tag\u{E0041}\u{E007F}',
    '👩\u200D💻',
    'a\u200Cb',
    '❤\uFE0F',
    '\uFE0Fx',
    'x\uFE0F\uFE0F',
    'bom\uFEFF',
    'non\uFDD0char',
    'astral\u{1FFFF}',
    '\u3000ideographic\u3000',
    '日'.repeat(160),
    '日'.repeat(161),
    '🚀'.repeat(160),
    '🚀'.repeat(161),
    '\ud800',
    '__proto__',
    'constructor',
    '../../etc',
    'S001',
    'S1',
    'S0001',
    'S000',
    'S1000',
    'Sabc',
    `S${MAX_STEP_NUMBER}`,
    `S${MAX_STEP_NUMBER + 2}`,
    'lead',
    'agent-1',
    'x'.repeat(64),
    'x'.repeat(65),
    'x'.repeat(160),
    'x'.repeat(161),
    'x'.repeat(240),
    'x'.repeat(241),
    'x'.repeat(512),
    'x'.repeat(513),
    MEGA,
  ),
  fc.string({ maxLength: 12 }),
  binaryString({ maxLength: 8 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.stringMatching(/^S\d{1,5}$/),
  fc
    .array(fc.constantFrom('a', ' ', '\n', '\u001b', '\u0000', 'S', '0', '1', '_', '.', '/'), {
      maxLength: 10,
    })
    .map((parts) => parts.join('')),
);

type PlanField = 'objective' | 'title' | 'details' | 'note' | 'step_id' | 'owner';
type RevisionField = 'actor' | 'explanation';

function planWith(field: PlanField, value: string): Plan {
  const step = {
    step_id: field === 'step_id' ? value : 'S001',
    title: field === 'title' ? value : 't',
    details: field === 'details' ? value : 'd',
    status: 'pending' as const,
    notes: [field === 'note' ? value : 'n'],
    owner: field === 'owner' ? value : 'lead',
  };
  return { objective: field === 'objective' ? value : 'o', status: 'active', steps: [step] };
}

function revisionWith(field: RevisionField, value: string): PlanRevision {
  return {
    revision: 1,
    at: 0,
    command: 'plankit.ClearPlan',
    actor: field === 'actor' ? value : 'lead',
    explanation: field === 'explanation' ? value : 'why',
    diff: { objective: null, status: { before: 'active', after: 'abandoned' }, steps: [] },
  };
}

const attempt = (run: () => boolean): boolean => {
  try {
    return run();
  } catch {
    return false;
  }
};

const planSessionOf = (history = false) => {
  const session = new Session({ sessionId: 'paths-in', clock: () => 0 });
  registerPlanModelReducers(session);
  if (history) registerPlanHistory(session);
  return session;
};

const snapshotOf = (slices: Record<string, unknown[]>) => ({
  format: 'plankit.session-snapshot',
  version: 1,
  sessionId: 'paths-in',
  revision: 1,
  slices,
});

/** Whether the tools of `text` mode store a value sent in `field` exactly as it was sent. */
async function throughTools(
  field: PlanField | RevisionField,
  value: string,
  text: TextMode,
): Promise<boolean> {
  const session = new Session({ sessionId: 'paths-in', clock: () => 0 });
  if (field === 'owner' || field === 'actor') {
    const made = (() => {
      try {
        return createPlanningTools(session, {
          text,
          extensions: [owners({ agent: value }), history()],
        });
      } catch {
        return undefined;
      }
    })();
    if (made === undefined) return false;
    const tools = made;
    await invokeTool(
      tools.planning_setup_plan,
      { objective: 'o', initial_steps: [{ title: 't' }] },
      { session },
    );
    await invokeTool(tools.planning_claim_step, { step_id: 'S001' }, { session });
    const owner = selectLatest(session, Plan)?.steps[0]?.owner;
    return owner === value && planHistory(session).at(-1)?.actor === value;
  }
  if (field === 'step_id') {
    // The tools mint ids; they can hold `value` when it is an id they would mint.
    const n = /^S\d+$/.test(value) ? Number(value.slice(1)) : 0;
    if (!(n >= 1 && n <= MAX_STEP_NUMBER && formatStepId(n) === value)) return false;
    if (n > 1_200) return true;
    const { planning_setup_plan: setup } = createPlanningTools(session, { text });
    const steps = Array.from({ length: n }, () => ({ title: 't' }));
    await invokeTool(setup, { objective: 'o', initial_steps: steps }, { session });
    return selectLatest(session, Plan)?.steps.some((step) => step.step_id === value) === true;
  }
  const { planning_setup_plan: setup, planning_mark_step: mark } = createPlanningTools(session, {
    text,
    extensions: [history()],
  });
  const set = await invokeTool(
    setup,
    {
      objective: field === 'objective' ? value : 'o',
      initial_steps: [
        { title: field === 'title' ? value : 't', details: field === 'details' ? value : 'd' },
      ],
    },
    { session },
  );
  if (!set.success) return false;
  const plan = selectLatest(session, Plan);
  if (field === 'objective') return plan?.objective === value;
  if (field === 'title') return plan?.steps[0]?.title === value;
  if (field === 'details') return plan?.steps[0]?.details === value;
  const marked = await invokeTool(
    mark,
    {
      step_id: 'S001',
      status: 'pending',
      note: field === 'note' ? value : 'n',
      explanation: field === 'explanation' ? value : 'why',
    },
    { session },
  );
  if (!marked.success) return false;
  if (field === 'note') return selectLatest(session, Plan)?.steps[0]?.notes.at(-1) === value;
  return planHistory(session).at(-1)?.explanation === value;
}

async function throughStore(changes: readonly { dataType: string; value: unknown }[]) {
  const store = new MemoryStore();
  const appended = await store.append('paths-in', 0, [
    { type: SESSION_COMMITTED_EVENT, at: 0, data: { changes } },
  ]);
  if (!appended.ok) return undefined;
  const session = planSessionOf(true);
  const attached = await attachStore(session, store, { snapshotEvery: Number.POSITIVE_INFINITY });
  if (!attached.ok) return undefined;
  await attached.value.detach();
  return session;
}

let directory = '';
let written = 0;

/** The plan a store migration hands over (the snapshot of a valid plan, rewritten to `plan`). */
async function throughMigration(plan: Plan): Promise<Plan | undefined> {
  const sessionId = `migrated-${written++}`;
  const v1 = new FileStore({ directory });
  const first = new Session({ sessionId, clock: () => 0 });
  registerPlanModelReducers(first);
  const attached = await attachStore(first, v1, { snapshotEvery: 1 });
  if (!attached.ok) throw attached.error;
  first.dispatch(Plan, planWith('objective', 'o'));
  await attached.value.detach();
  await v1.close();
  const v2 = new FileStore({
    directory,
    snapshotSchema: {
      version: 2,
      migrations: {
        1: (data) => {
          const copy = JSON.parse(JSON.stringify(data)) as { slices: Record<string, unknown[]> };
          copy.slices['plankit.Plan'] = [plan];
          return copy as never;
        },
      },
    },
  });
  const second = new Session({ sessionId });
  registerPlanModelReducers(second);
  const loaded = await attachStore(second, v2);
  await v2.close();
  if (!loaded.ok) return undefined;
  await loaded.value.detach();
  return selectLatest(second, Plan);
}

/**
 * Whether each path in accepts `value` in `field` as is: the tools of each text mode, the
 * plan model's paths, and the paths held to each mode.
 */
interface Verdicts {
  readonly tools: Readonly<Record<TextMode, boolean>>;
  readonly model: Readonly<Record<string, boolean>>;
  readonly held: Readonly<Record<TextMode, Readonly<Record<string, boolean>>>>;
}

const MODES: readonly TextMode[] = ['ascii', 'unicode'];

async function toolVerdicts(
  field: PlanField | RevisionField,
  value: string,
): Promise<Record<TextMode, boolean>> {
  return {
    ascii: await throughTools(field, value, 'ascii'),
    unicode: await throughTools(field, value, 'unicode'),
  };
}

async function planPaths(field: PlanField, value: string): Promise<Verdicts> {
  const plan = planWith(field, value);
  const stored = (found: Plan | null | undefined) =>
    found !== null && found !== undefined && JSON.stringify(found) === JSON.stringify(plan);
  const model: Record<string, boolean> = {
    'dispatch(Plan)': planSessionOf().dispatch(Plan, plan, { now: 0 }).ok,
    snapshotFromJSON: snapshotFromJSON(snapshotOf({ 'plankit.Plan': [plan] }), planSessionOf()).ok,
    'store replay (Plan)': stored(
      selectLatest(
        (await throughStore([{ dataType: 'plankit.Plan', value: plan }])) ?? planSessionOf(),
        Plan,
      ),
    ),
    'store migration': stored(await throughMigration(plan)),
  };
  const held: Record<TextMode, Record<string, boolean>> = { ascii: {}, unicode: {} };
  for (const text of MODES) {
    // The default is the tools' default, 'ascii': it is given only for 'unicode'.
    const options = text === 'ascii' ? {} : { text };
    held[text]['checkPlan'] = checkPlan(plan, options).ok;
    held[text]['LangGraph plan channel (whole plan)'] = attempt(() =>
      stored(reducePlan(null, plan, options)),
    );
  }
  if (field === 'objective' || field === 'title' || field === 'details') {
    const setup = {
      objective: field === 'objective' ? value : 'o',
      initial_steps: [
        { title: field === 'title' ? value : 't', details: field === 'details' ? value : 'd' },
      ],
    };
    const same = (found: Plan | null | undefined) =>
      found?.objective === setup.objective &&
      found.steps[0]?.title === setup.initial_steps[0]?.title &&
      found.steps[0]?.details === setup.initial_steps[0]?.details;
    model['dispatch(SetupPlan)'] = planSessionOf().dispatch(SetupPlan, setup, { now: 0 }).ok;
    model['store replay (SetupPlan)'] = same(
      selectLatest(
        (await throughStore([{ dataType: 'plankit.SetupPlan', value: setup }])) ?? planSessionOf(),
        Plan,
      ),
    );
    for (const text of MODES)
      held[text]['LangGraph updateState (setup_plan edit)'] = attempt(() =>
        same(reducePlan(null, { op: 'setup_plan', value: setup }, { text })),
      );
  }
  if (field === 'note') {
    const base = planWith('note', 'n');
    const mark = { step_id: 'S001', status: 'pending' as const, note: value };
    const session = planSessionOf();
    session.dispatch(Plan, base, { now: 0 });
    model['dispatch(MarkStep)'] = session.dispatch(MarkStep, mark, { now: 0 }).ok;
    for (const text of MODES)
      held[text]['LangGraph updateState (mark_step edit)'] = attempt(
        () =>
          reducePlan(base, { op: 'mark_step', value: mark }, { text })?.steps[0]?.notes.at(-1) ===
          value,
      );
  }
  return { tools: await toolVerdicts(field, value), model, held };
}

async function revisionPaths(field: RevisionField, value: string): Promise<Verdicts> {
  const revision = revisionWith(field, value);
  const change = {
    command: 'plankit.ClearPlan' as const,
    value: {},
    actor: field === 'actor' ? value : 'lead',
    explanation: field === 'explanation' ? value : 'why',
  };
  const withPlan = planSessionOf(true);
  withPlan.dispatch(Plan, planWith('objective', 'o'), { now: 0 });
  const replayed = await throughStore([
    { dataType: 'plankit.Plan', value: planWith('objective', 'o') },
    { dataType: 'plankit.PlanChange', value: change },
  ]);
  const last = replayed === undefined ? undefined : planHistory(replayed).at(-1);
  // The planHistory channel records changes already made, so it keeps the plan model's rules.
  return {
    tools: await toolVerdicts(field, value),
    model: {
      'dispatch(PlanChange)': withPlan.dispatch(PlanChange, change, { now: 0 }).ok,
      snapshotFromJSON: snapshotFromJSON(
        snapshotOf({ 'plankit.PlanRevision': [revision] }),
        planSessionOf(true),
      ).ok,
      'LangGraph planHistory channel': attempt(
        () => reducePlanHistory([], [revision])[0]?.[field] === value,
      ),
      'LangGraph planHistory channel (append)': attempt(
        () => reducePlanHistory([], { append: [revision] })[0]?.[field] === value,
      ),
      'store replay (PlanChange)': last?.[field] === value,
    },
    held: { ascii: {}, unicode: {} },
  };
}

/**
 * The one verdict: the model's paths accept what the tools of either mode store (the
 * Unicode-mode tools' verdict, as the ASCII-mode tools store no more), and each path held to a
 * mode accepts what the tools of that mode store.
 */
function expectOneVerdict(verdicts: Verdicts, what: string): void {
  const { tools, model, held } = verdicts;
  if (tools.ascii) expect(tools.unicode, `${what}: ASCII-mode tools store no more`).toBe(true);
  for (const [name, verdict] of Object.entries(model))
    expect(verdict, `${what} via ${name}`).toBe(tools.unicode);
  for (const text of MODES)
    for (const [name, verdict] of Object.entries(held[text]))
      expect(verdict, `${what} via ${name} (text: ${text})`).toBe(tools[text]);
}

const lines = (text: string): number => text.split(/\r\n|[\n\r\u2028\u2029\u0085]/).length;

/** Every rendering of `plan`: the same number of lines as for the same plan with plain text. */
function expectLineSafePlan(plan: Plan, plain: Plan): void {
  expect(lines(renderPlan(plan))).toBe(lines(renderPlan(plain)));
  expect(lines(renderPlan(plan, { dependencies: true }))).toBe(
    lines(renderPlan(plain, { dependencies: true })),
  );
  expect(lines(renderPlanDiff(null, plan))).toBe(lines(renderPlanDiff(null, plain)));
  expect(lines(renderPlanMermaid(plan))).toBe(lines(renderPlanMermaid(plain)));
  expect(lines(renderPlanDiff(plain, plan))).toBeLessThanOrEqual(
    lines(renderPlanDiff(null, plain)),
  );
}

function expectLineSafeRevision(revision: PlanRevision, plain: PlanRevision): void {
  expect(lines(renderPlanRevision(revision))).toBe(lines(renderPlanRevision(plain)));
}

describe('one set of text rules on every path in, in each text mode (properties)', () => {
  beforeAll(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'plankit-paths-in-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('plan text, step ids and owners: every path accepts the same values, and renders them on their own lines', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<PlanField>('objective', 'title', 'details', 'note', 'step_id', 'owner'),
        hostile,
        async (field, value) => {
          expectOneVerdict(
            await planPaths(field, value),
            `${field} ${JSON.stringify(value.slice(0, 40))}`,
          );
          const plain = planWith(field, field === 'step_id' ? 'S001' : 'lead');
          // Renderers escape what a hand-built plan holds, accepted or not.
          expectLineSafePlan(planWith(field, value), plain);
        },
      ),
      { numRuns: 200 },
    );
  }, 120_000);

  it('actors and explanations: every path accepts the same values, and revisions render on their own lines', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<RevisionField>('actor', 'explanation'),
        hostile,
        async (field, value) => {
          expectOneVerdict(
            await revisionPaths(field, value),
            `${field} ${JSON.stringify(value.slice(0, 40))}`,
          );
          expectLineSafeRevision(revisionWith(field, value), revisionWith(field, 'lead'));
        },
      ),
      { numRuns: 200 },
    );
  }, 120_000);

  it('the in-progress rule: every path with inProgress single refuses a second step in progress, and with any accepts it', async () => {
    const twoInProgress: Plan = {
      objective: 'o',
      status: 'active',
      steps: [
        { step_id: 'S001', title: 'a', details: null, status: 'in_progress', notes: [] },
        { step_id: 'S002', title: 'b', details: null, status: 'in_progress', notes: [] },
      ],
    };
    const oneInProgress: Plan = {
      ...twoInProgress,
      steps: [
        twoInProgress.steps[0] as Plan['steps'][number],
        { ...twoInProgress.steps[1], status: 'pending' } as Plan['steps'][number],
      ],
    };
    for (const mode of ['any', 'single'] as const) {
      const session = new Session();
      const { planning_setup_plan: setup, planning_mark_step: mark } = createPlanningTools(
        session,
        { inProgress: mode },
      );
      await invokeTool(
        setup,
        { objective: 'o', initial_steps: [{ title: 'a' }, { title: 'b' }] },
        { session },
      );
      await invokeTool(mark, { step_id: 'S001', status: 'in_progress' }, { session });
      const tools = (
        await invokeTool(mark, { step_id: 'S002', status: 'in_progress' }, { session })
      ).success;
      const edit = {
        op: 'mark_step' as const,
        value: { step_id: 'S002', status: 'in_progress' as const },
      };
      const paths = {
        tools,
        checkPlan: checkPlan(twoInProgress, { inProgress: mode }).ok,
        'LangGraph plan channel (whole plan)': attempt(
          () => reducePlan(null, twoInProgress, { inProgress: mode }) !== null,
        ),
        'LangGraph updateState (mark_step edit)': attempt(
          () => reducePlan(oneInProgress, edit, { inProgress: mode }) !== null,
        ),
      };
      expect(paths).toEqual({
        tools: mode === 'any',
        checkPlan: mode === 'any',
        'LangGraph plan channel (whole plan)': mode === 'any',
        'LangGraph updateState (mark_step edit)': mode === 'any',
      });
    }
  });
});
