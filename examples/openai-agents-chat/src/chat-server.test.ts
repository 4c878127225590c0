import type { AddressInfo } from 'node:net';
import type { ModelRequest } from '@openai/agents';
import { createSessionPool } from '@plankit/adapters/sessions';
import { MemoryStore } from '@plankit/adapters/stores';
import { describe, expect, it } from 'vitest';
import { createChatServer } from './chat-server.ts';
import { runDemo } from './run-demo.ts';
import { scriptedModel } from './scripted-model.ts';

describe('OpenAI Agents SDK chat server', () => {
  it('drives two conversations at once, each to its own finished plan', async () => {
    const { alpha, beta } = await runDemo();
    expect(alpha.plan?.objective).toBe('Write the launch post');
    expect(beta.plan?.objective).toBe('Plan the offsite');
    for (const reply of [alpha, beta]) {
      expect(reply.plan?.status).toBe('completed');
      expect(reply.plan?.steps.map((step) => step.status)).toEqual(['done', 'done']);
      expect(reply.turns).toBe(3);
    }
    expect(alpha.text).toBe('Done: Write the launch post.');
  });

  it('keeps the history per conversation, refuses a hostile conversation id, and serves each plan', async () => {
    const pool = createSessionPool({ store: new MemoryStore() });
    const requests: ModelRequest[] = [];
    const replies = [
      [
        {
          name: 'planning_setup_plan',
          args: { objective: 'Tidy up', initial_steps: [{ title: 'Sort' }] },
        },
      ],
      'Planned.',
      [{ name: 'planning_read_plan', args: {} }],
      'Still one step.',
    ];
    const server = createChatServer({
      pool,
      modelFor: () => scriptedModel(replies, { requests }),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const post = (content: string) =>
      fetch(`${base}/chats/gamma/messages`, {
        method: 'POST',
        body: JSON.stringify({ content }),
      }).then((response) => response.json() as Promise<{ text: string }>);
    try {
      expect((await post('Tidy up.')).text).toBe('Planned.');
      expect((await post('How is it going?')).text).toBe('Still one step.');
      // The second message's first turn sees the first message's calls and their outputs.
      const input = JSON.stringify(requests[2]?.input);
      expect(input).toContain('Plan initialised with 1 step.');
      expect(input).toContain('How is it going?');
      const plan = await fetch(`${base}/chats/gamma/plan`);
      expect(((await plan.json()) as { plan: { objective: string } }).plan.objective).toBe(
        'Tidy up',
      );
      const hostile = await fetch(`${base}/chats/${encodeURIComponent('../etc')}/plan`);
      expect(hostile.status).toBe(400);
      expect(pool.has('../etc')).toBe(false);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await pool.close();
    }
  });
});
