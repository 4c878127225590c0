/** The texts of `plankit-eval --help`, `plankit-eval run --help` and `plankit-eval init --help`. */
export const CLI_HELP: { readonly main: string; readonly run: string; readonly init: string } = {
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
report.html to --out (default eval-results). The results log is <out>/log. An arm with a
goal (goal: true, or { verifier, budget, guard }) continues after each answer until its goal
stops; the report then counts the goal outcomes and compares it with the arms without one.

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

/** What the command line asks for. */
export type CliCommand =
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
export class UsageError extends Error {
  readonly help: string;

  constructor(message: string, help: string) {
    super(message);
    this.help = help;
  }
}

/**
 * Reads `plankit-eval`'s arguments (without `node` and the script): the command and its
 * options, or a {@link UsageError} naming what is wrong, before anything runs.
 */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  const [command, ...rest] = argv;
  // No command is a usage error, so a script that lost its arguments does not pass silently.
  if (command === undefined) throw new UsageError('Name a command: run or init.', CLI_HELP.main);
  if (command === '--help' || command === '-h' || command === 'help')
    return { kind: 'help', text: CLI_HELP.main };
  if (command !== 'run' && command !== 'init')
    throw new UsageError(`Unknown command ${JSON.stringify(command)}.`, CLI_HELP.main);
  const help = CLI_HELP[command];
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
