import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent, type AgentInputItem, type Model, type RunContext, Runner } from '@openai/agents';
import { toOpenAIAgentsTools } from '@plankit/adapters/openai-agents';
import type { SessionPool } from '@plankit/adapters/sessions';
import { createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';

/** The app's context of a run, handed to `run(agent, input, { context })`. */
export interface ChatContext {
  readonly chatId: string;
}

/** Options of {@link createChatServer}. */
export interface ChatServerOptions {
  /** One live session per conversation, saved to its store. */
  readonly pool: SessionPool;
  /** The model that answers a conversation (your provider's model; a scripted one in tests). */
  readonly modelFor: (chatId: string) => Model;
}

/** What `POST /chats/:id/messages` answers. */
export interface ChatReply {
  readonly text: string;
  /** Model turns this message took. */
  readonly turns: number;
  readonly plan: Plan | undefined;
}

const INSTRUCTIONS = 'You are a planning assistant. Keep a plan with the planning tools.';

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
 * agent once in conversation `:id` and answers `{ text, turns, plan }`; `GET /chats/:id/plan`
 * answers the conversation's plan. Conversations run concurrently, each on its own pooled
 * session: the tools are built once, with the pool's resolver reading `chatId` from the run's
 * `RunContext`.
 */
export function createChatServer({ pool, modelFor }: ChatServerOptions): Server {
  const tools = toOpenAIAgentsTools<ChatContext>(createPlanningTools(new Session()), {
    session: pool.resolver((run: RunContext<ChatContext>) => run.context.chatId),
  });
  // The model is scripted and offline: no traces worth exporting, and no key to export them with.
  const runner = new Runner({ tracingDisabled: true });
  const histories = new Map<string, AgentInputItem[]>();

  const chat = async (chatId: string, content: string): Promise<ChatReply> => {
    const agent = new Agent<ChatContext>({
      name: 'planner',
      instructions: INSTRUCTIONS,
      model: modelFor(chatId),
      tools,
    });
    const input: AgentInputItem[] = [...(histories.get(chatId) ?? []), { role: 'user', content }];
    const result = await runner.run(agent, input, { context: { chatId }, maxTurns: 8 });
    histories.set(chatId, result.history);
    const got = await pool.get(chatId);
    return {
      text: String(result.finalOutput ?? ''),
      turns: result.rawResponses.length,
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
