/**
 * The PostgresStore load test: worker processes (`load-worker.ts`) append to a shared set of
 * sessions on one server for a while, one of them is optionally SIGKILLed halfway, and then
 * everything is read back through a store and checked against what the workers printed as
 * acknowledged. Used by the test suite (short) and by `npm run bench -- postgres` (full).
 * It returns its findings instead of asserting, so the bench can print them too.
 */
import { fileURLToPath } from 'node:url';
import { startWorker, type Worker } from '../../stores/testing/run-worker.ts';
import { PostgresStore } from '../postgres-store.ts';
import type { LoadWorkerConfig } from './load-worker.ts';

const WORKER = fileURLToPath(new URL('./load-worker.ts', import.meta.url));

/** One load-test run. */
export interface LoadTestOptions {
  readonly url: string;
  /** A schema of its own: the check reads every session in it. */
  readonly schema: string;
  readonly workers: number;
  /** 1,000 by default. */
  readonly sessions?: number | undefined;
  /** Agents appending at once per worker; 4 by default. */
  readonly concurrency?: number | undefined;
  readonly durationMs: number;
  /** SIGKILL the last worker halfway through (needs at least 2 workers). */
  readonly kill?: boolean | undefined;
  /** Appends made to a session another worker holds; 0.05 by default. */
  readonly stealRate?: number | undefined;
  /** Runs after the workers exit, before the check: the test that the check can fail. */
  readonly beforeCheck?: (() => Promise<void>) | undefined;
}

/** What a run measured and what its check found. */
export interface LoadTestReport {
  readonly workers: number;
  readonly sessions: number;
  /** Appends acknowledged to the workers (each one event). */
  readonly acknowledged: number;
  /** Acknowledged appends per second of the run, all workers together. */
  readonly appendsPerSecond: number;
  /** From an append's first attempt to its acknowledgement, conflict retries included. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Appends that failed with `conflict` and were retried after a reload. */
  readonly conflicts: number;
  /** Events read back from the store. */
  readonly stored: number;
  /** The killed worker's acknowledged appends, and the stored events it was never told of. */
  readonly killed: { readonly acknowledged: number; readonly unacknowledged: number } | undefined;
  /** Every way the store disagrees with what was acknowledged; empty when nothing was lost. */
  readonly problems: readonly string[];
}

interface Ack {
  readonly session: number;
  readonly sequence: number;
  readonly worker: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

/** Runs the workers, then reads every session back and checks it. */
export async function runLoadTest(options: LoadTestOptions): Promise<LoadTestReport> {
  const sessions = options.sessions ?? 1_000;
  const { url, schema, workers, durationMs } = options;
  const kill = options.kill === true && workers > 1;
  const problems: string[] = [];
  const store = new PostgresStore({ connectionString: url, schema, poolSize: 4 });
  try {
    const migrated = await store.migrate();
    if (!migrated.ok) throw migrated.error;
    const started: Worker[] = [];
    for (let worker = 0; worker < workers; worker++) {
      const config: LoadWorkerConfig = {
        url,
        schema,
        worker,
        workers,
        sessions,
        concurrency: options.concurrency ?? 4,
        durationMs,
        stealRate: options.stealRate ?? 0.05,
        poolSize: options.concurrency ?? 4,
      };
      started.push(startWorker(WORKER, config, durationMs + 120_000));
    }
    await Promise.all(started.map((worker) => worker.waitFor(/^ready$/)));
    for (const worker of started) worker.child.stdin?.end('go\n');
    const victim = kill ? started[workers - 1] : undefined;
    let killTimer: NodeJS.Timeout | undefined;
    if (victim !== undefined) {
      killTimer = setTimeout(() => victim.child.kill('SIGKILL'), durationMs / 2);
    }
    const exits = await Promise.all(started.map((worker) => worker.exited));
    clearTimeout(killTimer);

    // What the workers were told.
    const acks = new Map<string, Ack>();
    const latencies: number[] = [];
    let conflicts = 0;
    for (const [worker, { lines }] of started.entries()) {
      const exit = exits[worker];
      if (started[worker] === victim) {
        if (exit?.signal !== 'SIGKILL') problems.push(`worker ${worker} was not killed`);
      } else if (exit?.code !== 0) {
        problems.push(`worker ${worker} exited ${exit?.code ?? exit?.signal}: ${exit?.stderr}`);
      }
      let done = false;
      for (const line of lines) {
        const [kind, a, b, c, d] = line.split(' ');
        if (kind === 'a') {
          const id = c ?? '';
          if (acks.has(id)) problems.push(`event ${id} acknowledged twice`);
          acks.set(id, { session: Number(a), sequence: Number(b), worker });
          latencies.push(Number(d) / 1000);
        } else if (kind === 'done') {
          done = true;
          conflicts += Number(b);
        }
      }
      if (!done && started[worker] !== victim) problems.push(`worker ${worker} did not finish`);
    }

    await options.beforeCheck?.();
    // What the store holds: every session, read back whole through a store.
    const found = new Map<string, { session: number; sequence: number }>();
    let stored = 0;
    for (let first = 0; first < sessions; first += 50) {
      const batch = Array.from({ length: Math.min(50, sessions - first) }, (_, i) => first + i);
      const loaded = await Promise.all(
        batch.map((session) => store.load(`load-${session}`, { snapshot: false })),
      );
      for (const [i, result] of loaded.entries()) {
        const session = first + i;
        if (!result.ok) {
          if (result.error.code !== 'not_found') problems.push(result.error.message);
          continue;
        }
        const { version, events } = result.value;
        if (events.length !== version) {
          problems.push(`session ${session}: ${events.length} events at version ${version}`);
        }
        for (const [index, event] of events.entries()) {
          stored++;
          if (event.sequence !== index + 1) {
            problems.push(
              `session ${session}: sequence ${event.sequence} at position ${index + 1}`,
            );
          }
          const id = (event.data as { id?: unknown } | null)?.id;
          if (typeof id !== 'string') {
            problems.push(`session ${session}: event ${event.sequence} has no id`);
          } else if (found.has(id)) {
            problems.push(`event ${id} stored twice`);
          } else {
            found.set(id, { session, sequence: event.sequence });
          }
        }
      }
    }
    for (const [id, ack] of acks) {
      const where = found.get(id);
      if (where === undefined) problems.push(`acknowledged event ${id} is lost`);
      else if (where.session !== ack.session || where.sequence !== ack.sequence) {
        problems.push(
          `event ${id} acknowledged at ${ack.session}/${ack.sequence}, stored at ${where.session}/${where.sequence}`,
        );
      }
    }
    // Only the killed worker may leave events it was never told of: its appends in flight.
    const victimIndex = victim === undefined ? -1 : workers - 1;
    let unacknowledged = 0;
    for (const id of found.keys()) {
      if (acks.has(id)) continue;
      if (Number(id.split('.')[0]) === victimIndex) unacknowledged++;
      else problems.push(`event ${id} is stored but was never acknowledged`);
    }
    const concurrency = options.concurrency ?? 4;
    if (unacknowledged > concurrency) {
      problems.push(
        `${unacknowledged} unacknowledged events of the killed worker, above ${concurrency} in flight`,
      );
    }
    const sorted = Float64Array.from(latencies).sort();
    return {
      workers,
      sessions,
      acknowledged: acks.size,
      // Over the appending window: the few appends in flight when it closes are counted too.
      appendsPerSecond: acks.size / (durationMs / 1000),
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      conflicts,
      stored,
      killed:
        victim === undefined
          ? undefined
          : {
              acknowledged: [...acks.values()].filter((ack) => ack.worker === victimIndex).length,
              unacknowledged,
            },
      problems,
    };
  } finally {
    await store.close();
  }
}
