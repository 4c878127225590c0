import { type AnyTool, createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';
import { parsePlanView, planView } from '@plankit/core/plan-view';
import { expect } from 'vitest';
import type { HostRun } from './plan-model-cases.ts';

/** The titles of the issue that asked for Unicode plans: each refused in ASCII mode. */
export const UNICODE_TITLES: readonly string[] = [
  '翻訳を確認する',
  'Ship v2 🚀',
  'Café menu',
  'Don’t forget tests',
  'Write the README — then ship',
];

/** The objective of the Japanese plan. */
export const UNICODE_OBJECTIVE = 'リリースを準備する';

/** `Résumé review` as a model may send it: decomposed (e and U+0301), stored composed (NFC). */
export const DECOMPOSED_TITLE = 'Re\u0301sume\u0301 review';

const plan = (session: Session) => selectLatest(session, Plan);

/**
 * Works a Japanese plan through one host with the tools in Unicode mode: the setup and an
 * added step (sent decomposed) come back as results, the plan view shows the titles as set
 * (composed), through JSON and `parsePlanView` too, the model reads them back unchanged from
 * `planning_read_plan` (through a host, which shows what the tool read; core's own
 * `invokeTool` answers with the message alone, so `showsPlan: false` there), and a
 * bidirectional override is refused in the host's error form, naming the code point, with the
 * plan unchanged. In ASCII mode the same host refuses `Café menu` in the reference's words.
 */
export async function workUnicodePlan(run: HostRun, showsPlan = true): Promise<void> {
  const session = new Session({ sessionId: 'unicode-plan', clock: () => 1_763_000_000_000 });
  const tools: readonly AnyTool[] = createPlanningTools(session, { text: 'unicode' });
  const setup = await run(tools, session, {
    name: 'planning_setup_plan',
    args: {
      objective: UNICODE_OBJECTIVE,
      initial_steps: UNICODE_TITLES.map((title) => ({ title })),
    },
  });
  expect(setup, setup.text).toMatchObject({ error: false });
  const added = await run(tools, session, {
    name: 'planning_add_step',
    args: { steps: [{ title: DECOMPOSED_TITLE, details: '日本語の説明 🚀' }] },
  });
  expect(added, added.text).toMatchObject({ error: false });

  const titles = [...UNICODE_TITLES, 'Résumé review'];
  const view = planView(session);
  expect(view?.objective).toBe(UNICODE_OBJECTIVE);
  expect(view?.steps.map((step) => step.title)).toEqual(titles);
  expect(view?.steps.at(-1)?.details).toBe('日本語の説明 🚀');
  // As a chat UI receives it: JSON text, parsed back with the view's own rules.
  const parsed = parsePlanView(JSON.parse(JSON.stringify(view)));
  expect(parsed.ok && parsed.value.steps.map((step) => step.title)).toEqual(titles);

  const read = await run(tools, session, { name: 'planning_read_plan', args: {} });
  expect(read.error, read.text).toBe(false);
  if (showsPlan)
    for (const title of [UNICODE_OBJECTIVE, ...titles]) expect(read.text).toContain(title);

  const before = plan(session);
  const refused = await run(tools, session, {
    name: 'planning_update_step',
    args: { step_id: 'S001', title: 'abc\u202Etxt.exe' },
  });
  expect(refused.error, refused.text).toBe(true);
  expect(refused.text).toMatch(/^Tool validation failed: .*Title.*U\+202E/);
  expect(refused.text.length).toBeLessThan(2_000);
  expect(plan(session)).toBe(before);

  const ascii = new Session({ sessionId: 'ascii-plan', clock: () => 1_763_000_000_000 });
  const asciiTools: readonly AnyTool[] = createPlanningTools(ascii);
  const reference = await run(asciiTools, ascii, {
    name: 'planning_setup_plan',
    args: { objective: 'Ship', initial_steps: [{ title: 'Café menu' }] },
  });
  expect(reference.error, reference.text).toBe(true);
  expect(reference.text).toMatch(/Title must be ASCII\./);
  expect(plan(ascii)).toBeUndefined();
}
