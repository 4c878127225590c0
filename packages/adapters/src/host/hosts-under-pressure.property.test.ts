import type { ToolCall as LangChainToolCall } from '@langchain/core/messages/tool';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { RunContext } from '@openai/agents';
import {
  createPlanningTools,
  invokeTool,
  Plan,
  registerPlanningReducers,
  Session,
  selectLatest,
} from '@plankit/core';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { AISDKContext } from '../ai-sdk/ai-sdk-context.ts';
import { toAISDKTools } from '../ai-sdk/to-ai-sdk-tools.ts';
import { createAnthropicToolset } from '../anthropic/create-anthropic-toolset.ts';
import type { LangChainContext } from '../langchain/langchain-context.ts';
import { toLangChainTools } from '../langchain/to-langchain-tools.ts';
import type { McpContext } from '../mcp/mcp-context.ts';
import { registerMcpTools } from '../mcp/register-mcp-tools.ts';
import { createOpenAIToolset } from '../openai/create-openai-toolset.ts';
import { toOpenAIAgentsTools } from '../openai-agents/to-openai-agents-tools.ts';
import { MemoryStore } from '../persistence/stores/memory-store.ts';
import { createSessionPool, type SessionPool } from '../sessions/create-session-pool.ts';
import { countingStore } from '../sessions/testing/counting-store.ts';

// The property: many more conversations than pool slots, each worked through every host
// adapter at once, with slow runs holding sessions and evictions at random moments. Then:
// - per conversation, each round of concurrent calls equals some serial order of those calls
//   (the same calls succeed, and the plan is the one that order gives);
// - no conversation ever has two live copies;
// - the store is read once per admission, never in a loop;
// - a pool subscriber hears every change, whichever copy made it.

const TOOLS = createPlanningTools(new Session());
const CLOCK = () => 1_700_000_000_000;

interface Call {
  readonly name: string;
  readonly args: Record<string, unknown>;
}

type Host = 'openai' | 'anthropic' | 'ai-sdk' | 'langchain' | 'mcp' | 'openai-agents';
const HOSTS: readonly Host[] = [
  'openai',
  'anthropic',
  'ai-sdk',
  'langchain',
  'mcp',
  'openai-agents',
];

/** Whether the call succeeded, as each host reports it. */
type Outcome = boolean;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Every host adapter over one pool, each answering "did this call succeed?". */
function hostsOver(pool: SessionPool) {
  const openai = createOpenAIToolset(TOOLS);
  const anthropic = createAnthropicToolset(TOOLS);
  const keyed = pool.resolver((context: { key: string }) => context.key);
  const aiSdk = toAISDKTools(TOOLS, {
    session: pool.resolver(({ context }: AISDKContext<{ chatId: string }>) => context?.chatId),
  });
  const langchain = toLangChainTools(TOOLS, {
    session: pool.resolver((context: LangChainContext) => context.threadId),
  });
  const agents = toOpenAIAgentsTools<{ conversationId: string }>(TOOLS, {
    session: pool.resolver(
      (run: RunContext<{ conversationId: string }>) => run.context.conversationId,
    ),
  });
  const mcpSource = pool.resolver((context: McpContext) => context.sessionId);
  const mcpClients = new Map<string, Promise<Client>>();
  const mcpClient = (id: string): Promise<Client> => {
    let client = mcpClients.get(id);
    if (client === undefined) {
      client = (async () => {
        const server = new McpServer({ name: 'pressure', version: '1.0.0' });
        registerMcpTools(server, TOOLS, { session: mcpSource });
        const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
        serverSide.sessionId = id;
        await server.connect(serverSide);
        const connected = new Client({ name: 'pressure-client', version: '1.0.0' });
        await connected.connect(clientSide);
        cleanups.push(async () => {
          await connected.close();
          await server.close();
        });
        return connected;
      })();
      mcpClients.set(id, client);
    }
    return client;
  };
  let counter = 0;
  return async (host: Host, id: string, call: Call): Promise<Outcome> => {
    const callId = `call_${++counter}`;
    switch (host) {
      case 'openai': {
        const [record] = await openai.runChatToolCalls(
          [
            {
              id: callId,
              type: 'function',
              function: { name: call.name, arguments: JSON.stringify(call.args) },
            },
          ],
          { session: keyed, key: id },
        );
        return record?.result.success === true;
      }
      case 'anthropic': {
        const [record] = await anthropic.runToolUses(
          [{ type: 'tool_use', id: callId, name: call.name, input: call.args }],
          { session: keyed, key: id },
        );
        return record?.result.success === true;
      }
      case 'ai-sdk': {
        const tool = aiSdk[call.name] as {
          execute: (input: unknown, options: unknown) => Promise<unknown>;
        };
        return tool
          .execute(call.args, {
            toolCallId: callId,
            messages: [],
            experimental_context: { chatId: id },
          })
          .then(
            () => true,
            () => false,
          );
      }
      case 'langchain': {
        const tool = langchain.find((candidate) => candidate.name === call.name);
        const toolCall: LangChainToolCall = {
          id: callId,
          name: call.name,
          args: call.args,
          type: 'tool_call',
        };
        const message = (await tool?.invoke(toolCall, { configurable: { thread_id: id } })) as {
          status?: string;
        };
        return message.status === 'success';
      }
      case 'mcp': {
        const client = await mcpClient(id);
        const result = await client.callTool({ name: call.name, arguments: call.args });
        return result.isError !== true;
      }
      case 'openai-agents': {
        const tool = agents.find((candidate) => candidate.name === call.name);
        const text = await tool?.invoke(
          new RunContext({ conversationId: id }),
          JSON.stringify(call.args),
          {
            toolCall: {
              type: 'function_call',
              callId,
              name: call.name,
              arguments: JSON.stringify(call.args),
            },
          } as never,
        );
        return typeof text === 'string' && !text.startsWith('Tool validation failed');
      }
      default: {
        const never: never = host;
        throw new Error(`unknown host ${String(never)}`);
      }
    }
  };
}

/** Every order of `items`. */
function* orders<T>(items: readonly T[]): Generator<T[]> {
  if (items.length <= 1) {
    yield [...items];
    return;
  }
  for (let index = 0; index < items.length; index++) {
    const rest = [...items.slice(0, index), ...items.slice(index + 1)];
    for (const tail of orders(rest)) yield [items[index] as T, ...tail];
  }
}

function replaySession(): Session {
  const session = new Session({ clock: CLOCK });
  registerPlanningReducers(session);
  return session;
}

const byName = (name: string) => {
  const tool = TOOLS.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool;
};

/** Applies `calls` in order to a copy of `start`'s plan; the outcomes and the plan after. */
async function replay(start: readonly Call[], calls: readonly Call[]) {
  const session = replaySession();
  for (const call of start) await invokeTool(byName(call.name), call.args, { session });
  const outcomes: boolean[] = [];
  for (const call of calls) {
    outcomes.push((await invokeTool(byName(call.name), call.args, { session })).success);
  }
  return { outcomes, plan: selectLatest(session, Plan) };
}

const stepId = fc.integer({ min: 1, max: 4 }).map((n) => `S${String(n).padStart(3, '0')}`);
const callArb: fc.Arbitrary<Call> = fc.oneof(
  fc.record({
    name: fc.constant('planning_add_step'),
    args: fc.record({ steps: fc.constant([{ title: 'more' }]) }),
  }),
  fc.record({
    name: fc.constant('planning_mark_step'),
    args: fc.record({
      step_id: stepId,
      status: fc.constantFrom('pending', 'in_progress', 'blocked', 'done'),
    }),
  }),
  fc.record({
    name: fc.constant('planning_update_step'),
    args: fc.record({ step_id: stepId, title: fc.constantFrom('renamed', 'again') }),
  }),
  fc.record({ name: fc.constant('planning_read_plan'), args: fc.constant({}) }),
);
const roundArb = fc.array(fc.record({ host: fc.constantFrom(...HOSTS), call: callArb }), {
  minLength: 1,
  maxLength: 3,
});
const conversationArb = fc.record({
  rounds: fc.array(roundArb, { minLength: 1, maxLength: 3 }),
  slow: fc.integer({ min: 0, max: 8 }),
  evictAfter: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
});

describe('every host adapter at once, conversations outnumbering the pool (property)', () => {
  it('keeps one live copy per conversation, serialisable rounds, and one load per admission', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(conversationArb, { minLength: 4, maxLength: 6 }),
        fc.integer({ min: 1, max: 3 }),
        async (conversations, max) => {
          const store = countingStore(new MemoryStore());
          const copies = new Map<string, number>();
          let twoCopies = false;
          const pool = createSessionPool({
            store,
            max,
            sessionOptions: { clock: CLOCK },
            // Instruments every copy the pool makes: live from creation to disposal.
            setup: (session) => {
              const id = session.sessionId;
              const live = (copies.get(id) ?? 0) + 1;
              copies.set(id, live);
              if (live > 1) twoCopies = true;
              const dispose = session.dispose.bind(session);
              session.dispose = () => {
                copies.set(id, (copies.get(id) ?? 1) - 1);
                dispose();
              };
            },
          });
          const run = hostsOver(pool);
          const failures: string[] = [];
          await Promise.all(
            conversations.map(async (conversation, index) => {
              const id = `conv_${index}`;
              let heard = 0;
              const subscribed = pool.subscribe(id, (event) => {
                if (event.type === 'SessionCommitted') heard++;
              });
              if (!subscribed.ok) throw subscribed.error;
              const setup: Call = {
                name: 'planning_setup_plan',
                args: { objective: id, initial_steps: [{ title: 'a' }, { title: 'b' }] },
              };
              if (!(await run(HOSTS[index % HOSTS.length] as Host, id, setup)))
                failures.push(`${id}: setup refused`);
              const applied: Call[] = [setup];
              // A slow run holds this conversation's session while other conversations wait.
              const slow = pool.run(id, () => sleep(conversation.slow));
              for (const [round, calls] of conversation.rounds.entries()) {
                if (conversation.evictAfter === round) void pool.evict(id);
                const outcomes = await Promise.all(
                  calls.map(({ host, call }) => run(host, id, call)),
                );
                const live = await pool.run(id, (session) => selectLatest(session, Plan));
                if (!live.ok) {
                  failures.push(`${id}: ${live.error.code}`);
                  return;
                }
                const round_ = calls.map(({ call }) => call);
                let serial = false;
                for (const order of orders(round_.map((call, at) => ({ call, at })))) {
                  const replayed = await replay(
                    applied,
                    order.map((entry) => entry.call),
                  );
                  const sameOutcomes = order.every(
                    (entry, position) => replayed.outcomes[position] === outcomes[entry.at],
                  );
                  if (
                    sameOutcomes &&
                    JSON.stringify(replayed.plan) === JSON.stringify(live.value)
                  ) {
                    applied.push(...order.filter((entry) => outcomes[entry.at]).map((e) => e.call));
                    serial = true;
                    break;
                  }
                }
                if (!serial) failures.push(`${id}: round ${round} is no serial order of its calls`);
              }
              await slow;
              subscribed.value();
              // Replayed alone, the applied calls make as many commits as the subscriber heard.
              const counted = replaySession();
              let commits = 0;
              counted.bus.subscribe('SessionCommitted', () => {
                commits++;
              });
              for (const call of applied)
                await invokeTool(byName(call.name), call.args, { session: counted });
              if (heard !== commits) failures.push(`${id}: heard ${heard} of ${commits} changes`);
            }),
          );
          const stats = pool.stats();
          (await pool.close()).ok || failures.push('close failed');
          for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
          expect(failures).toEqual([]);
          expect(twoCopies).toBe(false);
          expect(store.loads).toBe(stats.loads);
          // Each load after a conversation's first follows an eviction of it.
          expect(stats.loads).toBeLessThanOrEqual(stats.evictions + conversations.length);
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);
});
