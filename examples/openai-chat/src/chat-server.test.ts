import type { AddressInfo } from 'node:net';
import { createSessionPool } from '@plankit/adapters/sessions';
import { MemoryStore } from '@plankit/adapters/stores';
import { describe, expect, it } from 'vitest';
import { createChatServer } from './chat-server.ts';
import { runDemo, scriptedClient } from './run-demo.ts';

interface SentBody {
  readonly messages: { role: string; content?: string | null; tool_call_id?: string }[];
  readonly tools: { type: string; function: { name: string; strict?: boolean } }[];
}

describe('OpenAI SDK chat server', () => {
  it('drives two conversations at once, each to its own finished plan', async () => {
    const { alpha, beta } = await runDemo();
    expect(alpha.plan?.objective).toBe('Write the launch post');
    expect(beta.plan?.objective).toBe('Plan the offsite');
    for (const reply of [alpha, beta]) {
      expect(reply.plan?.status).toBe('completed');
      expect(reply.plan?.steps.map((step) => step.status)).toEqual(['done', 'done']);
      expect(reply.turns).toBe(3);
    }
    expect(beta.text).toBe('Done: Plan the offsite.');
  });

  it('sends strict tools and the tool results, refuses a hostile conversation id, and serves each plan', async () => {
    const pool = createSessionPool({ store: new MemoryStore() });
    const bodies: unknown[] = [];
    const server = createChatServer({
      pool,
      clientFor: () =>
        scriptedClient(
          [
            [
              {
                name: 'planning_setup_plan',
                args: { objective: 'Tidy up', initial_steps: [{ title: 'Sort' }] },
              },
              { name: 'planning_mark_step', args: { step_id: 'S009', status: 'done', note: null } },
            ],
            'Planned.',
          ],
          { bodies },
        ),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const reply = await fetch(`${base}/chats/gamma/messages`, {
        method: 'POST',
        body: JSON.stringify({ content: 'Tidy up.' }),
      });
      expect(((await reply.json()) as { text: string }).text).toBe('Planned.');
      const [first, second] = bodies as SentBody[];
      expect(first?.tools.find((t) => t.function.name === 'planning_setup_plan')).toMatchObject({
        type: 'function',
        function: { strict: true },
      });
      const results = second?.messages.filter((message) => message.role === 'tool') ?? [];
      expect(results.map((message) => message.tool_call_id)).toEqual(['call_0', 'call_1']);
      expect(results[0]?.content).toBe('Plan initialised with 1 step.');
      // A refused call reaches the model as text it can act on, and changes nothing.
      expect(results[1]?.content).toMatch(/^Tool validation failed: /);
      const plan = await fetch(`${base}/chats/gamma/plan`);
      const served = (await plan.json()) as { plan: { objective: string; steps: unknown[] } };
      expect(served.plan.objective).toBe('Tidy up');
      expect(served.plan.steps).toHaveLength(1);
      const hostile = await fetch(`${base}/chats/${encodeURIComponent('../etc')}/messages`, {
        method: 'POST',
        body: JSON.stringify({ content: 'Hi.' }),
      });
      expect(hostile.status).toBe(200);
      // Every call of that conversation was refused before a store saw its id.
      const refused = (bodies[3] as SentBody).messages.filter((message) => message.role === 'tool');
      expect(refused).toHaveLength(2);
      for (const message of refused)
        expect(message.content).toMatch(/^Tool validation failed: key must be 1-256 characters/);
      expect(pool.has('../etc')).toBe(false);
      const hostilePlan = await fetch(`${base}/chats/${encodeURIComponent('../etc')}/plan`);
      expect(hostilePlan.status).toBe(400);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await pool.close();
    }
  });
});
