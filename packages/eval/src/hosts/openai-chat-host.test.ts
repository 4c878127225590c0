// openAIChatHost against the real `openai` clients: v6 (`openai`) and v7 (the `openai-v7` npm
// alias; openai@7 declares Node >= 22, its client loads and runs on Node 20.20 here), each
// pointed at a loopback server that replays scripted Chat Completions responses.
import { MemoryStore } from '@plankit/adapters/stores';
import OpenAI from 'openai';
import OpenAIv7 from 'openai-v7';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type RecordingServer,
  requestBody,
  startRecordingServer,
} from '../../../adapters/src/testing/recording-server.ts';
import { defineEval } from '../config/define-eval.ts';
import { runEval } from '../runner/run-eval.ts';
import { openAIChatHost } from './openai-chat-host.ts';

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const completion = (
  message: Record<string, unknown>,
  finish: string,
  usage: { prompt: number; completion: number; cached?: number },
) => ({
  id: 'chatcmpl-eval',
  object: 'chat.completion',
  created: 1_763_000_000,
  model: 'gpt-5-mini',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: null, refusal: null, annotations: [], ...message },
      logprobs: null,
      finish_reason: finish,
    },
  ],
  usage: {
    prompt_tokens: usage.prompt,
    completion_tokens: usage.completion,
    total_tokens: usage.prompt + usage.completion,
    prompt_tokens_details: { cached_tokens: usage.cached ?? 0 },
  },
});

const call = (id: string, name: string, args: unknown) => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});

const SCRIPT = [
  completion(
    {
      tool_calls: [
        call('call_1', 'planning_setup_plan', {
          objective: 'Write hello.txt',
          initial_steps: [{ title: 'Write hello.txt' }],
        }),
        call('call_2', 'workspace_write', { path: 'hello.txt', content: 'hi' }),
      ],
    },
    'tool_calls',
    { prompt: 1000, completion: 100 },
  ),
  completion(
    { tool_calls: [call('call_3', 'planning_mark_step', { step_id: 'S001', status: 'done' })] },
    'tool_calls',
    { prompt: 1500, completion: 50, cached: 1000 },
  ),
  completion({ content: 'Done: hello.txt says hi.' }, 'stop', { prompt: 1600, completion: 20 }),
];

const clients = [
  ['openai v6', (baseURL: string) => new OpenAI({ apiKey: 'test', baseURL, maxRetries: 0 })],
  ['openai v7', (baseURL: string) => new OpenAIv7({ apiKey: 'test', baseURL, maxRetries: 0 })],
] as const;

function config(client: OpenAI | OpenAIv7) {
  return defineEval({
    arms: [
      {
        id: 'plan',
        host: openAIChatHost({ client, model: 'gpt-5-mini' }),
        planning: { strategy: 'react', reminder: 'every_turn' },
      },
    ],
    tasks: [
      {
        id: 'hello',
        prompt: 'Write hello.txt saying hi.',
        check: ({ files }) => ({ pass: files.get('hello.txt') === 'hi', reason: 'hello.txt' }),
      },
    ],
    repetitions: 1,
    seed: 3,
    maxOutputTokens: 256,
    prices: { 'gpt-5-mini': { usdPerMillionInput: 1, usdPerMillionOutput: 4 } },
    budget: { totalUsd: 1 },
  });
}

// A goal arm: the first answer leaves hello.txt wrong, the check says not yet, the goal's
// continuation line goes back as a user message, and the second answer fixes the file.
const GOAL_SCRIPT = [
  completion(
    { tool_calls: [call('call_1', 'workspace_write', { path: 'hello.txt', content: 'hello' })] },
    'tool_calls',
    { prompt: 500, completion: 50 },
  ),
  completion({ content: 'Done.' }, 'stop', { prompt: 600, completion: 10 }),
  completion(
    { tool_calls: [call('call_2', 'workspace_write', { path: 'hello.txt', content: 'hi' })] },
    'tool_calls',
    { prompt: 700, completion: 50 },
  ),
  completion({ content: 'Fixed: hello.txt says hi.' }, 'stop', { prompt: 800, completion: 10 }),
];

function goalConfig(client: OpenAI | OpenAIv7) {
  const base = config(client);
  return defineEval({
    ...base,
    arms: [{ ...(base.arms[0] as (typeof base.arms)[number]), planning: false, goal: true }],
  });
}

describe.each(clients)('openAIChatHost with the real %s client', (_name, make) => {
  it('a goal arm sends the continuation line as the next user message until the check passes', async () => {
    server = await startRecordingServer(GOAL_SCRIPT);
    const run = await runEval(goalConfig(make(`${server.url}/v1`)), { store: new MemoryStore() });
    const trial = run.trials[0];
    expect(trial).toMatchObject({ status: 'finished', stop: 'done', pass: true, turns: 4 });
    expect(trial?.goal).toMatchObject({ status: 'achieved', turns: 2, checks: 2 });
    expect(server.requests).toHaveLength(4);
    const third = requestBody(server, 2) as { messages: { role: string; content: string }[] };
    expect(third.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
    expect(third.messages[5]?.content).toMatch(
      /^Goal: Write hello.txt saying hi\. Keep working toward it: the last check says not yet: hello.txt \(1 of 100 turns/,
    );
    expect(trial?.transcript.filter((e) => e.kind === 'goal').map((e) => e.turn)).toEqual([2, 4]);
  });

  it('runs a trial over loopback: tools out, tool replies and the plan reminder back, usage priced', async () => {
    server = await startRecordingServer(SCRIPT);
    const run = await runEval(config(make(`${server.url}/v1`)), { store: new MemoryStore() });
    expect(run.outcome).toBe('completed');
    const trial = run.trials[0];
    expect(trial).toMatchObject({ status: 'finished', stop: 'done', pass: true, turns: 3 });
    expect(trial?.verdict).toEqual({ pass: true, reason: 'hello.txt', by: 'function' });
    expect(trial?.toolCalls).toBe(3);
    expect(trial?.planningCalls).toBe(2);
    expect(trial?.plan).toEqual({ created: 1, completed: 1, abandoned: 0 });
    expect(trial?.inputTokens).toBe(4100);
    expect(trial?.outputTokens).toBe(170);
    // Cached input is priced at the input price when the table has no cached price.
    expect(trial?.usd).toBeCloseTo((4100 * 1 + 170 * 4) / 1e6, 9);

    expect(server.requests).toHaveLength(3);
    expect(server.requests.every((r) => r.url === '/v1/chat/completions')).toBe(true);
    const first = requestBody(server, 0) as {
      model: string;
      max_completion_tokens: number;
      messages: { role: string; content: string }[];
      tools: { type: string; function: { name: string } }[];
    };
    expect(first.model).toBe('gpt-5-mini');
    expect(first.max_completion_tokens).toBe(256);
    expect(first.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(first.messages[0]?.content).toMatch(/plan/i);
    expect(first.tools.map((t) => t.function.name)).toEqual(
      expect.arrayContaining(['workspace_write', 'planning_setup_plan', 'planning_mark_step']),
    );
    const second = requestBody(server, 1) as {
      messages: { role: string; content: string; tool_call_id?: string }[];
    };
    expect(second.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
    ]);
    expect(second.messages[3]?.tool_call_id).toBe('call_1');
    expect(second.messages[4]).toMatchObject({
      tool_call_id: 'call_2',
      content: expect.stringMatching(/^Wrote hello.txt \(2 characters\)\./),
    });
    // every_turn: the reminder is the last user message and shows the plan.
    expect(second.messages[5]?.content).toContain('Write hello.txt');
    // Before turn 3 every step is done: renderPlanReminder has nothing open to remind of.
    expect(trial?.transcript.filter((e) => e.kind === 'reminder')).toHaveLength(1);
  });

  it('a provider error (HTTP 500) errors the trial, keeps the spend of the calls before it', async () => {
    server = await startRecordingServer(SCRIPT.slice(0, 1));
    const run = await runEval(config(make(`${server.url}/v1`)), { store: new MemoryStore() });
    expect(run.outcome).toBe('completed');
    const trial = run.trials[0];
    expect(trial).toMatchObject({ status: 'errored', stop: 'error', pass: false, verdict: null });
    expect(trial?.error).toMatch(/no recorded response left/);
    expect(trial?.inputTokens).toBe(1000);
    expect(run.report.arms[0]?.errored).toBe(1);
    expect(run.report.arms[0]?.n).toBe(0);
  });
});
