import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createOpenAIToolset } from '@plankit/adapters/openai';
import type { SessionPool } from '@plankit/adapters/sessions';
import { createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';
import type OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';

/** Options of {@link createChatServer}. */
export interface ChatServerOptions {
  /** One live session per conversation, saved to its store. */
  readonly pool: SessionPool;
  /** The client that answers a conversation (`new OpenAI()`; one with a scripted `fetch` in tests). */
  readonly clientFor: (chatId: string) => OpenAI;
}

/** What `POST /chats/:id/messages` answers. */
export interface ChatReply {
  readonly text: string;
  /** Completions this message took. */
  readonly turns: number;
  readonly plan: Plan | undefined;
}

const SYSTEM = 'You are a planning assistant. Keep a plan with the planning tools.';

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  let body = '';
  for await (const chunk of request) {
    body += chunk;
    if (body.length > 64_000) throw new Error('body too large');
  }
  return JSON.parse(body);
}

/**
 * A chat server on `node:http`: `POST /chats/:id/messages` with `{ "content": "..." }` runs the
 * Chat Completions tool loop in conversation `:id` and answers `{ text, turns, plan }`;
 * `GET /chats/:id/plan` answers the conversation's plan. Conversations run concurrently, each
 * on its own pooled session: the toolset is built once, and each run passes the conversation
 * id as the explicit `key` the pool's resolver reads.
 */
export function createChatServer({ pool, clientFor }: ChatServerOptions): Server {
  const toolset = createOpenAIToolset(createPlanningTools(new Session()));
  const session = pool.resolver((context: { key: string }) => context.key);
  const histories = new Map<string, ChatCompletionMessageParam[]>();

  const chat = async (chatId: string, content: string): Promise<ChatReply> => {
    const client = clientFor(chatId);
    const messages = histories.get(chatId) ?? [{ role: 'system', content: SYSTEM }];
    histories.set(chatId, messages);
    messages.push({ role: 'user', content });
    let text = '';
    let turns = 0;
    while (turns < 8) {
      turns++;
      const completion = await client.chat.completions.create({
        model: 'gpt-5',
        messages,
        tools: [...toolset.chatTools],
      });
      const message = completion.choices[0]?.message;
      if (message === undefined) break;
      messages.push(message);
      if (!message.tool_calls?.length) {
        text = message.content ?? '';
        break;
      }
      const records = await toolset.runChatToolCalls(message.tool_calls, { session, key: chatId });
      messages.push(...records.map((record) => record.message));
    }
    const got = await pool.get(chatId);
    return { text, turns, plan: got.ok ? selectLatest(got.value, Plan) : undefined };
  };

  return createServer((request, response) => {
    const match = /^\/chats\/([^/]+)\/(messages|plan)$/.exec(request.url ?? '');
    const chatId = match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
    if (chatId === undefined) return send(response, 404, { error: 'not found' });
    if (match?.[2] === 'plan' && request.method === 'GET') {
      void pool.get(chatId).then((got) => {
        if (!got.ok) send(response, 400, { error: got.error.message });
        else send(response, 200, { plan: selectLatest(got.value, Plan) ?? null });
      });
      return;
    }
    if (match?.[2] !== 'messages' || request.method !== 'POST')
      return send(response, 405, { error: 'method not allowed' });
    readJson(request)
      .then((body) => {
        const content = (body as { content?: unknown } | null)?.content;
        if (typeof content !== 'string') return send(response, 400, { error: 'content: a string' });
        return chat(chatId, content).then((reply) => send(response, 200, reply));
      })
      .catch((error: unknown) => send(response, 500, { error: String(error) }));
  });
}
