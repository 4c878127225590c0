import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { createSessionPool } from '@plankit/adapters/sessions';
import { MemoryStore } from '@plankit/adapters/stores';
import { type ChatReply, createChatServer } from './chat-server.ts';
import { type ScriptedReply, scriptedFetch } from './scripted-fetch.ts';

/**
 * The scripted responses of one conversation: a two-step plan for `objective` set up and its
 * first step done in one response (two calls, run in order), then the second step, then the
 * answer.
 */
export function conversationScript(objective: string): ScriptedReply[] {
  return [
    [
      {
        name: 'planning_setup_plan',
        input: { objective, initial_steps: [{ title: 'Research' }, { title: 'Write' }] },
      },
      { name: 'planning_mark_step', input: { step_id: 'S001', status: 'done' } },
    ],
    [{ name: 'planning_mark_step', input: { step_id: 'S002', status: 'done' } }],
    `Done: ${objective}.`,
  ];
}

/** A real Anthropic client whose `fetch` plays back `replies`: offline, no key needed. */
export function scriptedClient(
  replies: ScriptedReply[],
  options: { readonly delayMs?: number; readonly bodies?: unknown[] } = {},
): Anthropic {
  return new Anthropic({
    apiKey: 'sk-ant-offline',
    fetch: scriptedFetch(replies, options),
    maxRetries: 0,
  });
}

/**
 * Starts the chat server on 127.0.0.1 (an ephemeral port), sends the two conversations their
 * first message at the same time, and returns both replies.
 */
export async function runDemo(): Promise<{ alpha: ChatReply; beta: ChatReply }> {
  const pool = createSessionPool({ store: new MemoryStore(), max: 50 });
  const scripts = new Map([
    ['alpha', conversationScript('Write the launch post')],
    ['beta', conversationScript('Plan the offsite')],
  ]);
  const server = createChatServer({
    pool,
    clientFor: (chatId) =>
      scriptedClient(scripts.get(chatId) ?? [], { delayMs: chatId === 'alpha' ? 5 : 2 }),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const post = async (chatId: string, content: string): Promise<ChatReply> => {
    const response = await fetch(`http://127.0.0.1:${port}/chats/${chatId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content }),
    });
    return (await response.json()) as ChatReply;
  };
  try {
    const [alpha, beta] = await Promise.all([
      post('alpha', 'Help me write the launch post.'),
      post('beta', 'Help me plan the offsite.'),
    ]);
    return { alpha, beta };
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await pool.close();
  }
}
