import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FileStore } from '@plankit/adapters/stores';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');

function cli(out: string, resume: boolean): ChildProcess {
  const args = [
    '--conditions=@plankit/source',
    '--import',
    'tsx',
    'packages/eval/src/cli.ts',
    'run',
    'examples/eval-planning/eval.config.ts',
    '--out',
    out,
  ];
  if (resume) args.push('--resume');
  return spawn(process.execPath, args, { cwd: root, env: { ...process.env, CI: 'true' } });
}

function exit(child: ChildProcess): Promise<number | null> {
  return new Promise((done) => child.once('exit', (code) => done(code)));
}

async function loggedEvents(out: string): Promise<number> {
  const folder = join(out, 'log');
  if (!existsSync(folder)) return 0;
  let lines = 0;
  for (const entry of await readdir(folder, { recursive: true }))
    if (String(entry).endsWith('.jsonl'))
      lines += readFileSync(join(folder, String(entry)), 'utf8').split('\n').length - 1;
  return lines;
}

describe('plankit-eval run', () => {
  it('a SIGKILLed run resumes with --resume and runs every trial exactly once', async () => {
    const out = await mkdtemp(join(tmpdir(), 'plankit-eval-cli-'));
    try {
      const first = cli(out, false);
      const firstExit = exit(first);
      // Kill it once some trials are logged and before the run can end.
      while ((await loggedEvents(out)) < 12) await new Promise((r) => setTimeout(r, 50));
      first.kill('SIGKILL');
      await firstExit;
      expect(existsSync(join(out, 'report.json'))).toBe(false);

      const second = cli(out, true);
      let output = '';
      second.stdout?.on('data', (chunk) => {
        output += String(chunk);
      });
      expect(await exit(second)).toBe(0);
      expect(output).toContain('plan succeeds more often than none');

      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
      expect(report.trials).toMatchObject({ planned: 120, finished: 120, cutShort: 0 });
      expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('# Eval report');
      expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<svg');

      const store = new FileStore({ directory: join(out, 'log') });
      const loaded = await store.load('eval-run');
      await store.close();
      if (!loaded.ok) throw loaded.error;
      const keys = loaded.value.events
        .filter((event) => event.type === 'eval.trial')
        .map((event) => (event.data as { key: string }).key);
      expect(keys).toHaveLength(120);
      expect(new Set(keys).size).toBe(120);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 120_000);

  it('prints usage and exits 1 on bad arguments', async () => {
    const child = spawn(
      process.execPath,
      ['--conditions=@plankit/source', '--import', 'tsx', 'packages/eval/src/cli.ts', 'walk'],
      { cwd: root },
    );
    let errors = '';
    child.stderr?.on('data', (chunk) => {
      errors += String(chunk);
    });
    expect(await exit(child)).toBe(1);
    expect(errors).toContain('Usage: plankit-eval run');
  }, 60_000);
});
