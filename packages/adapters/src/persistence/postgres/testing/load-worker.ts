/**
 * A worker process of the PostgresStore load test (see `load-test.ts`): one PostgresStore,
 * `concurrency` agents appending one event at a time to the sessions this worker holds, and
 * now and then (`stealRate`) to any session, as when a session changes hands. Each agent keeps
 * the version it last saw per session; a `conflict` reloads the session and retries the same
 * event. Prints, one line each:
 *
 *   ready                                   once connected
 *   a <session> <sequence> <id> <micros>    per acknowledged append, after the acknowledgement
 *                                           (<micros>: first attempt to acknowledgement)
 *   done <appends> <conflicts> <loads>      when the time is up, before exiting 0
 *
 * and starts appending on the first line of stdin. Lines are written synchronously (stdout is
 * a pipe), so a line printed before a SIGKILL reaches the parent.
 */
import { PostgresStore } from '../postgres-store.ts';

/** What the driver passes as the first argument, as JSON. */
export interface LoadWorkerConfig {
  readonly url: string;
  readonly schema: string;
  /** This worker's number, from 0. */
  readonly worker: number;
  readonly workers: number;
  readonly sessions: number;
  /** Agents appending at once in this process. */
  readonly concurrency: number;
  /** How long to append, from "go". */
  readonly durationMs: number;
  /** The share of appends made to a random session rather than one of this worker's. */
  readonly stealRate: number;
  readonly poolSize: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as LoadWorkerConfig;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

const store = new PostgresStore({
  connectionString: config.url,
  schema: config.schema,
  poolSize: config.poolSize,
  migrate: false,
});
const own: number[] = [];
for (let session = config.worker; session < config.sessions; session += config.workers) {
  own.push(session);
}
const known = new Map<number, number>();
let appends = 0;
let conflicts = 0;
let loads = 0;
let next = 0;

function pick(): number {
  const any = own.length === 0 || Math.random() < config.stealRate;
  return any
    ? Math.floor(Math.random() * config.sessions)
    : (own[Math.floor(Math.random() * own.length)] ?? 0);
}

async function reload(session: number): Promise<number> {
  loads++;
  const loaded = await store.load(`load-${session}`);
  if (loaded.ok) return loaded.value.version;
  if (loaded.error.code === 'not_found') return 0;
  return fail(`load failed: ${loaded.error.code}: ${loaded.error.message}`);
}

async function agent(until: number): Promise<void> {
  while (Date.now() < until) {
    const session = pick();
    const id = `${config.worker}.${++next}`;
    const started = process.hrtime.bigint();
    let version = known.get(session) ?? (await reload(session));
    for (;;) {
      const result = await store.append(`load-${session}`, version, [
        { type: 'load.Work', at: Date.now(), data: { id } },
      ]);
      if (result.ok) {
        // Another agent of this process may have moved further meanwhile: keep the newest.
        known.set(session, Math.max(result.value, known.get(session) ?? 0));
        appends++;
        const micros = Number((process.hrtime.bigint() - started) / 1000n);
        process.stdout.write(`a ${session} ${result.value} ${id} ${micros}\n`);
        break;
      }
      if (result.error.code !== 'conflict') {
        fail(`append failed: ${result.error.code}: ${result.error.message}`);
      }
      conflicts++;
      version = await reload(session);
      known.set(session, version);
    }
  }
}

// Connect (and prepare) before "go", so start-up is not timed.
await reload(0);
loads = 0;
process.stdout.write('ready\n');
await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
const until = Date.now() + config.durationMs;
await Promise.all(Array.from({ length: config.concurrency }, () => agent(until)));
process.stdout.write(`done ${appends} ${conflicts} ${loads}\n`);
await store.close();
process.exit(0);
