/**
 * `npm run bench`: times every case of every `packages/<name>/bench/*.bench.ts` file next to
 * its hand-written baseline and prints the median of each with the ratio and a PASS/WARN
 * verdict against the case's target. Targets are reported, never enforced: the process exits
 * 0 unless a benchmark crashes. Words after `--` pick bench files by path
 * (`npm run bench -- hosts`).
 */
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Bench } from 'tinybench';
import { benchParsers, formatParserGrowth, PARSER_SIZES } from './bench-parsers.ts';
import {
  type CaseResult,
  type CountResult,
  type CurveResult,
  formatRatio,
  formatTime,
  type GrowthResult,
  writeBenchReport,
} from './bench-report.ts';

/** One side of a comparison, built once (untimed) by a {@link BenchCase} factory. */
export interface BenchSide {
  /** The timed operation; may return a promise. Its result is kept so it is not optimised away. */
  readonly run: () => unknown;
  /** Untimed, before every run: restores whatever the previous run changed. */
  readonly reset?: (() => unknown) | undefined;
  /**
   * Untimed, after the side's last run of each round (and of its first, untimed call): undoes
   * what `reset` set up that would reach the cases timed after it, such as a subscriber left on
   * a channel the whole process shares.
   */
  readonly cleanup?: (() => unknown) | undefined;
}

/** An operation timed in plankit and in a hand-written baseline doing the same work. */
export interface BenchCase {
  /** Unique within its suite; the table's row label. */
  readonly name: string;
  /** What is compared with what, for the legend. */
  readonly what: string;
  /** Target: the plankit median at most this many times the baseline median. */
  readonly maxRatio?: number | undefined;
  /** Target: the plankit median at most this many microseconds above the baseline median. */
  readonly maxExtraMicros?: number | undefined;
  readonly plankit: () => BenchSide | Promise<BenchSide>;
  readonly baseline: () => BenchSide | Promise<BenchSide>;
}

/** Target: cost grows no faster than the input, `time(to) / time(from) <= factor`. */
export interface GrowthCheck {
  readonly name: string;
  /** Name of the smaller case. */
  readonly from: string;
  /** Name of the larger case. */
  readonly to: string;
  /** How many times larger the input of `to` is. */
  readonly factor: number;
}

/** A growth curve for the report's chart: the plankit median of each case against its size. */
export interface BenchCurve {
  readonly name: string;
  /** What x counts, for the axis label ("logged calls"). */
  readonly xLabel: string;
  readonly points: readonly { readonly x: number; readonly case: string }[];
}

/**
 * A deterministic count (calls, tokens) of plankit next to a baseline doing the same work,
 * printed as a ratio in its own table; not timed.
 */
export interface BenchCount {
  /** Unique within its suite; the table's row label. */
  readonly name: string;
  /** What is counted on each side, for the legend. */
  readonly what: string;
  readonly plankit: number;
  readonly baseline: number;
  /** Target: plankit at most this many times the baseline. */
  readonly maxRatio?: number | undefined;
}

/** What a bench file exports as `suite`. */
export interface BenchSuite {
  readonly name: string;
  readonly cases: readonly BenchCase[];
  readonly growth?: readonly GrowthCheck[] | undefined;
  readonly curves?: readonly BenchCurve[] | undefined;
  /** Counted rows (calls, tokens), printed after the timed ones. */
  readonly counts?: readonly BenchCount[] | undefined;
  /** Runs once before timing; throws when a baseline does not compute what plankit does. */
  readonly check?: (() => unknown) | undefined;
}

type SideName = 'plankit' | 'baseline';

interface PreparedSide {
  readonly side: BenchSide;
  readonly async: boolean;
  readonly samples: number[];
}

interface PreparedCase {
  readonly suite: string;
  readonly bench: BenchCase;
  readonly sides: Record<SideName, PreparedSide>;
}

// Two rounds in opposite orders, so neither side always runs first (JIT, GC debt, heat).
const ROUNDS = 2;
// Measured time per side per round; wall time is higher (resets and timer calls are untimed).
const TIME_MS = 750;
const WARMUP_MS = 100;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Where timed results go, so the engine cannot drop the work that produced them.
let sink: unknown;

async function findBenchFiles(): Promise<string[]> {
  const packages = path.join(root, 'packages');
  const files: string[] = [];
  for (const entry of await readdir(packages, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = path.join(packages, entry.name, 'bench');
    const names = await readdir(dir).catch(() => []);
    for (const name of names) if (name.endsWith('.bench.ts')) files.push(path.join(dir, name));
  }
  // `npm run bench -- hosts stores` runs only the files whose path holds one of the words.
  const only = process.argv.slice(2);
  const chosen =
    only.length === 0 ? files : files.filter((file) => only.some((word) => file.includes(word)));
  return chosen.sort();
}

function isSuite(value: unknown): value is BenchSuite {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as BenchSuite).name === 'string' &&
    Array.isArray((value as BenchSuite).cases)
  );
}

async function loadSuite(file: string): Promise<BenchSuite> {
  const module: Record<string, unknown> = await import(pathToFileURL(file).href);
  const suite = module['suite'];
  if (!isSuite(suite))
    throw new Error(`${path.relative(root, file)} must export a BenchSuite as \`suite\``);
  return suite;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as PromiseLike<unknown>).then === 'function'
  );
}

// One untimed call first: it fails fast on a broken case and tells sync from async.
async function prepareSide(make: () => BenchSide | Promise<BenchSide>): Promise<PreparedSide> {
  const side = await make();
  await side.reset?.();
  const first = side.run();
  const async = isThenable(first);
  sink = async ? await first : first;
  await side.cleanup?.();
  return { side, async, samples: [] };
}

function addTask(bench: Bench, name: string, { side, async }: PreparedSide): void {
  const { run, reset, cleanup } = side;
  const fn = async
    ? async () => {
        sink = await run();
      }
    : () => {
        sink = run();
      };
  bench.add(name, fn, {
    async,
    ...(reset === undefined ? {} : { beforeEach: () => void reset() }),
    ...(cleanup === undefined ? {} : { afterAll: () => void cleanup() }),
  });
}

async function measure(cases: readonly PreparedCase[]): Promise<void> {
  for (let round = 0; round < ROUNDS; round++) {
    const order: SideName[] = round % 2 === 0 ? ['plankit', 'baseline'] : ['baseline', 'plankit'];
    const bench = new Bench({
      time: TIME_MS,
      warmupTime: WARMUP_MS,
      timestampProvider: 'hrtimeNow',
      subtractTimerOverhead: true,
      retainSamples: true,
      throws: true,
    });
    const taskSides = new Map<string, PreparedSide>();
    for (const [index, prepared] of cases.entries()) {
      for (const sideName of order) {
        const name = `${index} ${prepared.suite} / ${prepared.bench.name} / ${sideName}`;
        addTask(bench, name, prepared.sides[sideName]);
        taskSides.set(name, prepared.sides[sideName]);
      }
    }
    for (const task of await bench.run()) {
      const result = task.result;
      if (result.state !== 'completed') throw new Error(`${task.name}: ${result.state}`);
      const pooled = taskSides.get(task.name)?.samples ?? [];
      // A loop, not push(...samples): fast cases yield more samples than the stack holds.
      for (const sample of result.latency.samples ?? []) pooled.push(sample);
    }
    process.stdout.write(`  round ${round + 1}/${ROUNDS} done\n`);
  }
}

function median(samples: readonly number[]): number {
  if (samples.length === 0) throw new Error('no samples');
  const sorted = Float64Array.from(samples).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? Number.NaN)
    : ((sorted[mid - 1] ?? Number.NaN) + (sorted[mid] ?? Number.NaN)) / 2;
}

function printTable(header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}

const METHOD = `tinybench, median (p50) latency per operation; ${ROUNDS} interleaved rounds of ${TIME_MS} ms measured time per side`;
const started = new Date().toISOString();
const cpus = os.cpus();
const MACHINE = {
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  cpu: cpus[0]?.model.trim() ?? 'unknown',
  cores: cpus.length,
};

function machine(): string[] {
  return [
    `date:    ${started}`,
    `node:    ${MACHINE.node} (${MACHINE.platform})`,
    `cpu:     ${MACHINE.cpu}, ${MACHINE.cores} cores`,
    `method:  ${METHOD}`,
  ];
}

async function main(): Promise<void> {
  console.log('plankit benchmarks');
  for (const line of machine()) console.log(line);
  console.log('');

  const suites: BenchSuite[] = [];
  for (const file of await findBenchFiles()) suites.push(await loadSuite(file));
  const only = process.argv.slice(2);
  if (suites.length === 0 && !only.includes('parsers')) {
    // A filter that matches nothing is the usual cause: say so, without a stack trace.
    console.error(
      only.length === 0
        ? 'No packages/*/bench/*.bench.ts file found.'
        : `No bench file's path holds ${only.map((word) => JSON.stringify(word)).join(' or ')}; the words match paths such as packages/core/bench/planning.bench.ts, or "parsers" for the parser growth rows.`,
    );
    process.exitCode = 2;
    return;
  }

  const cases: PreparedCase[] = [];
  for (const suite of suites) {
    await suite.check?.();
    for (const bench of suite.cases) {
      cases.push({
        suite: suite.name,
        bench,
        sides: {
          plankit: await prepareSide(bench.plankit),
          baseline: await prepareSide(bench.baseline),
        },
      });
    }
  }
  await measure(cases);
  console.log('');

  const medians = new Map<string, Record<SideName, number>>();
  const key = (suite: string, name: string): string => `${suite}\u0000${name}`;
  const caseResults: CaseResult[] = [];
  const rows = cases.map(({ suite, bench, sides }) => {
    const plankit = median(sides.plankit.samples);
    const baseline = median(sides.baseline.samples);
    medians.set(key(suite, bench.name), { plankit, baseline });
    const ratio = plankit / baseline;
    const extraMicros = (plankit - baseline) * 1000;
    const { maxRatio, maxExtraMicros } = bench;
    const target =
      maxRatio !== undefined
        ? `<= ${maxRatio}x`
        : maxExtraMicros !== undefined
          ? `<= +${maxExtraMicros} us (${extraMicros >= 0 ? '+' : ''}${extraMicros.toFixed(2)} us)`
          : '-';
    const met =
      maxRatio !== undefined
        ? ratio <= maxRatio
        : maxExtraMicros !== undefined
          ? extraMicros <= maxExtraMicros
          : undefined;
    const result = met === undefined ? '-' : met ? 'PASS' : 'WARN';
    caseResults.push({
      suite,
      name: bench.name,
      what: bench.what,
      plankitMs: plankit,
      baselineMs: baseline,
      ratio,
      target,
      result,
      samples: { plankit: sides.plankit.samples.length, baseline: sides.baseline.samples.length },
    });
    return [
      bench.name,
      formatTime(plankit),
      formatTime(baseline),
      formatRatio(ratio),
      target,
      result,
    ];
  });
  if (rows.length > 0)
    printTable(['operation', 'plankit p50', 'baseline p50', 'ratio', 'target', 'result'], rows);

  const growthRows: string[][] = [];
  const growthResults: GrowthResult[] = [];
  const curves: CurveResult[] = [];
  for (const suite of suites) {
    for (const curve of suite.curves ?? []) {
      const points = curve.points.map(({ x, case: name }) => {
        const found = medians.get(key(suite.name, name));
        if (found === undefined) throw new Error(`${curve.name}: unknown case ${name}`);
        return { x, ms: found.plankit };
      });
      curves.push({ name: curve.name, xLabel: curve.xLabel, points });
    }
    for (const check of suite.growth ?? []) {
      const from = medians.get(key(suite.name, check.from));
      const to = medians.get(key(suite.name, check.to));
      if (from === undefined || to === undefined) throw new Error(`${check.name}: unknown case`);
      const growth = to.plankit / from.plankit;
      growthResults.push({
        name: check.name,
        plankit: growth,
        baseline: to.baseline / from.baseline,
        factor: check.factor,
        result: growth <= check.factor ? 'PASS' : 'WARN',
      });
      growthRows.push([
        check.name,
        formatRatio(growth),
        formatRatio(to.baseline / from.baseline),
        `<= ${check.factor}x`,
        growth <= check.factor ? 'PASS' : 'WARN',
      ]);
    }
  }
  if (growthRows.length > 0) {
    console.log('');
    printTable(['growth', 'plankit', 'baseline', 'target', 'result'], growthRows);
  }

  const countResults: CountResult[] = [];
  const countRows = suites.flatMap((suite) =>
    (suite.counts ?? []).map((count) => {
      const ratio = count.plankit / count.baseline;
      const met = count.maxRatio === undefined ? undefined : ratio <= count.maxRatio;
      countResults.push({
        suite: suite.name,
        name: count.name,
        what: count.what,
        plankit: count.plankit,
        baseline: count.baseline,
        ratio,
        target: count.maxRatio === undefined ? '-' : `<= ${count.maxRatio}x`,
        result: met === undefined ? '-' : met ? 'PASS' : 'WARN',
      });
      return [
        count.name,
        String(count.plankit),
        String(count.baseline),
        formatRatio(ratio),
        count.maxRatio === undefined ? '-' : `<= ${count.maxRatio}x`,
        met === undefined ? '-' : met ? 'PASS' : 'WARN',
      ];
    }),
  );
  if (countRows.length > 0) {
    console.log('');
    printTable(['count', 'plankit', 'baseline', 'ratio', 'target', 'result'], countRows);
  }

  console.log('');
  for (const suite of suites)
    for (const count of suite.counts ?? []) console.log(`${count.name}: ${count.what}`);
  for (const { bench, sides } of cases) {
    console.log(
      `${bench.name}: ${bench.what} (${sides.plankit.samples.length} / ${sides.baseline.samples.length} samples)`,
    );
  }
  // Parsers must stay linear within their byte limits: fed 64 KiB, 256 KiB and 1 MiB.
  if (only.length === 0 || only.includes('parsers')) {
    const parsers = await benchParsers();
    console.log('');
    console.log(formatParserGrowth(parsers));
    for (const parser of parsers) {
      curves.push({
        name: `parse: ${parser.parser}`,
        xLabel: 'input bytes',
        points: parser.ms.map((ms, i) => ({ x: PARSER_SIZES[i] ?? parser.bytes[i] ?? 0, ms })),
      });
    }
  }
  const written = await writeBenchReport(root, {
    date: started,
    machine: MACHINE,
    method: METHOD,
    filter: only,
    cases: caseResults,
    growth: growthResults,
    counts: countResults,
    curves,
  });
  console.log('');
  console.log(`wrote ${written.map((file) => path.relative(root, file)).join(', ')}`);
  // Reading the sink once is what keeps the timed results observable.
  if (cases.length > 0 && sink === undefined) throw new Error('no benchmark produced a result');
}

await main();
