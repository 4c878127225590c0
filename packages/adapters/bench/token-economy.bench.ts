import type { ToolMessage } from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import type { Command } from '@langchain/langgraph';
import { callTool, formatToolContent } from '@plankit/adapters';
import {
  type AnyTool,
  createPlanningTools,
  Plan,
  type PlanningExtension,
  Session,
  selectLatest,
} from '@plankit/core';
import { batch as batchExtension, dependencies, history, owners } from '@plankit/core/plan-model';
import { PlanningToolsSection } from '@plankit/prompt';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { TODO_LIST_MIDDLEWARE_SYSTEM_PROMPT, todoListMiddleware } from 'langchain';
import type { BenchCase, BenchCount, BenchSide, BenchSuite } from '../../../scripts/bench.ts';
import {
  definitionTokens,
  type SchemaOf,
  strictSchemaOf,
} from '../src/testing/definition-tokens.ts';

// What atomic batches save when an agent works a 10-step plan, what the plan-model tools'
// definitions cost, and the same plan worked step by step next to LangChain's
// todoListMiddleware. One deterministic script of tool calls per side, run through callTool and
// formatToolContent (the text the model reads), or for the peer through its real write_todos
// tool; tokens counted with o200k (gpt-tokenizer).

const NOW = 1_700_000_000_000;
const STEPS = 10;

interface Call {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

const id = (i: number): string => `S${String(i).padStart(3, '0')}`;
const title = (i: number): string => `Step ${i} of the release checklist`;
const OBJECTIVE = 'Release v2 of the billing service';

const setup: Call = {
  name: 'planning_setup_plan',
  arguments: {
    objective: OBJECTIVE,
    initial_steps: Array.from({ length: STEPS }, (_, i) => ({ title: title(i + 1) })),
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

const batch = (operations: Record<string, unknown>[]): Call => ({
  name: 'planning_apply_batch',
  arguments: { operations },
});

/**
 * The plan worked step by step as the docs recommend with batches: one call sets the plan up
 * and starts the first step, then one call per step finishes it (with a note) and starts the
 * next. Eleven calls for ten steps.
 */
function stepByStep(): Call[] {
  const calls: Call[] = [
    batch([
      { op: 'setup', objective: OBJECTIVE },
      ...Array.from({ length: STEPS }, (_, i) => ({ op: 'add', title: title(i + 1) })),
      { op: 'mark', step_id: id(1), status: 'in_progress' },
    ]),
  ];
  for (let i = 1; i <= STEPS; i++) {
    const operations: Record<string, unknown>[] = [
      { op: 'mark', step_id: id(i), status: 'done', note: `Checked step ${i}.` },
    ];
    if (i < STEPS) operations.push({ op: 'mark', step_id: id(i + 1), status: 'in_progress' });
    calls.push(batch(operations));
  }
  return calls;
}

/** With batches: the step-by-step script, then a read, as the single-call script ends. */
const batchedCalls = (): Call[] => [...stepByStep(), read];

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

async function work(batch: boolean, script: readonly Call[]): Promise<Worked> {
  const session = new Session({ sessionId: 'token-economy', clock: () => NOW });
  const tools: readonly AnyTool[] = createPlanningTools(session, {
    extensions: batch ? [batchExtension()] : [],
  });
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
  const definitions = definitionTokens(tools);
  const plan = selectLatest(session, Plan);
  session.dispose();
  return { calls: script.length, tokens, perCall, definitions, plan };
}

const batched = await work(true, batchedCalls());
const single = await work(false, singleCalls());
const stepped = await work(true, stepByStep());

// What each plan-model option's tools cost on every request, and the batch tool alone.
const definitionsWith = (extensions: readonly PlanningExtension[]): readonly AnyTool[] =>
  createPlanningTools(new Session(), { extensions });
const EXTENSIONS = {
  dependencies: dependencies(),
  batch: batchExtension(),
  history: history(),
  owners: owners({ agent: 'worker-1' }),
} as const;
const ALL_OPTIONS = Object.values(EXTENSIONS);
const batchToolTokens = (extensions: readonly PlanningExtension[], schemaOf?: SchemaOf): number =>
  definitionTokens(
    definitionsWith(extensions).filter((tool) => tool.name === 'planning_apply_batch'),
    schemaOf,
  );
// The tools' own schemas, as LangChain, MCP and a tool that is not strict send them.
const BATCH_BUDGET = 200;
const ALL_OPTIONS_BUDGET = 1_000;
// The strict form OpenAI, Anthropic, the AI SDK and the OpenAI Agents SDK send for the planning
// tools (strict by default): every field required, the optional ones nullable.
const STRICT_BATCH_BUDGET = 290;
const STRICT_ALL_OPTIONS_BUDGET = 1_350;

// The peer: LangChain's todoListMiddleware, its real write_todos tool and system prompt. Ten
// steps worked step by step: the first call writes the list with step 1 in_progress, each next
// one completes a step and starts the next, the last completes step 10.
async function peer(): Promise<Worked> {
  const writeTodos = todoListMiddleware().tools?.[0] as StructuredToolInterface | undefined;
  if (writeTodos === undefined) throw new Error('todoListMiddleware offers no write_todos tool');
  const lists = Array.from({ length: STEPS + 1 }, (_, call) =>
    Array.from({ length: STEPS }, (_, i) => ({
      content: title(i + 1),
      status: i < call ? 'completed' : i === call ? 'in_progress' : 'pending',
    })),
  );
  const perCall: number[] = [];
  for (const [n, todos] of lists.entries()) {
    const command = (await writeTodos.invoke({
      name: writeTodos.name,
      args: { todos },
      id: `call_${n}`,
      type: 'tool_call',
    })) as Command;
    const update = command.update as { readonly messages: readonly ToolMessage[] };
    const text = String(update.messages[0]?.content);
    perCall.push(
      countTokens(writeTodos.name) + countTokens(JSON.stringify({ todos })) + countTokens(text),
    );
  }
  const definitions = countTokens(
    JSON.stringify([
      {
        name: writeTodos.name,
        description: writeTodos.description,
        parameters: toJsonSchema(writeTodos.schema),
      },
    ]),
  );
  return {
    calls: lists.length,
    tokens: perCall.reduce((sum, n) => sum + n, 0),
    perCall,
    definitions: definitions + countTokens(TODO_LIST_MIDDLEWARE_SYSTEM_PROMPT),
    plan: undefined,
  };
}
const todoList = await peer();
// plankit's side carries its planning prompt section (with the batch line) the same way.
const planningPrompt = countTokens(
  new PlanningToolsSection({ session: new Session(), extensions: [EXTENSIONS.batch] }).render(),
);
const steppedWithPrompt: Worked = {
  ...stepped,
  definitions: stepped.definitions + planningPrompt,
};

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
    name: 'planning_apply_batch definition tokens vs budget',
    what: `o200k tokens of the batch tool's definition (name, description, JSON Schema) vs its ${BATCH_BUDGET}-token budget`,
    plankit: batchToolTokens([EXTENSIONS.batch]),
    baseline: BATCH_BUDGET,
    maxRatio: 1,
  },
  {
    name: 'the same with history on',
    what: `the batch tool's definition with its explanation field vs the ${BATCH_BUDGET}-token budget`,
    plankit: batchToolTokens([EXTENSIONS.batch, EXTENSIONS.history]),
    baseline: BATCH_BUDGET,
    maxRatio: 1,
  },
  {
    name: 'the same with every option on',
    what: `the batch tool's definition with depends_on and explanation vs the ${BATCH_BUDGET}-token budget (reported, no target)`,
    plankit: batchToolTokens(ALL_OPTIONS),
    baseline: BATCH_BUDGET,
  },
  {
    name: 'definition tokens, every option on vs budget',
    what: `o200k tokens of all nine tools' definitions with dependencies, batch, history and owners on vs the ${ALL_OPTIONS_BUDGET}-token budget`,
    plankit: definitionTokens(definitionsWith(ALL_OPTIONS)),
    baseline: ALL_OPTIONS_BUDGET,
    maxRatio: 1,
  },
  {
    name: 'planning_apply_batch definition tokens, strict hosts vs budget',
    what: `the batch tool's definition in the strict form OpenAI, Anthropic, the AI SDK and the OpenAI Agents SDK send vs its ${STRICT_BATCH_BUDGET}-token budget`,
    plankit: batchToolTokens([EXTENSIONS.batch], strictSchemaOf),
    baseline: STRICT_BATCH_BUDGET,
    maxRatio: 1,
  },
  {
    name: 'the same with history on, strict hosts',
    what: `the batch tool's strict definition with its explanation field vs the ${STRICT_BATCH_BUDGET}-token budget`,
    plankit: batchToolTokens([EXTENSIONS.batch, EXTENSIONS.history], strictSchemaOf),
    baseline: STRICT_BATCH_BUDGET,
    maxRatio: 1,
  },
  {
    name: 'definition tokens, every option on, strict hosts vs budget',
    what: `all nine tools' definitions in the strict form, every option on, vs the ${STRICT_ALL_OPTIONS_BUDGET}-token budget`,
    plankit: definitionTokens(definitionsWith(ALL_OPTIONS), strictSchemaOf),
    baseline: STRICT_ALL_OPTIONS_BUDGET,
    maxRatio: 1,
  },
  ...(['dependencies', 'batch', 'history', 'owners'] as const).map(
    (option): BenchCount => ({
      name: `definition tokens, ${option} vs the six`,
      what: `o200k tokens of the tool definitions with the ${option} option on vs the six reference tools`,
      plankit: definitionTokens(definitionsWith([EXTENSIONS[option]])),
      baseline: single.definitions,
    }),
  ),
  {
    name: 'tool calls: 10 steps one by one, batches vs todoListMiddleware',
    what: `calls to set up a ${STEPS}-step plan and work it step by step (start each step, finish it): plankit with planning_apply_batch (setup and the first start in one call, then finish a step and start the next in one) vs LangChain todoListMiddleware's write_todos`,
    plankit: stepped.calls,
    baseline: todoList.calls,
    maxRatio: 1,
  },
  {
    name: 'total tokens: 10 steps one by one, batches vs todoListMiddleware',
    what: 'call+result tokens plus, once per model request (calls + 1), the tool definitions and the planning prompt (plankit: the REACT planning section with the batch line; the peer: its system prompt); plankit also writes a note per step',
    plankit: withDefinitions(steppedWithPrompt),
    baseline: withDefinitions(todoList),
    maxRatio: 0.5,
  },
  {
    name: 'input tokens over the loop: batches vs todoListMiddleware',
    what: 'the same two scripts, summed over every model request as an agent loop resends the prompt, definitions and history (no prompt caching)',
    plankit: cumulative(steppedWithPrompt),
    baseline: cumulative(todoList),
    maxRatio: 0.5,
  },
  {
    name: 'tool calls: 10-step plan, batches vs single calls',
    what: `planning calls to set up, start, finish (with a note) and read a ${STEPS}-step plan: with planning_apply_batch (the first call sets up and starts step 1, each next one finishes a step and starts the next) vs planning_setup_plan and one planning_mark_step per change`,
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
function scriptSide(batch: boolean, explained = false): BenchSide {
  const script = batch ? batchedCalls() : singleCalls();
  const extensions = (): PlanningExtension[] => [
    ...(batch ? [batchExtension()] : []),
    ...(explained ? [history()] : []),
  ];
  let session = new Session({ clock: () => NOW });
  let tools: readonly AnyTool[] = createPlanningTools(session, { extensions: extensions() });
  return {
    reset: () => {
      session.dispose();
      session = new Session({ clock: () => NOW });
      tools = createPlanningTools(session, { extensions: extensions() });
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
  what: `the batched script (${batched.calls} calls) vs the single-call script (${single.calls} calls) through callTool and formatToolContent, on a fresh session built untimed`,
  maxRatio: 1,
  plankit: () => scriptSide(true),
  baseline: () => scriptSide(false),
};

const timedWithHistory: BenchCase = {
  name: 'work a 10-step plan with history on: batches vs single calls',
  what: 'both scripts with history() as well: every change is recorded as a revision, and a batch is still applied once',
  maxRatio: 1,
  plankit: () => scriptSide(true, true),
  baseline: () => scriptSide(false, true),
};

/** Token economy of the plan-model tools and of atomic batches. */
export const suite: BenchSuite = {
  name: 'token economy',
  cases: [timed, timedWithHistory],
  counts,
  check: () => {
    // Both scripts must end in the same plan, or the comparison is not like for like.
    if (JSON.stringify(batched.plan) !== JSON.stringify(single.plan))
      throw new Error('the batched and single-call scripts end in different plans');
    if (batched.plan?.status !== 'completed') throw new Error('the scripts must finish the plan');
    if (JSON.stringify(stepped.plan) !== JSON.stringify(single.plan))
      throw new Error('the step-by-step script ends in a different plan');
  },
};
