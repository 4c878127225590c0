import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildClient } from './build-client.ts';
import { JAPANESE_RUN, LATER_REPLY } from './script.ts';
import { type PlanUi, startPlanUi } from './start-plan-ui.ts';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present && process.env['CI'] === 'true')
  throw new Error(
    `plan-ui.browser.test: Chromium is required in CI and was not found at ${CHROMIUM}.`,
  );
if (!present)
  console.warn(`plan-ui.browser.test: SKIPPED, no Chromium at ${CHROMIUM} (set CHROMIUM_PATH).`);

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');
const SCREENSHOT = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../docs/images/plan-ui.png',
);

// In the page (a string, as the repo's TypeScript has no DOM lib): every distinct state of
// the checklist, as `id:status` per row with `*` on the row marked aria-current="step".
const RECORD_STATES = `
  window.__planStates = [];
  const record = () => {
    const rows = [...document.querySelectorAll('.plankit-step')];
    const state = rows
      .map((row) => row.dataset.stepId + ':' + row.dataset.status + (row.getAttribute('aria-current') === 'step' ? '*' : ''))
      .join(' ');
    if (state !== '' && window.__planStates.at(-1) !== state) window.__planStates.push(state);
  };
  new MutationObserver(record).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
`;

// Every state the checklist goes through in the scripted run (either language), in order.
const RUN_STATES = [
  'S001:pending S002:pending S003:pending S004:pending',
  'S001:in_progress* S002:pending S003:pending S004:pending',
  'S001:done S002:pending S003:pending S004:pending',
  'S001:done S002:in_progress* S003:pending S004:pending',
  'S001:done S002:done S003:pending S004:pending',
  'S001:done S002:done S003:blocked S004:pending',
];

/** What the Japanese run sets up: the objective and the titles, as the tools store them (NFC). */
function japanesePlan(): { objective: string; titles: string[] } {
  const [setup] = JAPANESE_RUN as readonly (readonly { input: object }[])[];
  const input = setup?.[0]?.input as { objective: string; initial_steps: { title: string }[] };
  return {
    objective: input.objective.normalize('NFC'),
    titles: input.initial_steps.map((step) => step.title.normalize('NFC')),
  };
}

const textsOf = async (page: Page, selector: string): Promise<string[]> =>
  (await page.evaluate(
    `[...document.querySelectorAll(${JSON.stringify(selector)})].map((element) => element.textContent)`,
  )) as string[];

const rowStates = async (page: Page): Promise<string[]> =>
  (await page.evaluate(
    `[...document.querySelectorAll('.plankit-step')].map((row) => row.dataset.stepId + ':' + row.dataset.status)`,
  )) as string[];

async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const violations = (await page.evaluate(
    'axe.run(document).then((result) => result.violations.map((v) => v.id + ": " + v.help + " (" + v.nodes.map((n) => n.target.join(" ")).join(", ") + ")"))',
  )) as string[];
  return violations;
}

describe.skipIf(!present)('the plan UI in headless Chromium', () => {
  let folder: string;
  let browser: Browser;
  let ui: PlanUi | undefined;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'plankit-plan-ui-test-'));
    await buildClient(join(folder, 'client'));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await ui?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('shows each status as the run advances, reads the plan back after a reload, and passes axe', async () => {
    const options = {
      storeDirectory: join(folder, 'store'),
      clientDirectory: join(folder, 'client'),
      // Far apart, so even a busy machine renders each state of the plan on its own.
      stepDelayMs: 400,
    };
    ui = await startPlanUi(options);
    const page = await browser.newPage({ viewport: { width: 1180, height: 620 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') errors.push(message.text());
    });
    await page.addInitScript({ content: RECORD_STATES });
    const address = `${ui.url}?chat=browser-test`;
    await page.goto(address);

    await expect
      .poll(() => page.locator('.plankit-checklist__heading').textContent())
      .toBe('No plan yet');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('so I stopped there').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Ready');

    // Every state the checklist went through, in order: the run's plan, step by step.
    const states = (await page.evaluate('window.__planStates')) as string[];
    expect(states).toEqual(RUN_STATES);
    const final = page.locator('.plankit-checklist');
    await expect
      .poll(() => final.locator('h2').textContent())
      .toBe('Publish the 2.0 release notes');
    expect(await final.locator('.plankit-checklist__counts').textContent()).toBe(
      '2 of 4 done, 1 blocked',
    );
    const blocked = final.locator('[data-step-id="S003"]');
    expect(await blocked.locator('.plankit-step__status').textContent()).toBe('Blocked');
    expect(await blocked.locator('.plankit-step__note').textContent()).toBe(
      'Legal is out until Monday',
    );
    expect(await final.locator('[data-step-id="S004"] .plankit-step__waiting').textContent()).toBe(
      'Waiting on S003 (Get sign-off from legal)',
    );
    expect(await final.locator('[aria-current]').count()).toBe(0);
    // The refusal, in the chat: S004 could not start before S003.
    const refused = page.locator('.tool--refused');
    expect(await refused.count()).toBe(1);
    expect(await refused.textContent()).toContain('S004 in_progress: refused.');
    expect(await refused.textContent()).toContain('S003');

    expect(await axeViolations(page)).toEqual([]);
    const shot =
      process.env['PLANKIT_UPDATE_SCREENSHOT'] === '1' ? SCREENSHOT : join(folder, 'plan-ui.png');
    await mkdir(dirname(shot), { recursive: true });
    await page.screenshot({ path: shot });

    // A second message: the new reply carries the plan again; the checklist stays as it was.
    await page.getByLabel('Message').fill('What now?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText(LATER_REPLY).waitFor();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Ready');
    expect(await page.evaluate('window.__planStates')).toEqual(states);

    // A new server on the same store: the plan comes back from the files, not from memory.
    const { port } = new URL(ui.url);
    await ui.close();
    ui = await startPlanUi({ ...options, port: Number(port) });
    await page.reload();
    await page.getByText('Read back from the store.').waitFor();
    expect(await rowStates(page)).toEqual([
      'S001:done',
      'S002:done',
      'S003:blocked',
      'S004:pending',
    ]);
    expect(await page.locator('.plankit-checklist__counts').textContent()).toBe(
      '2 of 4 done, 1 blocked',
    );
    expect(await page.locator('.message').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 60_000);
  it('shows a Japanese-and-emoji plan as the agent set it, in Unicode mode, after a reload too', async () => {
    const options = {
      storeDirectory: join(folder, 'store-unicode'),
      clientDirectory: join(folder, 'client'),
      stepDelayMs: 400,
      text: 'unicode' as const,
    };
    let unicodeUi = await startPlanUi(options);
    onTestFinished(() => unicodeUi.close());
    const page = await browser.newPage({ viewport: { width: 1180, height: 620 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') errors.push(message.text());
    });
    await page.addInitScript({ content: RECORD_STATES });
    await page.goto(`${unicodeUi.url}?chat=japanese`);
    await expect
      .poll(() => page.locator('.plankit-checklist__heading').textContent())
      .toBe('No plan yet');
    const ask = '2.0 のリリースノートを公開してください 🙏';
    await page.getByLabel('Message').fill(ask);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('ここで止めました').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Ready');
    expect(await page.locator('.message--user').textContent()).toContain(ask);

    // The same run as in English, state by state, and the same titles as the agent set.
    expect(await page.evaluate('window.__planStates')).toEqual(RUN_STATES);
    const { objective, titles } = japanesePlan();
    // The script typed `Café` with a combining accent; the page shows it precomposed.
    expect(titles[2]).toContain('Caf\u00e9');
    const checklist = async (): Promise<void> => {
      await expect.poll(() => page.locator('.plankit-checklist h2').textContent()).toBe(objective);
      expect(await textsOf(page, '.plankit-step__title')).toEqual(titles);
      expect(await textsOf(page, '.plankit-step__note')).toEqual([
        '1.9 以降にマージされたプルリクエストは 42 件',
        '下書きは docs/release-2.0.ja.md に 📄',
        '法務は月曜まで不在 🏖️',
      ]);
      expect(await textsOf(page, '.plankit-step__waiting')).toEqual([
        `Waiting on S003 (\u2068${titles[2]}\u2069)`,
      ]);
      expect(await page.locator('.plankit-checklist__counts').textContent()).toBe(
        '2 of 4 done, 1 blocked',
      );
      // Each plan text is a bidi isolate in the browser, so no title can reorder its row.
      expect(
        await page.evaluate(
          `[...document.querySelectorAll('.plankit-checklist h2, .plankit-step__title, .plankit-step__note, .plankit-step__waiting')].map((element) => getComputedStyle(element).unicodeBidi)`,
        ),
      ).toEqual(Array.from({ length: 1 + 4 + 3 + 1 }, () => 'isolate'));
    };
    await checklist();
    const refused = page.locator('.tool--refused');
    expect(await refused.count()).toBe(1);
    expect(await refused.textContent()).toContain('S004 in_progress: refused.');
    expect(await axeViolations(page)).toEqual([]);

    // A new server on the same store: the Japanese plan comes back from the files as it was.
    const { port } = new URL(unicodeUi.url);
    await unicodeUi.close();
    unicodeUi = await startPlanUi({ ...options, port: Number(port) });
    await page.reload();
    await page.getByText('Read back from the store.').waitFor();
    await checklist();
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 60_000);
});
