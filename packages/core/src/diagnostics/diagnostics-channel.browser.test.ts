import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Where node:diagnostics_channel does not exist, publishing goes nowhere and nothing breaks:
// shown in a real browser, with core bundled for it as an app's bundler would.
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present && process.env['CI'] === 'true')
  throw new Error(
    `diagnostics-channel.browser.test: Chromium is required in CI and was not found at ${CHROMIUM}.`,
  );

const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));

// A page's run: the tools through invokeTool, and the channels asked directly.
const ENTRY = `
import { createPlanningTools, invokeTool, Session } from '@plankit/core';
import {
  diagnosticsChannel,
  PLAN_CHANNEL,
  publishDiagnostics,
  TOOL_CALL_CHANNEL,
} from '@plankit/core/diagnostics';

const session = new Session({ sessionId: 'browser', clock: () => 1 });
const tools = createPlanningTools(session);
const call = { session, conversationId: 'chat-1', callId: 'call-1' };
const results = [
  await invokeTool(tools.planning_setup_plan, { objective: 'Ship it', initial_steps: [{ title: 'Build' }, { title: 'Test' }] }, call),
  await invokeTool(tools.planning_mark_step, { step_id: 'S001', status: 'done' }, call),
  await invokeTool(tools.planning_mark_step, { step_id: 'S009', status: 'done' }, call),
];
let built = 0;
publishDiagnostics(TOOL_CALL_CHANNEL, () => {
  built++;
  return {};
});
globalThis.__result = {
  process: typeof process,
  outcomes: results.map((result) => (result.success ? 'ok' : result.error.code)),
  statuses: session.snapshot().slices['plankit.Plan'].at(-1).steps.map((step) => step.status),
  listening: [diagnosticsChannel(TOOL_CALL_CHANNEL).hasSubscribers, diagnosticsChannel(PLAN_CHANNEL).hasSubscribers],
  built,
};
`;

describe.skipIf(!present)('diagnostics channels in headless Chromium', () => {
  let browser: Browser;
  let bundle: string;

  beforeAll(async () => {
    // As an app bundles core for a browser: no Node builtins, the browser's conditions.
    const built = await build({
      stdin: { contents: ENTRY, resolveDir: PACKAGE_ROOT, loader: 'ts' },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      conditions: ['@plankit/source'],
      logLevel: 'silent',
    });
    bundle = built.outputFiles[0]?.text ?? '';
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('runs the planning tools, refusals included, publishing nowhere and failing nothing', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.setContent('<!doctype html><title>plankit</title>');
    await page.addScriptTag({ content: bundle, type: 'module' });
    await expect
      .poll(() => page.evaluate('globalThis.__result !== undefined'), { timeout: 10_000 })
      .toBe(true);
    expect(await page.evaluate('globalThis.__result')).toEqual({
      process: 'undefined',
      outcomes: ['ok', 'ok', 'step_unknown'],
      statuses: ['done', 'pending'],
      listening: [false, false],
      built: 0,
    });
    expect(errors).toEqual([]);
    await page.close();
  });
});
