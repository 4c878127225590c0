import { callTool, formatToolContent, toolJsonSchema } from '@plankit/adapters';
import { type AnyTool, createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';
import { batch as batchExtension } from '@plankit/core/plan-model';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { BenchCase, BenchCount, BenchSide, BenchSuite } from '../../../scripts/bench.ts';

// What atomic batches save when an agent works a 10-step plan. One
// deterministic script of tool calls per side, run through callTool and formatToolContent (the
// text the model reads), tokens counted with o200k (gpt-tokenizer).

const NOW = 1_700_000_000_000;
const STEPS = 10;

interface Call {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

const id = (i: number): string => `S${String(i).padStart(3, '0')}`;

const setup: Call = {
  name: 'planning_setup_plan',
  arguments: {
    objective: 'Release v2 of the billing service',
    initial_steps: Array.from({ length: STEPS }, (_, i) => ({
      title: `Step ${i + 1} of the release checklist`,
    })),
  },
};
const read: Call = { name: 'planning_read_plan', arguments: {} };

/** Without batches: start each step, then finish it with a note: two calls per step. */
function singleCalls(): Call[] {
  const calls: Call[] = [setup];
  for (let i = 1; i <= STEPS; i++) {
    calls.push({
      name: 'planning_mark_step',
      arguments: { step_id: id(i), status: 'in_progress' },
    });
    calls.push({
      name: 'planning_mark_step',
      arguments: { step_id: id(i), status: 'done', note: `Checked step ${i}.` },
    });
  }
  calls.push(read);
  return calls;
}

/** With batches: start the first step, then one batch per step finishes it and starts the next. */
function batchedCalls(): Call[] {
  const calls: Call[] = [
    setup,
    {
      name: 'planning_apply_batch',
      arguments: { operations: [{ op: 'mark', step_id: id(1), status: 'in_progress' }] },
    },
  ];
  for (let i = 1; i <= STEPS; i++) {
    const operations: Record<string, unknown>[] = [
      { op: 'mark', step_id: id(i), status: 'done', note: `Checked step ${i}.` },
    ];
    if (i < STEPS) operations.push({ op: 'mark', step_id: id(i + 1), status: 'in_progress' });
    calls.push({ name: 'planning_apply_batch', arguments: { operations } });
  }
  calls.push(read);
  return calls;
}

interface Worked {
  readonly calls: number;
  /** Tokens of the call names and arguments, and of the results the model reads. */
  readonly tokens: number;
  /** The same, per call, in order. */
  readonly perCall: readonly number[];
  /** Tokens of the tool definitions (name, description, JSON Schema) sent with every request. */
  readonly definitions: number;
  readonly plan: Plan | undefined;
}

async function work(batch: boolean): Promise<Worked> {
  const session = new Session({ sessionId: 'token-economy', clock: () => NOW });
  const tools: readonly AnyTool[] = createPlanningTools(session, {
    extensions: batch ? [batchExtension()] : [],
  });
  const script = batch ? batchedCalls() : singleCalls();
  const perCall: number[] = [];
  for (const call of script) {
    const { tool, result } = await callTool(
      tools,
      { name: call.name, arguments: JSON.stringify(call.arguments) },
      { session },
    );
    if (!result.success) throw new Error(`${call.name} was refused: ${result.message}`);
    const text = formatToolContent(result, tool);
    perCall.push(
      countTokens(call.name) + countTokens(JSON.stringify(call.arguments)) + countTokens(text),
    );
  }
  const tokens = perCall.reduce((sum, n) => sum + n, 0);
  const definitions = countTokens(
    JSON.stringify(
      tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: toolJsonSchema(tool),
      })),
    ),
  );
  const plan = selectLatest(session, Plan);
  session.dispose();
  return { calls: script.length, tokens, perCall, definitions, plan };
}

const batched = await work(true);
const single = await work(false);

// Each call is one model request carrying the tool definitions (plus one final request).
const withDefinitions = (worked: Worked): number =>
  worked.tokens + (worked.calls + 1) * worked.definitions;

// An agent loop resends the definitions and the whole history with every request: request r
// carries the calls and results of the r - 1 calls before it (prompt caching not counted).
const cumulative = (worked: Worked): number => {
  let total = 0;
  let history = 0;
  for (let r = 0; r <= worked.calls; r++) {
    total += worked.definitions + history;
    history += worked.perCall[r] ?? 0;
  }
  return total;
};

const counts: BenchCount[] = [
  {
    name: 'tool calls: 10-step plan, batches vs single calls',
    what: `planning calls to set up, start, finish (with a note) and read a ${STEPS}-step plan: with planning_apply_batch (one call finishes a step and starts the next) vs one planning_mark_step per change`,
    plankit: batched.calls,
    baseline: single.calls,
    maxRatio: 0.75,
  },
  {
    name: 'call+result tokens: 10-step plan, batches vs single',
    what: 'o200k tokens of the call names, JSON arguments and result texts the model reads, same two scripts',
    plankit: batched.tokens,
    baseline: single.tokens,
    maxRatio: 1,
  },
  {
    name: 'tool definition tokens per request, batch vs six',
    what: 'o200k tokens of the tool definitions (name, description, JSON Schema) sent with every request: seven tools with planning_apply_batch vs the six',
    plankit: batched.definitions,
    baseline: single.definitions,
  },
  {
    name: 'total tokens incl. definitions: batches vs single',
    what: 'call+result tokens plus the tool definitions once per model request (calls + 1), same two scripts',
    plankit: withDefinitions(batched),
    baseline: withDefinitions(single),
    maxRatio: 1,
  },
  {
    name: 'input tokens over the loop: batches vs single',
    what: 'the sum over every model request (calls + 1) of the definitions plus the calls and results before it, as an agent loop resends them (no prompt caching), same two scripts',
    plankit: cumulative(batched),
    baseline: cumulative(single),
    maxRatio: 1,
  },
];

// Timed: only the calls; each run gets a fresh session and tools, built untimed in reset.
function scriptSide(batch: boolean): BenchSide {
  const script = batch ? batchedCalls() : singleCalls();
  let session = new Session({ clock: () => NOW });
  let tools: readonly AnyTool[] = createPlanningTools(session, {
    extensions: batch ? [batchExtension()] : [],
  });
  return {
    reset: () => {
      session.dispose();
      session = new Session({ clock: () => NOW });
      tools = createPlanningTools(session, { extensions: batch ? [batchExtension()] : [] });
    },
    run: async () => {
      let last: unknown;
      for (const call of script) {
        const { tool, result } = await callTool(
          tools,
          { name: call.name, arguments: JSON.stringify(call.arguments) },
          { session },
        );
        last = formatToolContent(result, tool);
      }
      return last;
    },
  };
}

const timed: BenchCase = {
  name: 'work a 10-step plan: batches vs single calls',
  what: 'the batched script (13 calls) vs the single-call script (22 calls) through callTool and formatToolContent, on a fresh session built untimed',
  maxRatio: 1,
  plankit: () => scriptSide(true),
  baseline: () => scriptSide(false),
};

/** Token economy of atomic batches. */
export const suite: BenchSuite = {
  name: 'token economy',
  cases: [timed],
  counts,
  check: () => {
    // Both scripts must end in the same plan, or the comparison is not like for like.
    if (JSON.stringify(batched.plan) !== JSON.stringify(single.plan))
      throw new Error('the batched and single-call scripts end in different plans');
    if (batched.plan?.status !== 'completed') throw new Error('the scripts must finish the plan');
  },
};
