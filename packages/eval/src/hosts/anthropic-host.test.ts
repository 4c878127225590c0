// anthropicHost against the real `@anthropic-ai/sdk` client, pointed at a loopback server that
// replays scripted Messages API responses.
import Anthropic from '@anthropic-ai/sdk';
import { MemoryStore } from '@plankit/adapters/stores';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type RecordingServer,
  requestBody,
  startRecordingServer,
} from '../../../adapters/src/testing/recording-server.ts';
import { defineEval } from '../config/define-eval.ts';
import { runEval } from '../runner/run-eval.ts';
import { anthropicHost } from './anthropic-host.ts';

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const reply = (
  content: unknown[],
  stop: string,
  usage: { input: number; output: number; cached?: number },
) => ({
  id: 'msg_eval',
  type: 'message',
  role: 'assistant',
  model: 'claude-test-model',
  content,
  stop_reason: stop,
  stop_sequence: null,
  usage: {
    input_tokens: usage.input,
    output_tokens: usage.output,
    cache_read_input_tokens: usage.cached ?? 0,
    cache_creation_input_tokens: 0,
  },
});
const use = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input });

const SCRIPT = [
  reply(
    [
      { type: 'text', text: 'A plan first.' },
      use('toolu_1', 'planning_setup_plan', {
        objective: 'Write hello.txt',
        initial_steps: [{ title: 'Write hello.txt' }],
      }),
      use('toolu_2', 'workspace_write', { path: 'hello.txt', content: 'hi' }),
    ],
    'tool_use',
    { input: 1000, output: 100 },
  ),
  reply([use('toolu_3', 'planning_mark_step', { step_id: 'S001', status: 'done' })], 'tool_use', {
    input: 500,
    output: 50,
    cached: 1000,
  }),
  reply([{ type: 'text', text: 'Done: hello.txt says hi.' }], 'end_turn', {
    input: 600,
    output: 20,
  }),
];

function config(client: Anthropic) {
  return defineEval({
    arms: [
      {
        id: 'plan',
        host: anthropicHost({ client, model: 'claude-test-model' }),
        planning: { strategy: 'react', reminder: 'every_turn' },
      },
    ],
    tasks: [
      {
        id: 'hello',
        prompt: 'Write hello.txt saying hi.',
        check: ({ files, text }) => files.get('hello.txt') === 'hi' && text.startsWith('Done'),
      },
    ],
    repetitions: 1,
    seed: 3,
    maxOutputTokens: 256,
    prices: { 'claude-test-model': { usdPerMillionInput: 3, usdPerMillionOutput: 15 } },
    budget: { totalUsd: 1 },
  });
}

// A goal arm: the first answer leaves hello.txt wrong, the check says not yet, and the
// goal's continuation line is the next user turn, after the assistant's answer.
const GOAL_SCRIPT = [
  reply([use('toolu_1', 'workspace_write', { path: 'hello.txt', content: 'hello' })], 'tool_use', {
    input: 500,
    output: 50,
  }),
  reply([{ type: 'text', text: 'Done.' }], 'end_turn', { input: 600, output: 10 }),
  reply([use('toolu_2', 'workspace_write', { path: 'hello.txt', content: 'hi' })], 'tool_use', {
    input: 700,
    output: 50,
  }),
  reply([{ type: 'text', text: 'Done: fixed.' }], 'end_turn', { input: 800, output: 10 }),
];

describe('anthropicHost with the real @anthropic-ai/sdk client', () => {
  it('a goal arm continues on the goal line, user and assistant still alternating', async () => {
    server = await startRecordingServer(GOAL_SCRIPT);
    const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    const base = config(client);
    const arm = base.arms[0] as (typeof base.arms)[number];
    const run = await runEval(
      defineEval({ ...base, arms: [{ ...arm, planning: false, goal: { budget: { turns: 3 } } }] }),
      { store: new MemoryStore() },
    );
    const trial = run.trials[0];
    expect(trial).toMatchObject({ status: 'finished', stop: 'done', pass: true, turns: 4 });
    expect(trial?.goal).toMatchObject({ status: 'achieved', turns: 2 });
    const third = requestBody(server, 2) as { messages: { role: string; content: unknown }[] };
    expect(third.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(third.messages[4]?.content).toMatch(
      /^Goal: Write hello.txt saying hi\. Keep working toward it: the last check says not yet \(1 of 3 turns/,
    );
  });

  it('runs a trial over loopback: tool_result blocks and the reminder in one user turn, usage priced', async () => {
    server = await startRecordingServer(SCRIPT);
    const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    const run = await runEval(config(client), { store: new MemoryStore() });
    expect(run.outcome).toBe('completed');
    const trial = run.trials[0];
    expect(trial).toMatchObject({ status: 'finished', stop: 'done', pass: true, turns: 3 });
    expect(trial?.toolCalls).toBe(3);
    expect(trial?.planningCalls).toBe(2);
    expect(trial?.plan).toEqual({ created: 1, completed: 1, abandoned: 0 });
    // Anthropic reports cached input apart; the host counts it as input.
    expect(trial?.inputTokens).toBe(1000 + 1500 + 600);
    expect(trial?.outputTokens).toBe(170);
    expect(trial?.usd).toBeCloseTo((3100 * 3 + 170 * 15) / 1e6, 9);
    expect(trial?.transcript[0]).toEqual({ kind: 'assistant', turn: 1, text: 'A plan first.' });

    expect(server.requests).toHaveLength(3);
    expect(server.requests.every((r) => r.url === '/v1/messages')).toBe(true);
    const first = requestBody(server, 0) as {
      model: string;
      max_tokens: number;
      system: string;
      messages: unknown[];
      tools: { name: string }[];
    };
    expect(first.model).toBe('claude-test-model');
    expect(first.max_tokens).toBe(256);
    expect(first.system).toMatch(/plan/i);
    expect(first.messages).toEqual([{ role: 'user', content: 'Write hello.txt saying hi.' }]);
    expect(first.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['workspace_write', 'planning_setup_plan']),
    );
    const second = requestBody(server, 1) as {
      messages: {
        role: string;
        content: { type: string; tool_use_id?: string; text?: string }[];
      }[];
    };
    // User and assistant alternate: the reminder joins the tool results' user turn.
    expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    const last = second.messages[2]?.content ?? [];
    expect(last.map((b) => b.type)).toEqual(['tool_result', 'tool_result', 'text']);
    expect(last.map((b) => b.tool_use_id)).toEqual(['toolu_1', 'toolu_2', undefined]);
    expect(last[2]?.text).toContain('Write hello.txt');
  });

  it('a provider error (HTTP 500) errors the trial, keeps the spend of the calls before it', async () => {
    server = await startRecordingServer(SCRIPT.slice(0, 1));
    const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    const run = await runEval(config(client), { store: new MemoryStore() });
    const trial = run.trials[0];
    expect(trial).toMatchObject({ status: 'errored', stop: 'error', verdict: null });
    expect(trial?.error).toMatch(/no recorded response left/);
    expect(trial?.inputTokens).toBe(1000);
  });
});
