#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { isCI, progress } from '@clack/prompts';
import { CLI_HELP, type CliCommand, parseCliArgs, UsageError } from './cli-args.ts';
import { loadEvalConfig } from './config/load-eval-config.ts';
import { STARTER_CONFIG } from './init/starter-config.ts';
import { PlankitEvalError, type PlankitEvalErrorCode } from './plankit-eval-error.ts';
import { dollars } from './report/report-document.ts';
import { writeReports } from './report/write-reports.ts';
import { type EvalProgress, runEval } from './runner/run-eval.ts';

/** Exit codes: the run finished; an unexpected error; bad input (nothing ran); stopped early. */
const EXIT = { ok: 0, error: 1, input: 2, stopped: 3 } as const;

function eta(ms: number | null): string {
  if (ms === null) return 'ETA --';
  const seconds = Math.round(ms / 1000);
  return `ETA ${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

async function init(file: string, force: boolean): Promise<number> {
  if (existsSync(file) && !force)
    throw new UsageError(`${file} exists; pass --force to overwrite it.`, CLI_HELP.init);
  await writeFile(file, STARTER_CONFIG);
  process.stdout.write(
    `Wrote ${file}: two scripted models (0.5 and 0.8), offline, no API key.\nNext: npx plankit-eval run ${file} --out eval-results\n`,
  );
  return EXIT.ok;
}

async function run(args: Extract<CliCommand, { kind: 'run' }>): Promise<number> {
  const config = await loadEvalConfig(args.config);
  const abort = new AbortController();
  const stop = (): void => abort.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // A progress bar only for a person at a terminal; logs and CI get one plain line per new
  // finished trial (the runner reports each done count once, in order).
  const interactive = process.stdout.isTTY === true && !isCI();
  const total = config.tasks.length * config.arms.length * config.repetitions;
  const bar = interactive ? progress({ max: total }) : undefined;
  let shown = 0;
  const onProgress = (state: EvalProgress): void => {
    const message = `${state.done}/${state.total} trials, ${dollars(state.usd)} spent, ${eta(state.etaMs)}`;
    if (bar === undefined) process.stdout.write(`${message}\n`);
    else bar.advance(state.done - shown, message);
    shown = state.done;
  };
  bar?.start(`0/${total} trials`);
  try {
    const result = await runEval(config, {
      out: args.out,
      resume: args.resume,
      signal: abort.signal,
      onProgress,
    });
    const trials = result.report.trials;
    // Offline (scripted models) nothing is billed: the figure is the config's prices applied to
    // the tokens counted, so the line says so.
    const final = `Run ${result.outcome}: ${trials.finished}/${trials.planned} trials finished, ${dollars(trials.usd)} spent at the config's prices.`;
    if (bar === undefined) process.stdout.write(`${final}\n`);
    else bar.stop(final);
    const files = await writeReports(result.report, args.out);
    process.stdout.write(`\n${result.report.verdict.join('\n')}\n\n`);
    process.stdout.write(`Reports: ${files.markdown}, ${files.json}, ${files.html}\n`);
    if (result.outcome !== 'completed')
      process.stdout.write('The run stopped early; run again with --resume to continue it.\n');
    return result.outcome === 'completed' ? EXIT.ok : EXIT.stopped;
  } catch (error) {
    bar?.error('The run failed');
    throw error;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/** Refusals of the user's input, before any trial ran: exit 2. */
const INPUT_CODES: readonly PlankitEvalErrorCode[] = [
  'config_invalid',
  'config_load_failed',
  'run_exists',
  'resume_mismatch',
  'log_invalid',
];

const argv = process.argv.slice(2);
const debug = argv.includes('--debug');

async function main(): Promise<number> {
  const command = parseCliArgs(argv);
  switch (command.kind) {
    case 'help':
      process.stdout.write(command.text);
      return EXIT.ok;
    case 'init':
      return init(command.file, command.force);
    case 'run':
      return run(command);
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

// Node exits when nothing is left to wait on, even with main() unsettled: a host, checker or
// config awaiting a promise that can never settle would otherwise end the process with exit 0,
// as if the run had finished.
let settled = false;
process.once('beforeExit', () => {
  if (settled) return;
  process.stderr.write(
    'plankit-eval: stopped waiting on a promise that can never settle (a host, checker or judge, or the config module, awaits something that never resolves); the run did not finish.\n',
  );
  process.exitCode = EXIT.error;
});

main().then(
  (code) => {
    settled = true;
    process.exitCode = code;
  },
  (error: unknown) => {
    settled = true;
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${error.help}`);
      process.exitCode = EXIT.input;
      return;
    }
    const known = PlankitEvalError.isInstance(error);
    const message = known || error instanceof Error ? error.message : String(error);
    process.stderr.write(`${message}\n`);
    if (debug && error instanceof Error && error.stack !== undefined)
      process.stderr.write(`${error.stack}\n`);
    else if (!known) process.stderr.write('Run again with --debug for the stack trace.\n');
    process.exitCode = known && INPUT_CODES.includes(error.code) ? EXIT.input : EXIT.error;
  },
);
