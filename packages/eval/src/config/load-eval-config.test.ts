import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Options } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../../..');
const PACKAGES = ['core', 'prompt', 'controller', 'adapters', 'eval'] as const;

type Imports = 'import' | 'require';

/**
 * A config whose checker passes only when the trial's session is an instance of the Session
 * class the config itself loaded: one copy of @plankit/core. Its arms use aiSdkHost from the
 * config's @plankit/eval, which refuses a session of another copy. Loading it leaves a marker
 * file, to tell a config refused before it ran from one refused after.
 */
function configSource(imports: Imports): string {
  const head =
    imports === 'import'
      ? `import { writeFileSync } from 'node:fs';
import { Session } from '@plankit/core';
import { aiSdkHost, defineEval } from '@plankit/eval';
import { scriptedModel } from '@plankit/eval/scripted';
`
      : `const { writeFileSync } = require('node:fs');
const { Session } = require('@plankit/core');
const { aiSdkHost, defineEval } = require('@plankit/eval');
const { scriptedModel } = require('@plankit/eval/scripted');
// JSON is CommonJS data in any copy: not a second copy of the package.
if (require('@plankit/core/package.json').name !== '@plankit/core') throw new Error('no manifest');
`;
  return `${head}
writeFileSync(process.env.MARKER, 'loaded');
const host = aiSdkHost({
  model: scriptedModel({ modelId: 'm', successRate: 1, solve: () => ({ 'a.txt': '1' }) }),
});
${imports === 'import' ? 'export default' : 'module.exports ='} defineEval({
  arms: [
    { id: 'none', host, planning: false },
    { id: 'plan', host, planning: {} },
  ],
  tasks: [
    {
      id: 'one-copy',
      prompt: 'Write a.txt containing 1',
      check: ({ session }) => ({ pass: session instanceof Session, reason: 'same Session class' }),
    },
  ],
  repetitions: 1,
  seed: 1,
});
`;
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Whether the config file ran at all. */
  readonly loaded: boolean;
  /** report.json's trial counts, when the run got that far. */
  readonly trials: { readonly finished: number; readonly errored: number } | undefined;
  /** Trials whose checker found the runner's session to be of the config's Session class. */
  readonly passed: number | undefined;
}

async function runCli(nodeArgs: readonly string[], cwd: string, config: string): Promise<Run> {
  const runs = await mkdtemp(join(cwd, 'run-'));
  const marker = join(runs, 'loaded');
  const out = join(runs, 'out');
  const child = spawn(process.execPath, [...nodeArgs, 'run', config, '--out', out], {
    cwd,
    env: { ...process.env, CI: 'true', MARKER: marker },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += String(chunk);
  });
  child.stderr.on('data', (chunk) => {
    stderr += String(chunk);
  });
  // 'close', not 'exit': the process can exit before its output has all been read.
  const code = await new Promise<number | null>((done) =>
    child.once('close', (status) => done(status)),
  );
  const reportFile = join(out, 'report.json');
  const report = existsSync(reportFile)
    ? (JSON.parse(readFileSync(reportFile, 'utf8')) as {
        trials: { finished: number; errored: number };
        arms: { successes: number }[];
      })
    : undefined;
  return {
    code,
    stdout,
    stderr,
    loaded: existsSync(marker),
    trials: report && { finished: report.trials.finished, errored: report.trials.errored },
    passed: report?.arms.reduce((sum, arm) => sum + arm.successes, 0),
  };
}

/**
 * A project as `npm install @plankit/eval` leaves it: each plankit package built by its own
 * tsup config (declarations aside) with its package.json, every other dependency linked from
 * this repo's node_modules. Returns the folder that holds node_modules.
 */
async function publishedInstall(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'plankit-eval-published-'));
  const modules = join(folder, 'node_modules');
  await mkdir(join(modules, '@plankit'), { recursive: true });
  for (const entry of await readdir(join(root, 'node_modules')))
    if (!entry.startsWith('.') && entry !== '@plankit')
      await symlink(join(root, 'node_modules', entry), join(modules, entry));
  for (const name of PACKAGES) {
    const source = join(root, 'packages', name);
    const target = join(modules, '@plankit', name);
    // The declarations (and react's stylesheet copy) are the config's onSuccess step: left out.
    const { onSuccess: _declarations, ...config } = (
      (await import(pathToFileURL(join(source, 'tsup.config.ts')).href)) as { default: Options }
    ).default;
    const entries = config.entry as string[];
    await build({
      ...config,
      config: false,
      entry: entries.map((entry) => join(source, entry)),
      outDir: join(target, 'dist'),
      dts: false,
      sourcemap: false,
      silent: true,
      // Every bare import stays an import, as in the published files.
      external: [/^[^./]/],
    });
    await cp(join(source, 'package.json'), join(target, 'package.json'));
  }
  return folder;
}

// Each run has its own output folder and marker, so the runs go at once (one child process
// each): the second core works while a test waits on its child.
describe.concurrent('plankit-eval run, as published (plain node)', () => {
  let folder = '';
  let project = '';
  let cli = '';

  beforeAll(async () => {
    folder = await publishedInstall();
    cli = join(folder, 'node_modules/@plankit/eval/dist/cli.js');
    // A CommonJS package: its package.json has no "type": "module".
    project = join(folder, 'project');
    await mkdir(join(project, 'esm'), { recursive: true });
    await writeFile(join(project, 'package.json'), '{ "name": "cjs-project", "private": true }\n');
    await writeFile(join(project, 'esm/package.json'), '{ "type": "module" }\n');
    await writeFile(join(project, 'eval.config.mts'), configSource('import'));
    await writeFile(join(project, 'eval.config.mjs'), configSource('import'));
    await writeFile(join(project, 'esm/eval.config.ts'), configSource('import'));
    await writeFile(join(project, 'eval.config.cjs'), configSource('require'));
    await writeFile(join(project, 'required.js'), configSource('require'));
    await writeFile(join(project, 'imported.js'), configSource('import'));
    await writeFile(join(project, 'eval.config.ts'), configSource('import'));
    await writeFile(join(project, 'eval.config.cts'), configSource('import'));
  }, 120_000);

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it.each([
    ['eval.config.mts', 'an ES module'],
    ['eval.config.mjs', 'an ES module'],
    ['esm/eval.config.ts', 'TypeScript under "type": "module"'],
    ['eval.config.cjs', 'CommonJS'],
    ['required.js', 'CommonJS .js in a CommonJS package'],
    ['imported.js', '.js with import/export in a CommonJS package'],
  ])(
    '%s (%s) shares the runner’s copy of @plankit/core',
    async (config) => {
      const run = await runCli([cli], project, config);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.trials).toEqual({ finished: 2, errored: 0 });
      expect(run.passed).toBe(2);
    },
    60_000,
  );

  it.each([
    ['eval.config.ts', () => `${join(project, 'package.json')} has no "type": "module"`],
    ['eval.config.cts', () => 'a .cts file is CommonJS'],
  ])(
    '%s (TypeScript run as CommonJS) is refused before it loads, exit 2',
    async (config, why) => {
      const run = await runCli([cli], project, config);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        `plankit-eval: ${config} is TypeScript that Node runs as CommonJS (${why()}), and a CommonJS config would load a second copy of @plankit/eval and @plankit/core`,
      );
      expect(run.stderr).toContain(
        config === 'eval.config.ts'
          ? `Rename it to eval.config.mts, or add "type": "module" to ${join(project, 'package.json')}.`
          : 'Rename it to eval.config.mts.',
      );
      expect(run.loaded).toBe(false);
      expect(run.trials).toBeUndefined();
    },
    60_000,
  );

  it('a .js config require() cannot load (top-level await) is refused with the way out', async () => {
    await writeFile(
      join(project, 'awaits.js'),
      `${configSource('import')}await Promise.resolve();\n`,
    );
    const run = await runCli([cli], project, 'awaits.js');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^plankit-eval: could not load awaits\.js: /);
    expect(run.stderr).toContain(
      `(awaits.js loads through require(), since ${join(project, 'package.json')} has no "type": "module": name it .mjs to load it as an ES module)`,
    );
  }, 60_000);

  it('refuses a second copy a require hook compiled (plankit-eval run under tsx)', async () => {
    const tsx = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
    const run = await runCli(['--import', tsx, cli], project, 'required.js');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `plankit-eval: required.js loaded a second copy of @plankit/core (${join(folder, 'node_modules/@plankit/core/dist')}`,
    );
    expect(run.stderr).toContain('run plankit-eval with plain node, not under tsx');
    expect(run.trials).toBeUndefined();
  }, 60_000);
});

describe.concurrent('plankit-eval run from the sources (under tsx, as in this repo)', () => {
  let project = '';
  const cliArgs = [
    '--conditions=@plankit/source',
    '--import',
    pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href,
    join(root, 'packages/eval/src/cli.ts'),
  ];

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'plankit-eval-cjs-'));
    await mkdir(join(project, 'node_modules/@plankit'), { recursive: true });
    for (const name of PACKAGES)
      await symlink(join(root, 'packages', name), join(project, 'node_modules/@plankit', name));
    await writeFile(join(project, 'package.json'), '{ "name": "cjs-project", "private": true }\n');
    await writeFile(join(project, 'eval.config.ts'), configSource('import'));
    await writeFile(join(project, 'eval.config.mts'), configSource('import'));
    await writeFile(join(project, 'eval.config.js'), configSource('require'));
  });

  afterAll(async () => {
    await rm(project, { recursive: true, force: true });
  });

  it('an .mts config in a CommonJS package shares the runner’s copy of @plankit/core', async () => {
    const run = await runCli(cliArgs, project, 'eval.config.mts');
    expect(run.code).toBe(0);
    expect(run.trials).toEqual({ finished: 2, errored: 0 });
    expect(run.passed).toBe(2);
  }, 60_000);

  it('refuses a .ts config in a CommonJS package before it loads, instead of erroring every trial', async () => {
    const run = await runCli(cliArgs, project, 'eval.config.ts');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('eval.config.ts is TypeScript that Node runs as CommonJS');
    expect(run.loaded).toBe(false);
    expect(run.trials).toBeUndefined();
  }, 60_000);

  it('refuses a config file that does not exist, naming the path and plankit-eval init', async () => {
    const run = await runCli(cliArgs, project, 'missing.config.mts');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `plankit-eval: missing.config.mts does not exist (looked for ${join(project, 'missing.config.mts')}); plankit-eval init writes a config to start from.\n`,
    );
  }, 60_000);

  it('refuses a file of any other extension, naming the ones it takes', async () => {
    await writeFile(join(project, 'eval.config.json'), '{}\n');
    const run = await runCli(cliArgs, project, 'eval.config.json');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'plankit-eval: eval.config.json: a config is a .mts, .ts, .mjs, .js or .cjs file, not .json.\n',
    );
  }, 60_000);

  it('refuses a CommonJS config that got tsx-compiled copies of the sources', async () => {
    const run = await runCli(cliArgs, project, 'eval.config.js');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `eval.config.js loaded a second copy of @plankit/core (${join(root, 'packages/core/src')}`,
    );
    expect(run.loaded).toBe(true);
    expect(run.trials).toBeUndefined();
  }, 60_000);
});
