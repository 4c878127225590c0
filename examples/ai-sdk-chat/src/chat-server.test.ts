import type { AddressInfo } from 'node:net';
import { createSessionPool } from '@plankit/adapters/sessions';
import { MemoryStore } from '@plankit/adapters/stores';
import { describe, expect, it } from 'vitest';
import { createChatServer } from './chat-server.ts';
import { runDemo } from './run-demo.ts';
import { scriptedModel } from './scripted-model.ts';

describe('AI SDK chat server', () => {
  it('drives two conversations at once, each to its own finished plan', async () => {
    const { alpha, beta } = await runDemo();
    expect(alpha.plan?.objective).toBe('Write the launch post');
    expect(beta.plan?.objective).toBe('Plan the offsite');
    for (const reply of [alpha, beta]) {
      expect(reply.plan?.status).toBe('completed');
      expect(reply.plan?.steps.map((step) => step.status)).toEqual(['done', 'done']);
      // Setup, two marks: planFinished stops the loop as the plan completes.
      expect(reply.steps).toBe(3);
    }
  });

  it('shows the plan reminder last, refuses a hostile conversation id, and serves each plan', async () => {
    const pool = createSessionPool({ store: new MemoryStore() });
    const prompts: unknown[] = [];
    const server = createChatServer({
      pool,
      modelFor: () =>
        scriptedModel(
          [
            [
              {
                toolName: 'planning_setup_plan',
                input: { objective: 'Tidy up', initial_steps: [{ title: 'Sort' }] },
              },
            ],
            'Planned.',
          ],
          { prompts },
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
      const last = (prompts[1] as { role: string; content: { text: string }[] }[]).at(-1);
      expect(last?.role).toBe('user');
      expect(last?.content[0]?.text).toContain('<plan-reminder>');
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
