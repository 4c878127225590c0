/**
 * MCP rows for the host benchmarks: a `tools/call` round trip (a real client's request through
 * the SDK's in-memory transport to an `McpServer` with plankit's tools, and its result back) on
 * MCP v1 and v2, each as a ratio to a bare `invokeTool` measured in the same run. `npm run bench`
 * wires it in; run alone with `node --conditions=@plankit/source --import tsx scripts/bench-hosts-mcp.ts`.
 */
import { Client as ClientV2, InMemoryTransport as InMemoryV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { registerMcpTools as registerV1 } from '@plankit/adapters/mcp';
import { registerMcpTools as registerV2 } from '@plankit/adapters/mcp-v2';
import { createPlanningTools, invokeTool, Session } from '@plankit/core';
import { Bench } from 'tinybench';

const NOW = 1_700_000_000_000;
const MARK = { step_id: 'S002', status: 'in_progress', note: 'Started.' } as const;
const ROUNDS = 2;
const TIME_MS = 500;
const WARMUP_MS = 100;

/** One timed operation: `reset` (untimed) restores the session. */
interface Side {
  readonly run: () => Promise<unknown>;
  readonly reset: () => void;
  readonly close: () => Promise<void>;
}

/** A session holding a 20-step plan, and a reset back to it. */
async function planned(): Promise<{ session: Session; rollback: () => void }> {
  const session = new Session({ clock: () => NOW });
  const [setup] = createPlanningTools(session);
  const steps = Array.from({ length: 20 }, (_, i) => ({ title: `Step ${i + 1}` }));
  const result = await invokeTool(
    setup,
    { objective: 'Benchmark', initial_steps: steps },
    { session },
  );
  if (!result.success) throw result.error;
  const snapshot = session.snapshot();
  return {
    session,
    rollback: () => {
      const back = session.rollback(snapshot);
      if (!back.ok) throw back.error;
    },
  };
}

async function bare(): Promise<Side> {
  const { session, rollback } = await planned();
  const mark = createPlanningTools(session)[3];
  return {
    reset: rollback,
    run: async () => {
      const result = await invokeTool(mark, MARK, { session, now: NOW });
      if (!result.success) throw result.error;
    },
    close: async () => undefined,
  };
}

interface CallingClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

function expectSuccess(result: unknown): void {
  if ((result as { isError?: unknown }).isError === true)
    throw new Error(`the call was refused: ${JSON.stringify(result)}`);
}

async function mcpSide(connect: (session: Session) => Promise<CallingClient>): Promise<Side> {
  const { session, rollback } = await planned();
  const client = await connect(session);
  // The client validates structuredContent against the listed outputSchema, as a host would.
  await (client as unknown as { listTools(): Promise<unknown> }).listTools();
  return {
    reset: rollback,
    run: async () =>
      expectSuccess(await client.callTool({ name: 'planning_mark_step', arguments: { ...MARK } })),
    close: () => client.close(),
  };
}

async function v1(session: Session): Promise<CallingClient> {
  const server = new McpServerV1({ name: 'bench', version: '1.0.0' });
  registerV1(server, createPlanningTools(session), { session });
  const [serverSide, clientSide] = InMemoryV1.createLinkedPair();
  await server.connect(serverSide);
  const client = new ClientV1({ name: 'bench-client', version: '1.0.0' });
  await client.connect(clientSide);
  return client as unknown as CallingClient;
}

async function v2(session: Session): Promise<CallingClient> {
  const server = new McpServerV2({ name: 'bench', version: '1.0.0' });
  registerV2(server, createPlanningTools(session), { session });
  const [serverSide, clientSide] = InMemoryV2.createLinkedPair();
  await server.connect(serverSide);
  const client = new ClientV2({ name: 'bench-client', version: '1.0.0' });
  await client.connect(clientSide);
  return client as unknown as CallingClient;
}

function median(samples: readonly number[]): number {
  const sorted = Float64Array.from(samples).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? Number.NaN)
    : ((sorted[mid - 1] ?? Number.NaN) + (sorted[mid] ?? Number.NaN)) / 2;
}

/** Median latency in ms of each side, over interleaved rounds in alternating order. */
async function measure(sides: Readonly<Record<string, Side>>): Promise<Record<string, number>> {
  const samples: Record<string, number[]> = {};
  const names = Object.keys(sides);
  for (let round = 0; round < ROUNDS; round++) {
    const bench = new Bench({
      time: TIME_MS,
      warmupTime: WARMUP_MS,
      timestampProvider: 'hrtimeNow',
      retainSamples: true,
      throws: true,
    });
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      const side = sides[name];
      if (side === undefined) continue;
      side.reset();
      bench.add(name, side.run, { async: true, beforeEach: () => side.reset() });
    }
    for (const task of await bench.run()) {
      const result = task.result;
      if (result.state !== 'completed') throw new Error(`${task.name}: ${result.state}`);
      const pooled = samples[task.name] ?? [];
      samples[task.name] = pooled;
      for (const sample of result.latency.samples ?? []) pooled.push(sample);
    }
  }
  return Object.fromEntries(names.map((name) => [name, median(samples[name] ?? [])]));
}

const micros = (ms: number): string => `${(ms * 1000).toFixed(2)} µs`;

/**
 * MCP host rows: each `ratio` is a `tools/call` round trip's median over a bare `invokeTool`'s,
 * measured in the same run; `detail` gives both medians.
 */
export async function benchMCP(): Promise<Array<{ name: string; ratio: number; detail: string }>> {
  const sides = {
    bare: await bare(),
    v1: await mcpSide(v1),
    v2: await mcpSide(v2),
  };
  try {
    const {
      bare: base = Number.NaN,
      v1: one = Number.NaN,
      v2: two = Number.NaN,
    } = await measure(sides);
    return [
      {
        name: 'mcp v1: tools/call round trip (in-memory)',
        ratio: one / base,
        detail: `@modelcontextprotocol/sdk client and McpServer ${micros(one)} vs bare invokeTool ${micros(base)}`,
      },
      {
        name: 'mcp v2: tools/call round trip (in-memory)',
        ratio: two / base,
        detail: `@modelcontextprotocol/client and /server ${micros(two)} vs bare invokeTool ${micros(base)}`,
      },
    ];
  } finally {
    for (const side of Object.values(sides)) await side.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await benchMCP())
    process.stdout.write(`${row.name}: ${row.ratio.toFixed(2)}x (${row.detail})\n`);
}
