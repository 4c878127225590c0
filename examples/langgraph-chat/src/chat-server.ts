import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HumanMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { planningMiddleware, readPlanState } from '@plankit/adapters/langgraph';
import { isConversationId } from '@plankit/adapters/sessions';
import { type Plan, Session } from '@plankit/core';
import { PlanningToolsSection, renderPlanReminder } from '@plankit/prompt';
import { createAgent } from 'langchain';
import { agentStreamHandler } from './agent-stream-handler.ts';
import { ScriptedChatModel } from './scripted-chat-model.ts';

/** A running chat server. */
export interface ChatServer {
  /** The base URL, such as `http://127.0.0.1:53124`. */
  readonly url: string;
  /** Stops accepting connections and waits for open ones to end. */
  close(): Promise<void>;
}

/** What `POST /chat` and `GET /plan` answer. */
export interface ChatReply {
  /** The agent's last message (empty for `GET /plan`). */
  readonly reply: string;
  /** The conversation's plan, from the thread's latest checkpoint. */
  readonly plan: Plan | null;
}

async function body(request: IncomingMessage): Promise<unknown> {
  // Bytes are joined before decoding, so a character split across chunks stays whole.
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += bytes.length;
    if (size > 65_536) throw new Error('body too large');
    chunks.push(bytes);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/**
 * Starts a chat server on 127.0.0.1 (an ephemeral port): `POST /chat` with
 * `{ conversation, message }` runs the agent on the thread named `conversation`;
 * `GET /plan?conversation=...` reads that thread's plan; `POST /stream` serves
 * `useStream`'s `FetchStreamTransport` (see {@link agentStreamHandler}). Every conversation is
 * one LangGraph thread, so each keeps its own plan in its own checkpoints.
 */
export async function startChatServer(): Promise<ChatServer> {
  const agent = createAgent({
    model: new ScriptedChatModel({}),
    systemPrompt: 'You are a release assistant.',
    middleware: [
      planningMiddleware({
        // Rendered once: the strategy text only, so the session here holds no conversation.
        section: new PlanningToolsSection({ session: new Session() }),
        reminder: renderPlanReminder,
      }),
    ],
    checkpointer: new MemorySaver(),
  });
  // getState's values are `any` in LangGraph's types; readPlanState types and checks them.
  const planOf = async (thread: string): Promise<Plan | null> =>
    readPlanState((await agent.graph.getState({ configurable: { thread_id: thread } })).values)
      .plan;

  const stream = agentStreamHandler(agent);
  const server: Server = createServer((request, response) => {
    const send = (status: number, value: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/stream') return stream(request, response);
    void (async () => {
      if (request.method === 'GET' && url.pathname === '/plan') {
        const conversation = url.searchParams.get('conversation');
        if (!isConversationId(conversation)) return send(400, { error: 'conversation_id_invalid' });
        return send(200, { reply: '', plan: await planOf(conversation) } satisfies ChatReply);
      }
      if (request.method === 'POST' && url.pathname === '/chat') {
        const input = (await body(request)) as { conversation?: unknown; message?: unknown };
        if (!isConversationId(input.conversation) || typeof input.message !== 'string')
          return send(400, { error: 'send { conversation, message }' });
        const result = await agent.invoke(
          { messages: [new HumanMessage(input.message)] },
          { configurable: { thread_id: input.conversation } },
        );
        const reply = result.messages.at(-1)?.text ?? '';
        return send(200, { reply, plan: result.plan ?? null } satisfies ChatReply);
      }
      return send(404, { error: 'not found' });
    })().catch((error: unknown) => send(500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
