import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  type AISDKContext,
  planFinished,
  planReminderStep,
  toAISDKTools,
} from '@plankit/adapters/ai-sdk';
import type { SessionPool } from '@plankit/adapters/sessions';
import { createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';
import { renderPlanReminder } from '@plankit/prompt';
import { generateText, type LanguageModel, type ModelMessage, stepCountIs } from 'ai';

/** The app's context of a generation: the conversation it belongs to. */
export interface ChatContext {
  readonly chatId: string;
}

/** Options of {@link createChatServer}. */
export interface ChatServerOptions {
  /** One live session per conversation, saved to its store. */
  readonly pool: SessionPool;
  /** The model that answers a conversation (your provider's model; a scripted one in tests). */
  readonly modelFor: (chatId: string) => LanguageModel;
}

/** What `POST /chats/:id/messages` answers. */
export interface ChatReply {
  readonly text: string;
  readonly steps: number;
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
 * A chat server on `node:http`: `POST /chats/:id/messages` with `{ "content": "..." }` runs one
 * AI SDK generation in conversation `:id` and answers `{ text, steps, plan }`;
 * `GET /chats/:id/plan` answers the conversation's plan. Conversations run concurrently, each on
 * its own pooled session: the tools are built once, with the pool's resolver reading `chatId`
 * from `experimental_context`.
 */
export function createChatServer({ pool, modelFor }: ChatServerOptions): Server {
  const session = pool.resolver(({ context }: AISDKContext<ChatContext>) => context?.chatId);
  const tools = toAISDKTools(createPlanningTools(new Session()), { session });
  const histories = new Map<string, ModelMessage[]>();

  const chat = async (chatId: string, content: string): Promise<ChatReply> => {
    const history = histories.get(chatId) ?? [];
    history.push({ role: 'user', content });
    histories.set(chatId, history);
    const result = await generateText({
      model: modelFor(chatId),
      system: SYSTEM,
      messages: history,
      tools,
      experimental_context: { chatId } satisfies ChatContext,
      prepareStep: planReminderStep({
        session,
        render: renderPlanReminder,
        activeTools: tools,
      }),
      stopWhen: [planFinished({ session }), stepCountIs(8)],
    });
    history.push(...result.response.messages);
    const got = await pool.get(chatId);
    return {
      text: result.text,
      steps: result.steps.length,
      plan: got.ok ? selectLatest(got.value, Plan) : undefined,
    };
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
