import type { AddressInfo } from 'node:net';
import { createSessionPool } from '@plankit/adapters/sessions';
import { MemoryStore } from '@plankit/adapters/stores';
import { type ChatAgent, type ChatReply, createChatServer } from './chat-server.ts';
import { type ScriptedReply, scriptedAgent } from './scripted-agent.ts';

/**
 * The scripted turns of one conversation: a two-step plan for `objective` set up and its first
 * step done in one turn (two calls, made in order), then the second step, then the answer.
 */
export function conversationScript(objective: string): ScriptedReply[] {
  return [
    [
      {
        name: 'planning_setup_plan',
        arguments: { objective, initial_steps: [{ title: 'Research' }, { title: 'Write' }] },
      },
      { name: 'planning_mark_step', arguments: { step_id: 'S001', status: 'done' } },
    ],
    [{ name: 'planning_mark_step', arguments: { step_id: 'S002', status: 'done' } }],
    `Done: ${objective}.`,
  ];
}

/** The offline agents of the demo's two conversations, `alpha` slower per turn than `beta`. */
function scriptedAgents(): (chatId: string) => ChatAgent {
  const scripts = new Map([
    ['alpha', conversationScript('Write the launch post')],
    ['beta', conversationScript('Plan the offsite')],
  ]);
  return (chatId) =>
    scriptedAgent(scripts.get(chatId) ?? [], { delayMs: chatId === 'alpha' ? 5 : 2 });
}

/**
 * Starts the chat server on 127.0.0.1 (an ephemeral port), sends the two conversations their
 * first message at the same time, and returns both replies. `agentFor` is the scripted agent
 * by default; `main.ts --live` passes Claude Code.
 */
export async function runDemo(
  agentFor: (chatId: string) => ChatAgent = scriptedAgents(),
): Promise<{ alpha: ChatReply; beta: ChatReply }> {
  const pool = createSessionPool({ store: new MemoryStore(), max: 50 });
  const server = createChatServer({ pool, agentFor });
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
      post('alpha', 'Help me write the launch post: a two-step plan, then do it.'),
      post('beta', 'Help me plan the offsite: a two-step plan, then do it.'),
    ]);
    return { alpha, beta };
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await pool.close();
  }
}
