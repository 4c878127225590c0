import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  createSdkMcpServer,
  type McpSdkServerConfigWithInstance,
} from '@anthropic-ai/claude-agent-sdk';
import { registerClaudeAgentTools } from '@plankit/adapters/claude-agent-sdk';
import type { SessionPool } from '@plankit/adapters/sessions';
import { createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';

/** What an agent is handed for one message of a conversation. */
export interface AgentRequest {
  readonly chatId: string;
  readonly prompt: string;
  /** This conversation's in-process MCP server, for `query({ options: { mcpServers: { planning } } })`. */
  readonly planning: McpSdkServerConfigWithInstance;
}

/** What an agent answers for one message. */
export interface AgentRun {
  readonly text: string;
  /** Model turns the message took (Claude Code's `num_turns`). */
  readonly turns: number;
}

/**
 * Runs one message of a conversation against its planning server: Claude Code through
 * `query()` live (`claudeCodeAgent`), a scripted stand-in speaking MCP offline.
 */
export type ChatAgent = (request: AgentRequest) => Promise<AgentRun>;

/** Options of {@link createChatServer}. */
export interface ChatServerOptions {
  /** One live session per conversation, saved to its store. */
  readonly pool: SessionPool;
  /** The agent that answers a conversation (Claude Code; a scripted MCP client in tests). */
  readonly agentFor: (chatId: string) => ChatAgent;
}

/** What `POST /chats/:id/messages` answers. */
export interface ChatReply {
  readonly text: string;
  /** Model turns this message took. */
  readonly turns: number;
  readonly plan: Plan | undefined;
}

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
 * session. The in-process transport carries no session id, so every message gets a fresh
 * `createSdkMcpServer` of its own conversation, with the planning tools registered by
 * `registerClaudeAgentTools` over the pool's resolver and the conversation id as `key`: the
 * key is checked on every call before the pool or the store sees it.
 */
export function createChatServer({ pool, agentFor }: ChatServerOptions): Server {
  // The tools run on each call's own session, never on this one.
  const tools = createPlanningTools(new Session());
  const session = pool.resolver((context: { key: string }) => context.key);

  const chat = async (chatId: string, prompt: string): Promise<ChatReply> => {
    // One server per query(): an McpServer serves one transport at a time.
    const planning = createSdkMcpServer({ name: 'planning', version: '1.0.0' });
    registerClaudeAgentTools(planning, tools, { session, key: chatId });
    const run = await agentFor(chatId)({ chatId, prompt, planning });
    const got = await pool.get(chatId);
    return { ...run, plan: got.ok ? selectLatest(got.value, Plan) : undefined };
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
