#!/usr/bin/env node
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isCI, progress } from '@clack/prompts';
import { register } from 'tsx/esm/api';
import type { EvalConfig } from './config/define-eval.ts';
import { PlankitEvalError } from './plankit-eval-error.ts';
import { dollars } from './report/report-document.ts';
import { writeReports } from './report/write-reports.ts';
import { type EvalProgress, runEval } from './runner/run-eval.ts';

const USAGE = 'Usage: plankit-eval run <eval.config.ts> [--out <dir>] [--resume]';

interface Args {
  readonly config: string;
  readonly out: string;
  readonly resume: boolean;
}

function parseArgs(argv: readonly string[]): Args | string {
  const [command, ...rest] = argv;
  if (command !== 'run') return `Unknown command ${JSON.stringify(command ?? '')}.`;
  let config: string | undefined;
  let out = 'eval-results';
  let resume = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (arg === '--resume') resume = true;
    else if (arg === '--out') {
      const value = rest[++i];
      if (value === undefined) return '--out needs a folder.';
      out = value;
    } else if (arg.startsWith('--')) return `Unknown option ${arg}.`;
    else if (config === undefined) config = arg;
    else return `Unexpected argument ${arg}.`;
  }
  if (config === undefined) return 'The config file is missing.';
  return { config, out, resume };
}

async function loadConfig(path: string): Promise<EvalConfig> {
  const url = pathToFileURL(resolve(path)).href;
  let loaded: { default?: unknown };
  try {
    // Registered globally rather than tsImport's private namespace: the config must share this
    // process's copies of @plankit/core, or its tools would not know the runner's sessions.
    register();
    loaded = (await import(url)) as { default?: unknown };
  } catch (cause) {
    throw new PlankitEvalError(
      'config_load_failed',
      `plankit-eval: could not load ${path}: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
  // tsx may wrap a module's default export once more when it loads it as CommonJS.
  let config = loaded.default;
  const inner = (config as { default?: unknown } | undefined)?.default;
  if (inner !== undefined && (config as { arms?: unknown }).arms === undefined) config = inner;
  if (typeof config !== 'object' || config === null)
    throw new PlankitEvalError(
      'config_load_failed',
      `plankit-eval: ${path} has no default export; export default defineEval({...}).`,
    );
  return config as EvalConfig;
}

function eta(ms: number | null): string {
  if (ms === null) return 'ETA --';
  const seconds = Math.round(ms / 1000);
  return `ETA ${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

async function main(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    process.stderr.write(`${args}\n${USAGE}\n`);
    return 1;
  }
  const config = await loadConfig(args.config);
  const abort = new AbortController();
  const stop = (): void => abort.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // A progress bar only for a person at a terminal; logs and CI get one line per trial.
  const interactive = process.stdout.isTTY === true && !isCI();
  const total = config.tasks.length * config.arms.length * config.repetitions;
  const bar = interactive ? progress({ max: total }) : undefined;
  let shown = 0;
  const onProgress = (state: EvalProgress): void => {
    const message = `${state.done}/${state.total} trials, ${dollars(state.usd)} spent, ${eta(state.etaMs)}`;
    if (bar === undefined) {
      process.stdout.write(`${message}\n`);
      return;
    }
    bar.advance(state.done - shown, message);
    shown = state.done;
  };
  bar?.start(`0/${total} trials`);
  try {
    const run = await runEval(config, {
      out: args.out,
      resume: args.resume,
      signal: abort.signal,
      onProgress,
    });
    bar?.stop(`Run ${run.outcome}`);
    const files = await writeReports(run.report, args.out);
    process.stdout.write(`\n${run.report.verdict.join('\n')}\n\n`);
    process.stdout.write(`Reports: ${files.markdown}, ${files.json}, ${files.html}\n`);
    if (run.outcome !== 'completed')
      process.stdout.write('The run stopped early; run again with --resume to continue it.\n');
    return run.outcome === 'completed' ? 0 : 2;
  } catch (error) {
    bar?.error('The run failed');
    throw error;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message =
      PlankitEvalError.isInstance(error) || error instanceof Error ? error.message : String(error);
    process.stderr.write(`${message}\n`);
    process.exitCode = 1;
  },
);
