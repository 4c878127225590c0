import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatReply, type ChatServer, startChatServer } from './chat-server.ts';

let server: ChatServer;
beforeAll(async () => {
  server = await startChatServer();
});
afterAll(async () => {
  await server.close();
});

async function chat(conversation: string, message: string): Promise<ChatReply> {
  const response = await fetch(`${server.url}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ conversation, message }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as ChatReply;
}

async function planOf(conversation: string): Promise<ChatReply['plan']> {
  const response = await fetch(`${server.url}/plan?conversation=${conversation}`);
  return ((await response.json()) as ChatReply).plan;
}

const steps = (plan: ChatReply['plan']) => plan?.steps.map((s) => `${s.step_id} ${s.status}`);

describe('LangGraph chat server: two conversations at once, one plan each', () => {
  it('keeps each thread on its own plan while both run concurrently', async () => {
    const [a, b] = await Promise.all([
      chat('release-a', 'plan: Build; Test; Ship'),
      chat('release-b', 'plan: Draft; Review'),
    ]);
    expect(a.reply).toBe('Plan updated.');
    expect(steps(a.plan)).toEqual(['S001 in_progress', 'S002 pending', 'S003 pending']);
    expect(steps(b.plan)).toEqual(['S001 in_progress', 'S002 pending']);
    await Promise.all([chat('release-a', 'done S001'), chat('release-b', 'done S001')]);
    await chat('release-b', 'done S002');
    const [planA, planB] = await Promise.all([planOf('release-a'), planOf('release-b')]);
    expect(planA?.objective).toBe('Build, Test, Ship');
    expect(steps(planA)).toEqual(['S001 done', 'S002 in_progress', 'S003 pending']);
    expect(planB?.objective).toBe('Draft, Review');
    expect(planB?.status).toBe('completed');
    expect(await planOf('release-c')).toBeNull();
  });

  it("streams a run as LangGraph SSE for useStream's FetchStreamTransport, on the same threads", async () => {
    const response = await fetch(`${server.url}/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        input: { messages: [{ type: 'human', content: 'plan: Draft; Sign' }] },
        config: { configurable: { thread_id: 'release-s' } },
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = (await response.text()).split('\n\n').filter((event) => event !== '');
    const modes = new Set(events.map((event) => /^event: (\w+)\n/.exec(event)?.[1]));
    expect(modes).toEqual(new Set(['values', 'messages']));
    const states = events
      .filter((event) => event.startsWith('event: values\n'))
      .map((event) => JSON.parse(event.slice('event: values\ndata: '.length)) as ChatReply);
    expect(steps(states.at(-1)?.plan ?? null)).toEqual(['S001 in_progress', 'S002 pending']);
    expect(steps(await planOf('release-s'))).toEqual(['S001 in_progress', 'S002 pending']);
  });

  it('refuses a hostile conversation id', async () => {
    const response = await fetch(`${server.url}/chat`, {
      method: 'POST',
      body: JSON.stringify({ conversation: '../etc', message: 'plan: X' }),
    });
    expect(response.status).toBe(400);
  });
});
