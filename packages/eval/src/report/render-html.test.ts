import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../runner/seeded-random.ts';
import type { TrialRecord } from '../runner/trial-record.ts';
import { buildReport } from './build-report.ts';
import { renderHtml } from './render-html.ts';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present && process.env['CI'] === 'true')
  throw new Error(`render-html.test: Chromium is required in CI and was not found at ${CHROMIUM}.`);
if (!present)
  console.warn(`render-html.test: SKIPPED, no Chromium at ${CHROMIUM} (set CHROMIUM_PATH).`);

function trials(arm: string, rate: number, usd: number, n: number): TrialRecord[] {
  const random = seededRandom(arm.length * 31 + n);
  return Array.from({ length: n }, (_, i) => ({
    run: 'r',
    key: `t/${arm}/${i + 1}`,
    taskId: 't',
    armId: arm,
    repetition: i + 1,
    seed: i,
    status: 'finished',
    stop: 'done',
    pass: i < Math.round(rate * n),
    verdict: null,
    error: null,
    turns: 3,
    toolCalls: 4,
    planningCalls: arm === 'plan' ? 2 : 0,
    inputTokens: 1000,
    outputTokens: 100,
    tokens: 1100,
    usd: usd + random() * 0.0001,
    plan: { created: 2, completed: 1, abandoned: 1 },
    durationMs: 1,
    transcript: [],
  }));
}

const host = {
  kind: 'ai-sdk',
  modelId: 'm',
  runTrial: async () => ({ text: '', stop: 'done' as const, turns: 0 }),
};
const report = buildReport(
  {
    arms: [
      { id: 'none', label: 'No plan arm', host, planning: false },
      { id: 'plan', label: 'Plan arm', host, planning: {} },
    ],
    tasks: [{ id: 't', prompt: 'p', check: () => true }],
    repetitions: 40,
    seed: 1,
  },
  [...trials('none', 0.5, 0.004, 40), ...trials('plan', 0.8, 0.01, 40)],
  'completed',
);

describe('renderHtml', () => {
  it('is self-contained: no script, no external asset', () => {
    const html = renderHtml(report);
    expect(html).not.toMatch(/<script|<link|src=|url\(/i);
    expect(html.match(/<g class="arm"/g)).toHaveLength(2);
    expect(html.match(/<g class="cost"/g)).toHaveLength(2);
    expect(html).toContain('<h2>Method</h2>');
  });

  it.skipIf(!present)(
    'shows the numbers when headless Chromium renders it',
    async () => {
      const folder = await mkdtemp(join(tmpdir(), 'plankit-eval-html-'));
      try {
        const file = join(folder, 'report.html');
        await writeFile(file, renderHtml(report));
        const { stdout } = await promisify(execFile)(
          CHROMIUM,
          [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            `--user-data-dir=${join(folder, 'profile')}`,
            '--dump-dom',
            `file://${file}`,
          ],
          { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
        );
        // The DOM as Chromium parsed it: both arms, their rates and intervals, the verdict.
        expect(stdout).toContain('32/40 = 80.0%');
        expect(stdout).toContain('20/40 = 50.0%');
        const plan = report.arms[1]?.successRate;
        expect(stdout).toContain(`${((plan?.low ?? 0) * 100).toFixed(1)}%`);
        expect(stdout).toContain('plan succeeds more often than none');
        // The charts: a dot and interval per arm, and a cost-per-success bar per arm.
        expect(stdout.match(/<circle/g)).toHaveLength(2);
        expect(stdout.match(/<rect/g)).toHaveLength(2);
        expect(stdout).toContain(`80.0% (${((plan?.low ?? 0) * 100).toFixed(1)}% to`);
        const cost = report.arms[1]?.costPerSuccess ?? 0;
        expect(stdout).toContain(`$${cost < 0.01 ? cost.toFixed(6) : cost.toFixed(4)}`);
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    },
    90_000,
  );
});
