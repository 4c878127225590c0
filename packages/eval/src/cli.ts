#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { isCI, progress } from '@clack/prompts';
import { loadEvalConfig } from './config/load-eval-config.ts';
import { STARTER_CONFIG } from './init/starter-config.ts';
import { PlankitEvalError, type PlankitEvalErrorCode } from './plankit-eval-error.ts';
import { dollars } from './report/report-document.ts';
import { writeReports } from './report/write-reports.ts';
import { type EvalProgress, runEval } from './runner/run-eval.ts';

/** Exit codes: the run finished; an unexpected error; bad input (nothing ran); stopped early. */
const EXIT = { ok: 0, error: 1, input: 2, stopped: 3 } as const;

const HELP = {
  main: `plankit-eval: does planning help this agent? A/B trials of plankit planning set-ups.

Usage:
  plankit-eval init [file] [--force]          write a runnable offline config (eval.config.mts)
  plankit-eval run <config> [--out <dir>] [--resume] [--debug]
  plankit-eval <command> --help               help on one command

Exit codes: 0 the run finished; 2 bad input (arguments, config or log; nothing ran);
3 the run stopped early on its budget or a signal (reports still written); 1 any other error.
`,
  run: `Usage: plankit-eval run <config> [--out <dir>] [--resume] [--debug]

Loads <config> (its default export, or module.exports, is the eval config), checks it before
anything runs, runs every task x arm x repetition, and writes report.md, report.json and
report.html to --out (default eval-results). The results log is <out>/log.

<config> is an ES module (.mts, .mjs, or .ts/.js under "type": "module") or CommonJS
JavaScript (.cjs, .js). TypeScript that Node runs as CommonJS (.cts, or .ts in a package
without "type": "module") is refused: rename it to .mts.

  --out <dir>   the output folder (default eval-results)
  --resume      continue the run logged in --out: only trials not yet finished run
  --debug       print stack traces on errors
`,
  init: `Usage: plankit-eval init [file] [--force]

Writes a runnable config (default eval.config.mts: an ES module whatever your package.json
says) with two scripted models of known success rates (0.5 without planning, 0.8 with), so
"plankit-eval run eval.config.mts" gives a report offline, with no API key. Needs the ai
package installed (npm install ai). Refuses to overwrite a file unless --force.
`,
} as const;

type Command =
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'init'; readonly file: string; readonly force: boolean }
  | {
      readonly kind: 'run';
      readonly config: string;
      readonly out: string;
      readonly resume: boolean;
      readonly debug: boolean;
    };

/** A usage error: the message, then the help of the command it is about. */
class UsageError extends Error {
  readonly help: string;

  constructor(message: string, help: string) {
    super(message);
    this.help = help;
  }
}

function parseArgs(argv: readonly string[]): Command {
  const [command, ...rest] = argv;
  // No command is a usage error, so a script that lost its arguments does not pass silently.
  if (command === undefined) throw new UsageError('Name a command: run or init.', HELP.main);
  if (command === '--help' || command === '-h' || command === 'help')
    return { kind: 'help', text: HELP.main };
  if (command !== 'run' && command !== 'init')
    throw new UsageError(`Unknown command ${JSON.stringify(command)}.`, HELP.main);
  const help = HELP[command];
  if (rest.includes('--help') || rest.includes('-h')) return { kind: 'help', text: help };
  const positional: string[] = [];
  let out = 'eval-results';
  let resume = false;
  let debug = false;
  let force = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (command === 'run' && arg === '--resume') resume = true;
    else if (command === 'run' && arg === '--debug') debug = true;
    else if (command === 'init' && arg === '--force') force = true;
    else if (command === 'run' && arg === '--out') {
      const value = rest[++i];
      // An empty folder would fail only after every trial ran (writing the reports); a value
      // like --resume is the next option, not a folder (write ./-x for a folder named -x).
      if (value === undefined || value === '' || value.startsWith('-'))
        throw new UsageError(
          `--out needs a folder${value === undefined ? '' : `, not ${JSON.stringify(value)}`}.`,
          help,
        );
      out = value;
    } else if (arg.startsWith('-')) throw new UsageError(`Unknown option ${arg}.`, help);
    else positional.push(arg);
  }
  if (positional.length > 1) throw new UsageError(`Unexpected argument ${positional[1]}.`, help);
  if (command === 'init') return { kind: 'init', file: positional[0] ?? 'eval.config.mts', force };
  const config = positional[0];
  if (config === undefined) throw new UsageError('The config file is missing.', help);
  return { kind: 'run', config, out, resume, debug };
}

function eta(ms: number | null): string {
  if (ms === null) return 'ETA --';
  const seconds = Math.round(ms / 1000);
  return `ETA ${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

async function init(file: string, force: boolean): Promise<number> {
  if (existsSync(file) && !force)
    throw new UsageError(`${file} exists; pass --force to overwrite it.`, HELP.init);
  await writeFile(file, STARTER_CONFIG);
  process.stdout.write(
    `Wrote ${file}: two scripted models (0.5 and 0.8), offline, no API key.\nNext: npx plankit-eval run ${file} --out eval-results\n`,
  );
  return EXIT.ok;
}

async function run(args: Extract<Command, { kind: 'run' }>): Promise<number> {
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
  const command = parseArgs(argv);
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
