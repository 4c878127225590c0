/**
 * LangChain rows for the host benchmarks: a tool round trip (arguments in, `ToolMessage` out)
 * through plankit's LangChain tool and through LangGraph's `ToolNode`, each as a ratio to a bare
 * `invokeTool` measured in the same run, and what model order costs per call when the calls
 * already arrive in order. `npm run bench` wires it in; run alone with
 * `node --conditions=@plankit/source --import tsx scripts/bench-hosts-langchain.ts`.
 */
import { AIMessage, type ToolCall } from '@langchain/core/messages';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { toLangChainTools } from '@plankit/adapters/langchain';
import { createPlanningTools, invokeTool, Session } from '@plankit/core';
import { Bench } from 'tinybench';

const NOW = 1_700_000_000_000;
const MARK = { step_id: 'S002', status: 'in_progress', note: 'Started.' } as const;
const ROUNDS = 2;
const TIME_MS = 500;
const WARMUP_MS = 100;

/** One timed operation: `reset` (untimed) restores the session and builds fresh host inputs. */
interface Side {
  readonly run: () => Promise<unknown>;
  readonly reset: () => void;
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
  };
}

let turns = 0;

/** A fresh model turn per run, so model order never answers from a retried call's outcome. */
function freshTurn(): { call: ToolCall; message: AIMessage } {
  turns++;
  const call: ToolCall = {
    id: `call_${turns}`,
    name: 'planning_mark_step',
    args: { ...MARK },
    type: 'tool_call',
  };
  return { call, message: new AIMessage({ id: `msg_${turns}`, content: '', tool_calls: [call] }) };
}

function expectSuccess(answer: unknown): void {
  const status = (answer as { status?: unknown }).status;
  if (status !== 'success') throw new Error(`the call was refused: ${JSON.stringify(answer)}`);
}

/** `tool.invoke(toolCall)` with no graph state: arrival order, no ordering bookkeeping. */
async function langChainTool(): Promise<Side> {
  const { session, rollback } = await planned();
  const mark = toLangChainTools(createPlanningTools(session), { session })[3];
  if (mark === undefined) throw new Error('no mark tool');
  let call = freshTurn().call;
  return {
    reset: () => {
      rollback();
      call = freshTurn().call;
    },
    run: async () => expectSuccess(await mark.invoke(call)),
  };
}

/** `tool.invoke(toolCall, { state })` as a ToolNode calls it: the turn is found and announced. */
async function langChainToolOrdered(): Promise<Side> {
  const { session, rollback } = await planned();
  const mark = toLangChainTools(createPlanningTools(session), { session })[3];
  if (mark === undefined) throw new Error('no mark tool');
  let turn = freshTurn();
  return {
    reset: () => {
      rollback();
      turn = freshTurn();
    },
    run: async () =>
      expectSuccess(
        await mark.invoke(turn.call, { state: { messages: [turn.message] } } as object),
      ),
  };
}

/** LangGraph's prebuilt `ToolNode` running one AIMessage with one call. */
async function toolNode(): Promise<Side> {
  const { session, rollback } = await planned();
  const node = new ToolNode(toLangChainTools(createPlanningTools(session), { session }));
  let turn = freshTurn();
  return {
    reset: () => {
      rollback();
      turn = freshTurn();
    },
    run: async () => {
      const { messages } = (await node.invoke({ messages: [turn.message] })) as {
        messages: unknown[];
      };
      expectSuccess(messages[0]);
    },
  };
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
 * LangChain host rows: each `ratio` is the LangChain side's median over its baseline's, measured
 * in the same run; `detail` gives both medians.
 */
export async function benchLangChain(): Promise<
  Array<{ name: string; ratio: number; detail: string }>
> {
  const medians = await measure({
    bare: await bare(),
    tool: await langChainTool(),
    ordered: await langChainToolOrdered(),
    node: await toolNode(),
  });
  const {
    bare: base = Number.NaN,
    tool = Number.NaN,
    ordered = Number.NaN,
    node = Number.NaN,
  } = medians;
  return [
    {
      name: 'langchain: tool.invoke(toolCall) round trip',
      ratio: tool / base,
      detail: `@langchain/core tool ${micros(tool)} vs bare invokeTool ${micros(base)}`,
    },
    {
      name: 'langchain: ToolNode round trip (1 call)',
      ratio: node / base,
      detail: `@langchain/langgraph ToolNode ${micros(node)} vs bare invokeTool ${micros(base)}`,
    },
    {
      name: 'langchain: model order, calls arriving in order',
      ratio: ordered / tool,
      detail: `with graph state ${micros(ordered)} vs without ${micros(tool)}: ${micros(ordered - tool)} per call`,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await benchLangChain())
    process.stdout.write(`${row.name}: ${row.ratio.toFixed(2)}x (${row.detail})\n`);
}
