import type { AddressInfo } from 'node:net';
import { createSessionPool } from '@plankit/adapters/sessions';
import { MemoryStore } from '@plankit/adapters/stores';
import { describe, expect, it } from 'vitest';
import { createChatServer } from './chat-server.ts';
import { runDemo, scriptedClient } from './run-demo.ts';

interface ToolResultBlock {
  readonly type: string;
  readonly tool_use_id: string;
  readonly content: string | { type: string; text: string }[];
  readonly is_error?: boolean;
}
interface SentBody {
  readonly messages: { role: string; content: string | ToolResultBlock[] }[];
  readonly tools: { name: string; strict?: boolean }[];
}

/** The tool_result blocks of the last user message of a request body. */
function toolResults(body: SentBody | undefined): ToolResultBlock[] {
  const last = body?.messages.at(-1);
  return Array.isArray(last?.content) ? last.content : [];
}
const textOf = (block: ToolResultBlock | undefined) =>
  typeof block?.content === 'string' ? block.content : block?.content[0]?.text;

describe('Anthropic SDK chat server', () => {
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

  it('sends the tools and the tool results, refuses a hostile conversation id, and serves each plan', async () => {
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
                input: { objective: 'Tidy up', initial_steps: [{ title: 'Sort' }] },
              },
              { name: 'planning_mark_step', input: { step_id: 'S009', status: 'done' } },
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
      expect(first?.tools.map((tool) => tool.name)).toContain('planning_setup_plan');
      const results = toolResults(second);
      expect(results.map((block) => block.tool_use_id)).toEqual(['toolu_0000', 'toolu_0001']);
      expect(textOf(results[0])).toBe('Plan initialised with 1 step.');
      // A refused call reaches the model as an error result it can act on, and changes nothing.
      expect(results[1]?.is_error).toBe(true);
      expect(textOf(results[1])).toMatch(/^Tool validation failed: /);
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
      const refused = toolResults(bodies[3] as SentBody);
      expect(refused).toHaveLength(2);
      for (const block of refused)
        expect(textOf(block)).toMatch(/^Tool validation failed: key must be 1-256 characters/);
      expect(pool.has('../etc')).toBe(false);
      const hostilePlan = await fetch(`${base}/chats/${encodeURIComponent('../etc')}/plan`);
      expect(hostilePlan.status).toBe(400);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await pool.close();
    }
  });
});
