/**
 * Growth check of the parsers that read stored or model-written text: each is fed inputs of
 * 64 KiB, 256 KiB and 1 MiB, and the time ratio per 4x size is reported (linear is about 4x;
 * over 6x is a miss). The sizes are timed in interleaved rounds and each ratio is the median
 * of the ratios within a round, so a slow spell of a shared machine moves both sides of a
 * ratio instead of one. Reported, never enforced, and never a timed test: `benchParsers()` is
 * wired into `npm run bench`, and the file runs alone with
 * `node --conditions=@plankit/source --import tsx scripts/bench-parsers.ts`.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Lexer } from 'yaml';
import { AdapterError } from '../packages/adapters/src/adapter-error.ts';
import { strictSchemaProblem } from '../packages/adapters/src/host/strict-schema/strict-schema-problem.ts';
import { toStrictJsonSchema } from '../packages/adapters/src/host/strict-schema/to-strict-json-schema.ts';
import {
  formatEntry,
  parseMeeting,
} from '../packages/adapters/src/persistence/workspace/meeting-log.ts';
import { parseArchive } from '../packages/adapters/src/persistence/workspace/phase-yaml.ts';
import { budgetFromJSON, createBudget } from '../packages/controller/src/budget/index.ts';
import {
  defineMachine,
  initialSnapshot,
  machineSnapshotFromJSON,
  transition,
} from '../packages/controller/src/index.ts';
import { canonicalJson } from '../packages/controller/src/internal/canonical-json.ts';
import {
  phaseJobFromJSON,
  startPhaseJob,
  startWorkshop,
  validateTodos,
  workshopFromJSON,
  workshopRound,
} from '../packages/controller/src/workflows/index.ts';
import { yamlNestingProblem } from '../packages/core/src/internal/yaml-nesting.ts';
import { fromPlanAnchor, toPlanAnchor } from '../packages/prompt/src/plan-anchor.ts';

/** The sizes fed to every parser, in bytes. */
export const PARSER_SIZES: readonly number[] = [64 * 1024, 256 * 1024, 1024 * 1024];
/** A ratio per 4x size above this is a miss (linear is about 4). */
export const GROWTH_MISS = 6;

/** One parser's growth: its median time per size and the ratio of each step. */
export interface ParserGrowth {
  /** What was parsed. */
  readonly parser: string;
  /** The input sizes, in bytes (as built; close to {@link PARSER_SIZES}). */
  readonly bytes: readonly number[];
  /** Median milliseconds per run, per size. */
  readonly ms: readonly number[];
  /**
   * The growth of each 4x step: the median over rounds of the larger size's time over the
   * smaller's, both timed in the same round.
   */
  readonly ratios: readonly number[];
  /**
   * The subject's baseline (work the engine does anyway on the same input), when it has one:
   * its name, median milliseconds per size, and the median over rounds of the subject's time
   * over the baseline's, per size.
   */
  readonly baseline?:
    | {
        readonly name: string;
        readonly ms: readonly number[];
        readonly relative: readonly number[];
      }
    | undefined;
  /**
   * True when a ratio is over {@link GROWTH_MISS}; for a subject with a baseline, only when its
   * time relative to the baseline also grows (by over {@link BASELINE_DRIFT} per 4x).
   */
  readonly miss: boolean;
}

/** How much a subject's time relative to its baseline may grow per 4x size. */
export const BASELINE_DRIFT = 1.5;

interface Subject {
  readonly parser: string;
  /** An input of about `bytes` bytes and its size as built. */
  readonly input: (bytes: number) => { readonly value: unknown; readonly bytes: number };
  /** Parses it; throws if the parser refused a valid input. */
  readonly run: (value: unknown) => unknown;
  /** What the engine does anyway on the same input, named, when that is not itself linear. */
  readonly baseline?: { readonly name: string; readonly run: (value: unknown) => unknown };
}

const pad = (n: number): string => 'x'.repeat(Math.max(1, n));

// A YAML document of many keys (the parser's own duplicate-key check was quadratic in them),
// with a valid todos list so the todos reader goes all the way.
function keyedYaml(bytes: number, head: string): string {
  const lines = [head];
  let size = head.length;
  for (let i = 0; size < bytes; i++) {
    const line = `key_${i}: value ${i}\n`;
    lines.push(line);
    size += line.length;
  }
  return lines.join('');
}

const TODOS_HEAD = `todos:\n${Array.from({ length: 5 }, (_, i) => `  - id: ${i + 1}\n    content: Task ${i + 1}\n`).join('')}`;
const ARCHIVE_HEAD = `phase_number: 1\ntitle: null\ndescription: null\ntodos:\n  - id: 1\n    content: Task\n    status: completed\n`;

const loop = defineMachine({
  id: 'bench',
  initial: 'work',
  caps: { turns: null, retries: null, wallTimeMs: null, costUsd: null, tokens: null, stall: null },
  onCap: { default: 'end' },
  states: { work: { on: { again: 'work', done: 'end' } }, end: { kind: 'final' } },
});

function machineJson(bytes: number): string {
  let snapshot = initialSnapshot(loop, { now: 0 });
  let text = JSON.stringify(snapshot);
  // Build in batches: each transition copies the trace, so growing one entry at a time is slow.
  while (text.length < bytes) {
    for (let i = 0; i < 50; i++) {
      const next = transition(loop, snapshot, {
        outcome: 'again',
        now: snapshot.updatedAt + 1,
        reason: pad(400),
      });
      if (!next.ok) throw next.error;
      snapshot = next.value;
    }
    text = JSON.stringify(snapshot);
  }
  return text;
}

function budgetJson(bytes: number): string {
  const base = createBudget({
    now: 0,
    caps: { costUsd: null, dayUsd: null, turnSoftUsd: null },
  });
  const reservations: unknown[] = [];
  const per = Math.max(1, Math.ceil(bytes / 10_000) - 60);
  let size = JSON.stringify(base).length;
  for (let i = 0; size < bytes && reservations.length < 10_000; i++) {
    const entry = {
      id: `r${i}-${pad(Math.min(per, 100))}`,
      usd: 0.000001,
      tokens: 1,
      turn: 't',
      at: 0,
    };
    reservations.push(entry);
    size += JSON.stringify(entry).length + 1;
  }
  return JSON.stringify({ ...base, turn: { key: 't', spentUsd: 0 }, reservations });
}

function phaseJobJson(bytes: number): string {
  const job = startPhaseJob({ jobId: 'bench', now: 0 });
  const data = JSON.parse(JSON.stringify(job));
  const per = Math.ceil(bytes / 4);
  data.settings.todos.initial = data.settings.todos.initial.map((todo: { id: number }) => ({
    id: todo.id,
    content: pad(per),
  }));
  data.todos = data.settings.todos.initial.map((todo: { id: number; content: string }) => ({
    ...todo,
    status: 'pending',
  }));
  return JSON.stringify(data);
}

function workshopJson(bytes: number): string {
  let state = startWorkshop({ now: 0, brief: 'Bench the reader.' });
  const entries = Array.from({ length: 100 }, () => ({ actor: 'planner', content: pad(500) }));
  for (let size = 0; size < bytes; size += 100 * 560) {
    const next = workshopRound(state, { now: state.updatedAt + 1, entries, signals: {} });
    if (!next.ok) throw next.error;
    state = next.value;
  }
  return JSON.stringify(state);
}

function meetingLog(bytes: number): Buffer {
  const lines: Buffer[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = formatEntry({
      round: 1,
      actor: 'planner',
      phase: 'clarifying',
      content: `${i} ${pad(200)}`,
    });
    lines.push(line);
    size += line.length;
  }
  return Buffer.concat(lines);
}

function jsonTree(bytes: number): unknown {
  const items: Record<string, unknown>[] = [];
  for (let size = 0; size < bytes; size += 60) {
    items.push({ z: size, a: [true, null, 'text'], m: { k: 'value' } });
  }
  return { items };
}

// A closed object schema of 10,000 properties per 64 KiB step (10k, 40k, 160k): the growth of
// the strict-schema walk, where `required.includes` once made it quadratic. Listing the keys of
// an object this wide is itself about 5.5x per 4x in V8 (its dictionary keys are sorted by
// insertion), so the walk is judged against `Object.keys` on the same object.
const KEY_LISTING = {
  name: 'Object.keys',
  run: (schema: unknown) => Object.keys((schema as { properties: object }).properties),
};
function wideSchema(bytes: number): { value: unknown; bytes: number } {
  const count = Math.round((bytes / (64 * 1024)) * 10_000);
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) properties[`p${i}`] = { type: 'string' };
  const value = {
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
  return { value, bytes: JSON.stringify(value).length };
}

function sized(value: string): { value: string; bytes: number } {
  return { value, bytes: Buffer.byteLength(value) };
}

function ok<T>(result: { ok: boolean; error?: unknown; value?: T }): T {
  if (!result.ok) throw result.error;
  return result.value as T;
}

const SUBJECTS: readonly Subject[] = [
  {
    parser: 'todos.yaml reader (validateTodos)',
    input: (bytes) => sized(keyedYaml(bytes, TODOS_HEAD)),
    run: (text) => ok(validateTodos(text as string, { maxBytes: 2 * 1024 * 1024 })),
  },
  {
    parser: 'archive reader (parseArchive)',
    input: (bytes) => sized(keyedYaml(bytes, ARCHIVE_HEAD)),
    run: (text) => {
      const read = parseArchive(text as string);
      if (typeof read === 'string') throw new Error(read);
      return read;
    },
  },
  {
    parser: 'YAML nesting guard',
    input: (bytes) =>
      sized(keyedYaml(bytes, `${TODOS_HEAD}flow: ${'[a, {b: "]"}, '.repeat(20)}\n`)),
    run: (text) => yamlNestingProblem(text as string, new Lexer()),
  },
  {
    parser: 'canonical JSON',
    input: (bytes) => {
      const value = jsonTree(bytes);
      return { value, bytes: JSON.stringify(value).length };
    },
    run: (value) => canonicalJson(value),
  },
  {
    parser: 'budgetFromJSON',
    input: (bytes) => sized(budgetJson(bytes)),
    run: (text) => ok(budgetFromJSON(text)),
  },
  {
    parser: 'machineSnapshotFromJSON',
    input: (bytes) => sized(machineJson(bytes)),
    run: (text) => ok(machineSnapshotFromJSON(loop, text)),
  },
  {
    parser: 'phaseJobFromJSON',
    input: (bytes) => sized(phaseJobJson(bytes)),
    run: (text) => ok(phaseJobFromJSON(text)),
  },
  {
    parser: 'workshopFromJSON',
    input: (bytes) => sized(workshopJson(bytes)),
    run: (text) => ok(workshopFromJSON(text)),
  },
  {
    // A compaction summary full of unclosed opening tags, then one whole anchor.
    parser: 'plan anchor reader (fromPlanAnchor)',
    input: (bytes) =>
      sized(
        `${'<plankit-plan-anchor '.repeat(Math.ceil(bytes / 21))}\n${toPlanAnchor({ objective: 'o', status: 'active', steps: [] })}`,
      ),
    run: (text) => ok(fromPlanAnchor(text as string)),
  },
  {
    // Over the 5,000-property limit: the expected result is a clean refusal.
    parser: 'toStrictJsonSchema (10k-160k props)',
    input: wideSchema,
    baseline: KEY_LISTING,
    run: (schema) => {
      try {
        toStrictJsonSchema(schema as Record<string, unknown>);
      } catch (error) {
        if (AdapterError.isInstance(error) && error.code === 'schema_unsupported') return error;
        throw error;
      }
      throw new Error('expected the property limit to refuse the schema');
    },
  },
  {
    parser: 'strictSchemaProblem (10k-160k props)',
    input: wideSchema,
    baseline: KEY_LISTING,
    run: (schema) => {
      const problem = strictSchemaProblem(schema);
      if (problem === undefined || !problem.message.includes('object properties'))
        throw new Error(`expected the property limit, got ${JSON.stringify(problem)}`);
      return problem;
    },
  },
  {
    parser: 'meeting log reader (parseMeeting)',
    input: (bytes) => {
      const value = meetingLog(bytes);
      return { value, bytes: value.length };
    },
    run: (bytes) => ok(parseMeeting(bytes as Buffer, 'planning/meeting.jsonl')),
  },
];

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** How many interleaved rounds time each parser: every round times every size once. */
export const PARSER_ROUNDS = 7;
// One timing is a batch of as many runs as fill this long (one run if a run takes longer).
const BATCH_MS = 40;
// Untimed runs of every size first, so no size is timed while its code is still compiling.
const WARMUP_MS = 100;

// Where results go, so the engine cannot drop the work that produced them.
let sink: unknown;

function warmUp(run: () => unknown): void {
  const start = performance.now();
  do sink = run();
  while (performance.now() - start < WARMUP_MS);
}

// Milliseconds per run over one batch.
function batch(run: () => unknown): number {
  let runs = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    sink = run();
    runs++;
    elapsed = performance.now() - start;
  } while (elapsed < BATCH_MS);
  return elapsed / runs;
}

// perRound[i][r] -> the median over rounds of perRound[i + 1][r] / perRound[i][r]: each ratio
// compares two batches timed back to back, so a slow spell of the machine moves both.
function pairedRatios(perRound: readonly (readonly number[])[]): number[] {
  return perRound.slice(1).map((larger, i) => {
    const smaller = perRound[i] as readonly number[];
    return median(larger.map((ms, r) => ms / (smaller[r] as number)));
  });
}

/**
 * Times every parser on inputs of {@link PARSER_SIZES} and reports its growth per 4x size.
 * Every parser runs {@link PARSER_ROUNDS} rounds; a round times one batch of each size (and of
 * the baseline, when there is one, right after it), in turn, the order reversed every other
 * round. The growth of a step is the median over rounds of the ratio within one round.
 *
 * @returns one {@link ParserGrowth} per parser, in a fixed order
 */
export async function benchParsers(
  options: { readonly rounds?: number } = {},
): Promise<ParserGrowth[]> {
  const rounds = options.rounds ?? PARSER_ROUNDS;
  const out: ParserGrowth[] = [];
  for (const subject of SUBJECTS) {
    const { baseline } = subject;
    const inputs = PARSER_SIZES.map((size) => subject.input(size));
    const runs = inputs.map(
      ({ value }) =>
        () =>
          subject.run(value),
    );
    const baseRuns =
      baseline === undefined
        ? []
        : inputs.map(
            ({ value }) =>
              () =>
                baseline.run(value),
          );
    // The first run of each also checks that the input is accepted.
    for (const run of [...runs, ...baseRuns]) warmUp(run);
    const times: number[][] = runs.map(() => []);
    const baseTimes: number[][] = baseRuns.map(() => []);
    for (let round = 0; round < rounds; round++) {
      const order = runs.map((_, i) => (round % 2 === 0 ? i : runs.length - 1 - i));
      for (const i of order) {
        (times[i] as number[]).push(batch(runs[i] as () => unknown));
        const baseRun = baseRuns[i];
        if (baseRun !== undefined) (baseTimes[i] as number[]).push(batch(baseRun));
      }
      // Let the event loop breathe between rounds.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const ratios = pairedRatios(times);
    // The subject's time relative to its baseline, per size and round, and its growth.
    const relative =
      baseline === undefined
        ? []
        : times.map((perRound, i) =>
            perRound.map((ms, r) => ms / ((baseTimes[i] as number[])[r] as number)),
          );
    const drifts = pairedRatios(relative);
    out.push({
      parser: subject.parser,
      bytes: inputs.map(({ bytes }) => bytes),
      ms: times.map(median),
      ratios,
      ...(baseline === undefined
        ? {}
        : {
            baseline: {
              name: baseline.name,
              ms: baseTimes.map(median),
              relative: relative.map(median),
            },
          }),
      miss:
        baseline === undefined
          ? ratios.some((r) => r > GROWTH_MISS)
          : ratios.some((r, i) => r > GROWTH_MISS && (drifts[i] as number) > BASELINE_DRIFT),
    });
  }
  if (sink === undefined) throw new Error('no parser produced a result');
  return out;
}

/** The results as a table, one row per parser. */
export function formatParserGrowth(results: readonly ParserGrowth[]): string {
  const rows = results.map((r) => {
    const times = r.ms.map((ms) => `${ms.toFixed(2)} ms`).join(' / ');
    const ratios = r.ratios.map((ratio) => `${ratio.toFixed(1)}x`).join(', ');
    const { baseline } = r;
    const base =
      baseline === undefined
        ? ''
        : `; vs ${baseline.name}: ${baseline.relative.map((ratio) => `${ratio.toFixed(1)}x`).join(', ')}`;
    return `${r.miss ? 'MISS' : 'PASS'}  ${r.parser.padEnd(38)} ${times.padEnd(36)} per 4x: ${ratios}${base}`;
  });
  return [
    `Parser growth (64 KiB / 256 KiB / 1 MiB, median of ${PARSER_ROUNDS} interleaved rounds; linear is ~4x, over ${GROWTH_MISS}x is a miss)`,
    ...rows,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(formatParserGrowth(await benchParsers()));
}
