import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FileStore } from '@plankit/adapters/stores';
import { describe, expect, it } from 'vitest';
import { CLI_HELP, parseCliArgs, UsageError } from './cli-args.ts';
import { STARTER_CONFIG } from './init/starter-config.ts';

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

/** Runs the CLI from the sources in `cwd` (CI set: plain progress lines). */
async function plain(
  args: readonly string[],
  cwd = root,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    [
      '--conditions=@plankit/source',
      '--import',
      pathToFileURL(resolve(root, 'node_modules/tsx/dist/loader.mjs')).href,
      resolve(root, 'packages/eval/src/cli.ts'),
      ...args,
    ],
    { cwd, env: { ...process.env, CI: 'true' } },
  );
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  return { code: await exit(child), stdout, stderr };
}

function exit(child: ChildProcess): Promise<number | null> {
  // 'close', not 'exit': the process can exit before its output has all been read.
  return new Promise((done) => child.once('close', (code) => done(code)));
}

/** Lines logged so far; 0 while the running CLI moves a file or lock that the walk met. */
async function loggedEvents(out: string): Promise<number> {
  const folder = join(out, 'log');
  if (!existsSync(folder)) return 0;
  let lines = 0;
  try {
    for (const entry of await readdir(folder, { recursive: true }))
      if (String(entry).endsWith('.jsonl'))
        lines += readFileSync(join(folder, String(entry)), 'utf8').split('\n').length - 1;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  return lines;
}

// Each test runs the CLI in its own folder, in child processes that wait on their own events,
// so they run at once: the second core works while one test waits on its child.
describe.concurrent('plankit-eval run', () => {
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

  it('a SIGINT mid-run exits 3 with readable reports, and --resume finishes the run', async () => {
    const out = await mkdtemp(join(tmpdir(), 'plankit-eval-sigint-'));
    try {
      const first = cli(out, false);
      const firstExit = exit(first);
      while ((await loggedEvents(out)) < 12) await new Promise((r) => setTimeout(r, 50));
      first.kill('SIGINT');
      expect(await firstExit).toBe(3);
      const partial = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
      expect(partial.outcome).toBe('aborted');
      expect(partial.trials.finished).toBeLessThan(120);
      expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('The run stopped early');

      const second = cli(out, true);
      expect(await exit(second)).toBe(0);
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
      expect(report.trials).toMatchObject({ planned: 120, finished: 120 });
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 120_000);

  // The parsing itself is checked in-process below; these two spawns prove the wiring of its
  // two outcomes: a usage error to stderr with exit 2, help to stdout with exit 0.
  it('prints usage and exits 2 on bad arguments; prints help and exits 0 on --help', async () => {
    const walk = await plain(['walk']);
    expect(walk.code).toBe(2);
    expect(walk.stderr).toBe(`Unknown command "walk".\n\n${CLI_HELP.main}`);
    expect(walk.stdout).toBe('');
    const run = await plain(['run', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(CLI_HELP.run);
    expect(run.stderr).toBe('');
  }, 60_000);

  it('runs a goal arm against a no-goal arm and prints their comparison; refuses a bad goal option', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'plankit-eval-goal-'));
    try {
      const run = await plain([
        'run',
        'examples/eval-planning/goal.config.ts',
        '--out',
        join(folder, 'out'),
      ]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(
        /\nGoal arm plan-goal against plan \(no goal\): the goal arm succeeds more often, plan-goal - plan = \+\d/,
      );
      const report = JSON.parse(readFileSync(join(folder, 'out', 'report.json'), 'utf8'));
      const outcomes = report.arms[1].goal.outcomes;
      expect(Object.values(outcomes).reduce((a: number, b) => a + (b as number), 0)).toBe(60);
      expect(report.goals).toHaveLength(1);
      expect(readFileSync(join(folder, 'out', 'report.md'), 'utf8')).toContain('## Goals');

      const file = join(folder, 'bad.config.mjs');
      await writeFile(
        file,
        "export default { arms: [{ id: 'a', host: { kind: 'x', modelId: 'm', runTrial() {} }, planning: false, goal: { budget: { usd: 1 } } }], tasks: [{ id: 't', prompt: 'p', check: () => true }], repetitions: 1, seed: 1 };\n",
      );
      const bad = await plain(['run', file, '--out', join(folder, 'bad')]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('- arms[0].goal.budget.usd: is not a config key');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses a plain config object with config_invalid naming each field, exit 2, no stack', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'plankit-eval-bad-'));
    try {
      const file = join(folder, 'eval.config.mjs');
      await writeFile(file, 'export default { arms: [], repetitions: 0, seed: 1 };\n');
      const bad = await plain(['run', file, '--out', join(folder, 'out')]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('the config is invalid (3 problems)');
      expect(bad.stderr).toContain('- arms: must be an array of 1 to 26 arms, got an array of 0');
      expect(bad.stderr).toContain('- tasks: must be an array of 1 to 1000 tasks, got undefined');
      expect(bad.stderr).toContain('- repetitions: must be a whole number from 1 to 10000, got 0');
      expect(bad.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(join(folder, 'out'))).toBe(false);
      const debug = await plain(['run', file, '--debug']);
      expect(debug.code).toBe(2);
      expect(debug.stderr).toMatch(/\n\s+at /);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);

  it('a host or config awaiting a promise that never settles exits 1 with a message, not 0', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'plankit-eval-hung-'));
    try {
      const host = join(folder, 'host.config.mjs');
      await writeFile(
        host,
        `const host = { kind: 'custom', modelId: 'm', runTrial: () => new Promise(() => {}) };
export default { arms: [{ id: 'a', host, planning: false }], tasks: [{ id: 't', prompt: 'p', check: () => true }], repetitions: 1, seed: 1 };
`,
      );
      const module = join(folder, 'module.config.mjs');
      await writeFile(module, 'await new Promise(() => {});\nexport default {};\n');
      for (const file of [host, module]) {
        const hung = await plain(['run', file, '--out', join(folder, 'out')]);
        expect(hung.code).toBe(1);
        expect(hung.stderr).toContain('stopped waiting on a promise that can never settle');
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);

  it('init writes the README config; run gives an HTML report offline, with monotonic progress', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'plankit-eval-init-'));
    try {
      // What `npm install @plankit/eval` gives the config: the package under node_modules, in a
      // folder with no package.json (so a .ts file would load as CommonJS; init writes .mts).
      await mkdir(join(folder, 'node_modules', '@plankit'), { recursive: true });
      await symlink(resolve(root, 'packages/eval'), join(folder, 'node_modules/@plankit/eval'));
      const init = await plain(['init'], folder);
      expect(init.code).toBe(0);
      const written = readFileSync(join(folder, 'eval.config.mts'), 'utf8');
      expect(written).toBe(STARTER_CONFIG);
      expect((await plain(['init'], folder)).code).toBe(2);

      const run = await plain(['run', 'eval.config.mts', '--out', 'eval-results'], folder);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const lines = run.stdout.split('\n');
      const counts = lines
        .map((line) => /^(\d+)\/80 trials, /.exec(line)?.[1])
        .filter((count) => count !== undefined)
        .map(Number);
      expect(counts).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
      expect(lines.filter((line) => line.startsWith('Run completed:'))).toEqual([
        expect.stringMatching(
          /^Run completed: 80\/80 trials finished, \$\d+\.\d+ spent at the config's prices\.$/,
        ),
      ]);
      expect(run.stdout).toContain('react succeeds more often than none');
      const html = readFileSync(join(folder, 'eval-results', 'report.html'), 'utf8');
      expect(html).toContain('<h2>Method</h2>');
      expect(html.match(/<circle/g)).toHaveLength(2);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('plankit-eval arguments', () => {
  const usage = (argv: readonly string[]) => {
    try {
      return { command: parseCliArgs(argv) };
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      return { message: error.message, help: error.help };
    }
  };

  it('refuses a missing or unknown command, and an --out that is not a folder, with the help to read', () => {
    expect(usage(['walk'])).toEqual({ message: 'Unknown command "walk".', help: CLI_HELP.main });
    expect(usage([])).toEqual({ message: 'Name a command: run or init.', help: CLI_HELP.main });
    expect(CLI_HELP.main).toContain('plankit-eval run <config>');
    for (const value of ['', '--resume']) {
      expect(usage(['run', 'examples/eval-planning/eval.config.ts', '--out', value])).toEqual({
        message: `--out needs a folder, not ${JSON.stringify(value)}.`,
        help: CLI_HELP.run,
      });
    }
  });

  it('gives the help of the tool and of each command', () => {
    expect(usage(['--help'])).toEqual({ command: { kind: 'help', text: CLI_HELP.main } });
    expect(CLI_HELP.main).toContain('plankit-eval init [file]');
    expect(usage(['run', '--help'])).toEqual({ command: { kind: 'help', text: CLI_HELP.run } });
    expect(CLI_HELP.run).toMatch(/^Usage: plankit-eval run <config>/);
    expect(usage(['init', '--help'])).toEqual({ command: { kind: 'help', text: CLI_HELP.init } });
    expect(CLI_HELP.init).toMatch(/^Usage: plankit-eval init/);
  });
});

describe('the README', () => {
  it('opens with the config plankit-eval init writes', () => {
    const readme = readFileSync(resolve(root, 'packages/eval/README.md'), 'utf8');
    const block = /```ts[^\n]*\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBe(STARTER_CONFIG);
  });
});
