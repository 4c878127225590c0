/**
 * Host benchmarks for the Vercel AI SDK adapter, for `scripts/bench.ts` to print: a round trip
 * through `generateText` (one planning tool call per step, the SDK's own mock model) on `ai` 6
 * and `ai` 7, each as a ratio to a bare `invokeTool`; and what model order costs when the calls
 * of a step already arrive in order.
 */
import { callTool } from '@plankit/adapters';
import { toAISDKTools } from '@plankit/adapters/ai-sdk';
import { createPlanningTools, invokeTool, type PlanningTools, Session } from '@plankit/core';
import { generateText as generateTextV6 } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { generateText as generateTextV7 } from 'ai-v7';
import { MockLanguageModelV4 } from 'ai-v7/test';
import {
  aisdkCallOrder,
  announceAISDKCall,
} from '../packages/adapters/src/ai-sdk/ai-sdk-call-order.ts';

/** One row: plankit's median time per operation over the baseline's. */
export interface AISDKBenchRow {
  readonly name: string;
  readonly ratio: number;
  readonly detail: string;
}

const NOW = 1_700_000_000_000;
const BATCH = 40;
const ROUNDS = 25;
const WARMUP_ROUNDS = 3;
const TOGGLE = ['in_progress', 'pending'] as const;
const mark = (i: number) => ({ step_id: 'S002', status: TOGGLE[i % 2] as string });

interface Side {
  /** Runs operation `i` of a batch. */
  readonly run: (i: number) => Promise<unknown>;
  /** Untimed, after every batch: restores the session (its history does not build up). */
  readonly reset: () => void;
}

interface Prepared {
  readonly session: Session;
  readonly tools: PlanningTools;
  readonly restore: () => void;
}

async function prepare(): Promise<Prepared> {
  const session = new Session({ clock: () => NOW });
  const tools = createPlanningTools(session);
  const steps = Array.from({ length: 5 }, (_, i) => ({ title: `Step ${i + 1}` }));
  const setup = await invokeTool(
    tools[0],
    { objective: 'Bench', initial_steps: steps },
    { session },
  );
  if (!setup.success) throw setup.error;
  const snapshot = session.snapshot();
  return {
    session,
    tools,
    restore: () => {
      const back = session.rollback(snapshot);
      if (!back.ok) throw back.error;
    },
  };
}

async function bareInvoke(): Promise<Side> {
  const { session, tools, restore } = await prepare();
  return {
    run: async (i) => {
      const result = await invokeTool(tools[3], mark(i), { session, now: NOW });
      if (!result.success) throw result.error;
    },
    reset: restore,
  };
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const oneCall = (i: number) => ({
  content: [
    {
      type: 'tool-call' as const,
      toolCallId: 'call_0',
      toolName: 'planning_mark_step',
      input: JSON.stringify(mark(i)),
    },
  ],
  finishReason: { unified: 'tool-calls' as const, raw: undefined },
  usage,
  warnings: [],
});

async function generateV6(): Promise<Side> {
  const { session, tools, restore } = await prepare();
  const aiTools = toAISDKTools(tools, { session, now: () => NOW });
  let i = 0;
  const model = new MockLanguageModelV3({ doGenerate: async () => oneCall(i) });
  return {
    run: async (index) => {
      i = index;
      const result = await generateTextV6({ model, prompt: 'Mark.', tools: aiTools });
      if (result.steps[0]?.toolResults.length !== 1) throw new Error('the call did not succeed');
    },
    reset: () => {
      model.doGenerateCalls.length = 0;
      restore();
    },
  };
}

async function generateV7(): Promise<Side> {
  const { session, tools, restore } = await prepare();
  // Built with the `ai` the adapter imports (6 here); ai@7 reads the same tool objects.
  const aiTools = toAISDKTools(tools, { session, now: () => NOW }) as unknown as NonNullable<
    Parameters<typeof generateTextV7>[0]['tools']
  >;
  let i = 0;
  const model = new MockLanguageModelV4({ doGenerate: async () => oneCall(i) });
  return {
    run: async (index) => {
      i = index;
      const result = await generateTextV7({ model, prompt: 'Mark.', tools: aiTools });
      if (result.steps[0]?.toolResults.length !== 1) throw new Error('the call did not succeed');
    },
    reset: () => {
      model.doGenerateCalls.length = 0;
      restore();
    },
  };
}

// Model order as the adapter runs it (announce from onInputAvailable, then callTool with the
// call's place), each batch one step whose calls arrive in emission order.
async function ordered(): Promise<Side> {
  const { session, tools, restore } = await prepare();
  let messages: object = [];
  return {
    run: async (i) => {
      const id = `call_${i}`;
      announceAISDKCall(session, messages, id);
      const { result } = await callTool(
        tools,
        { name: 'planning_mark_step', arguments: mark(i) },
        { session, now: NOW, order: aisdkCallOrder(session, messages, id) },
      );
      if (!result.success) throw result.error;
    },
    reset: () => {
      messages = [];
      restore();
    },
  };
}

async function unordered(): Promise<Side> {
  const { session, tools, restore } = await prepare();
  return {
    run: async (i) => {
      const { result } = await callTool(
        tools,
        { name: 'planning_mark_step', arguments: mark(i) },
        { session, now: NOW },
      );
      if (!result.success) throw result.error;
    },
    reset: restore,
  };
}

async function timeBatch(side: Side): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < BATCH; i++) await side.run(i);
  const elapsed = performance.now() - started;
  side.reset();
  return (elapsed * 1000) / BATCH;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
};

/** Median µs per operation of each side, over interleaved rounds so drift hits both alike. */
async function compare(
  plankit: () => Promise<Side>,
  baseline: () => Promise<Side>,
): Promise<{ plankit: number; baseline: number }> {
  const [a, b] = [await plankit(), await baseline()];
  const samples = { plankit: [] as number[], baseline: [] as number[] };
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    const [x, y] = [await timeBatch(a), await timeBatch(b)];
    if (round < WARMUP_ROUNDS) continue;
    samples.plankit.push(x);
    samples.baseline.push(y);
  }
  return { plankit: median(samples.plankit), baseline: median(samples.baseline) };
}

const us = (value: number): string => `${value.toFixed(2)} µs`;

/**
 * Runs the AI SDK host benchmarks: the `generateText` round trip on `ai` 6 and 7 against a bare
 * `invokeTool`, and model order against arrival order (target: at most 2 µs more per call).
 * Timings are reported, never enforced.
 */
export async function benchAISDK(): Promise<AISDKBenchRow[]> {
  const rows: AISDKBenchRow[] = [];
  for (const [major, side] of [
    ['6', generateV6],
    ['7', generateV7],
  ] as const) {
    const { plankit, baseline } = await compare(side, bareInvoke);
    rows.push({
      name: `round trip: AI SDK generateText (ai ${major})`,
      ratio: plankit / baseline,
      detail: `one step, one planning_mark_step call, MockLanguageModelV${major === '6' ? 3 : 4}: ${us(plankit)} vs bare invokeTool ${us(baseline)}`,
    });
  }
  const { plankit, baseline } = await compare(ordered, unordered);
  const extra = plankit - baseline;
  rows.push({
    name: 'model order: AI SDK calls already in order',
    ratio: plankit / baseline,
    detail: `announce + callTool with order ${us(plankit)} vs callTool ${us(baseline)}: ${extra >= 0 ? '+' : ''}${us(extra)} per call (target <= 2 µs: ${extra <= 2 ? 'PASS' : 'WARN'})`,
  });
  return rows;
}
