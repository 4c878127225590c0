import { type ChildProcess, spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  type AgentApp,
  type ClientConnection,
  client,
  ndJsonStream,
  type SessionNotification,
  type Stream,
} from '@agentclientprotocol/sdk';

/** A client of the real ACP SDK that records every `session/update` it gets. */
export interface RecordingClient {
  readonly connection: ClientConnection;
  /** Every update received, in order. */
  readonly updates: readonly SessionNotification[];
  /** The first update from index `from` on that `match` accepts, once it has arrived. */
  waitFor(match: (n: SessionNotification) => boolean, from?: number): Promise<SessionNotification>;
}

/** Connects a recording client to an agent over `target`: a stream, or an app in memory. */
export function connectClient(target: Stream | AgentApp): RecordingClient {
  const updates: SessionNotification[] = [];
  const waiters = new Set<() => void>();
  const app = client({ name: 'plankit-acp-editor' }).onNotification(
    'session/update',
    ({ params }) => {
      updates.push(params);
      for (const wake of [...waiters]) wake();
    },
  );
  const connection = 'writable' in target ? app.connect(target) : app.connect(target);
  return {
    connection,
    updates,
    waitFor: async (match, from = 0) => {
      for (;;) {
        const found = updates.slice(from).find(match);
        if (found !== undefined) return found;
        await new Promise<void>((wake) => {
          const done = () => {
            waiters.delete(done);
            wake();
          };
          waiters.add(done);
          void connection.closed.then(done);
        });
        if (connection.signal.aborted && updates.slice(from).find(match) === undefined)
          throw new Error('The connection closed before the update came.');
      }
    },
  };
}

/** The agent's entry: what Zed's `agent_servers` launches. */
export const AGENT_MAIN: string = fileURLToPath(new URL('./main.ts', import.meta.url));

/** A spawned stdio agent: its process, the stream to it and the moment it exits. */
export interface SpawnedAgent {
  readonly child: ChildProcess;
  readonly stream: Stream;
  readonly exited: Promise<number | null>;
}

/** Starts the agent as Zed does, over stdio, on the sources, keeping plans in `store`. */
export function spawnAgent(store: string, env: NodeJS.ProcessEnv = {}): SpawnedAgent {
  const child = spawn(
    process.execPath,
    ['--conditions=@plankit/source', '--import', 'tsx', AGENT_MAIN, '--store', store],
    { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ANTHROPIC_API_KEY: '', ...env } },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (child.stdin === null || child.stdout === null) throw new Error('no stdio pipes');
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  return { child, stream, exited };
}

/** A plan update as a checklist: `[x]` done, `[~]` in progress, `[ ]` pending. */
export function renderPlanEntries(notification: SessionNotification): string {
  const update = notification.update;
  if (update.sessionUpdate !== 'plan') return '';
  const box = { completed: '[x]', in_progress: '[~]', pending: '[ ]' } as const;
  return update.entries.map((entry) => `  ${box[entry.status]} ${entry.content}`).join('\n');
}
