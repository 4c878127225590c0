/**
 * `node scripts/run-lanes.mjs "a b" "c d"`: runs each lane's npm scripts one after another,
 * the lanes at the same time, and exits 1 when any script fails. `npm test` uses it to keep
 * both cores busy: the type check, the snippets and the API docs each run on one core, so they
 * share the machine with the unit tests instead of waiting for them.
 *
 * The first lane prints as it runs; the others are kept and printed, in order, once the first
 * is done, so no two outputs interleave. A lane stops at its first failing script; the others
 * run to their end, so one run reports every failure.
 */
import { spawn } from 'node:child_process';

const lanes = process.argv.slice(2).map((lane) => lane.split(/\s+/).filter(Boolean));
if (lanes.length === 0 || lanes.some((lane) => lane.length === 0)) {
  console.error('usage: node scripts/run-lanes.mjs "<script> <script>" "<script>" ...');
  process.exit(2);
}

// The test runner's closing line ("vitest: N passed, N failed"), repeated last so that it is
// the run's closing line whatever finishes after it.
const SUMMARY = /^\w+: \d+ passed, \d+ failed.*$/m;
let summary;

/** Runs one npm script; resolves with its exit code and, when `quiet`, its output. */
function runScript(script, quiet) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
      // Piped output loses the colours a terminal would show; keep them for a person.
      env: process.stdout.isTTY ? { ...process.env, FORCE_COLOR: '1' } : process.env,
    });
    const chunks = [];
    const take = (stream) => (chunk) => {
      if (quiet) chunks.push(chunk);
      else stream.write(chunk);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes are stripped
      const line = SUMMARY.exec(chunk.toString().replace(/\u001b\[[0-9;]*m/g, ''));
      if (line) summary = line[0];
    };
    child.stdout.on('data', take(process.stdout));
    child.stderr.on('data', take(process.stderr));
    child.on('close', (code, signal) =>
      resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString() }),
    );
  });
}

async function runLane(scripts, quiet) {
  const results = [];
  for (const script of scripts) {
    const started = performance.now();
    const { code, output } = await runScript(script, quiet);
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    results.push({ script, code, output, seconds });
    if (code !== 0) break;
  }
  return results;
}

const done = await Promise.all(lanes.map((lane, i) => runLane(lane, i > 0)));
let failed = 0;
for (const [i, results] of done.entries()) {
  for (const { script, code, output, seconds } of results) {
    if (i > 0) process.stdout.write(output);
    console.log(
      `lane ${i + 1}: ${script} ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${seconds} s`,
    );
    if (code !== 0) failed++;
  }
}
if (failed > 0) console.error(`${failed} script${failed === 1 ? '' : 's'} failed`);
if (summary !== undefined) console.log(summary);
process.exitCode = failed > 0 ? 1 : 0;
