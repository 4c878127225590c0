import type { AddressInfo } from 'node:net';
import { createSessionPool } from '@plankit/adapters/sessions';
import { MemoryStore } from '@plankit/adapters/stores';
import { describe, expect, it } from 'vitest';
import { createChatServer } from './chat-server.ts';
import { runDemo } from './run-demo.ts';
import { type AgentEvent, type ScriptedReply, scriptedAgent } from './scripted-agent.ts';

describe('Claude Agent SDK chat server', () => {
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
    expect(beta.text).toBe('Done: Plan the offsite.');
  });

  it('lists the tools to the agent, hands it refusals as isError, refuses a hostile conversation id, and serves each plan', async () => {
    const pool = createSessionPool({ store: new MemoryStore() });
    const events: AgentEvent[] = [];
    const script = (): ScriptedReply[] => [
      [
        {
          name: 'planning_setup_plan',
          arguments: { objective: 'Tidy up', initial_steps: [{ title: 'Sort' }] },
        },
        { name: 'planning_mark_step', arguments: { step_id: 'S009', status: 'done' } },
      ],
      'Planned.',
    ];
    const scripts = new Map([
      ['gamma', script()],
      ['../etc', script()],
    ]);
    const server = createChatServer({
      pool,
      agentFor: (chatId) => scriptedAgent(scripts.get(chatId) ?? [], { events }),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const post = (chatId: string) =>
      fetch(`${base}/chats/${encodeURIComponent(chatId)}/messages`, {
        method: 'POST',
        body: JSON.stringify({ content: 'Tidy up.' }),
      });
    try {
      const reply = await post('gamma');
      expect(((await reply.json()) as { text: string }).text).toBe('Planned.');
      const [tools, setup, refused] = events.splice(0);
      expect(tools?.type === 'tools' && tools.names).toContain('planning_setup_plan');
      expect(setup).toEqual({
        type: 'result',
        name: 'planning_setup_plan',
        isError: false,
        text: 'Plan initialised with 1 step.',
      });
      // A refused call reaches the agent as an isError answer it can act on, and changes nothing.
      expect(refused?.type === 'result' && refused.isError).toBe(true);
      expect(refused?.type === 'result' && refused.text).toMatch(
        /^Tool validation failed: Step S009 does not exist/,
      );
      const plan = await fetch(`${base}/chats/gamma/plan`);
      const served = (await plan.json()) as {
        plan: { objective: string; steps: { status: string }[] };
      };
      expect(served.plan.objective).toBe('Tidy up');
      expect(served.plan.steps.map((step) => step.status)).toEqual(['pending']);

      // Every call of the hostile conversation is refused before the pool or a store sees its id.
      const hostile = await post('../etc');
      expect(hostile.status).toBe(200);
      expect(((await hostile.json()) as { plan?: unknown }).plan).toBeUndefined();
      const results = events.filter((event) => event.type === 'result');
      expect(results).toHaveLength(2);
      for (const result of results) {
        expect(result.isError).toBe(true);
        expect(result.text).toMatch(/^Tool validation failed: key must be 1-256 characters/);
      }
      expect(pool.has('../etc')).toBe(false);
      expect(pool.size).toBe(1);
      const hostilePlan = await fetch(`${base}/chats/${encodeURIComponent('../etc')}/plan`);
      expect(hostilePlan.status).toBe(400);
      expect(pool.has('../etc')).toBe(false);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await pool.close();
    }
  });
});
