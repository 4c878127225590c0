import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { type AISDKContext, toAISDKTools, withPlanUpdates } from '@plankit/adapters/ai-sdk';
import type { SessionPool } from '@plankit/adapters/sessions';
import { createPlanningTools, PlankitError, Session, type TextMode } from '@plankit/core';
import { dependencies, history } from '@plankit/core/plan-model';
import { planView } from '@plankit/core/plan-view';
import {
  convertToModelMessages,
  createUIMessageStream,
  type LanguageModel,
  pipeUIMessageStreamToResponse,
  stepCountIs,
  streamText,
  TypeValidationError,
  validateUIMessages,
} from 'ai';

/** The app's context of a generation: the conversation it belongs to. */
export interface ChatContext {
  readonly chatId: string;
}

/** Options of {@link createPlanUiServer}. */
export interface PlanUiServerOptions {
  /** One live session per conversation, saved to its store (the embedded `FileStore` here). */
  readonly pool: SessionPool;
  /** The model that answers a conversation: your provider's model; a scripted one here. */
  readonly modelFor: (chatId: string) => LanguageModel;
  /** The built page (Vite's output folder), served for every path outside `/api/`. */
  readonly clientDirectory: string;
  /**
   * The plan text the tools accept: `'ascii'` (the reference, the default) or `'unicode'`
   * (plans in any language: Japanese, emoji, accents, stored in NFC). The page needs nothing
   * for either: the plan view carries the text as stored.
   */
  readonly text?: TextMode | undefined;
}

const SYSTEM = 'You are a release assistant. Keep a plan with the planning tools and follow it.';
// Chat ids come from the page's address: short and plain, so they are safe in logs and paths.
const CHAT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_BODY = 1_000_000;
const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  let body = '';
  for await (const chunk of request) {
    body += chunk;
    if (body.length > MAX_BODY) throw new RangeError('body too large');
  }
  return JSON.parse(body);
}

/** Whether `error` is the AI SDK refusing the request's messages, or the body being too large. */
function isBadRequest(error: unknown): boolean {
  return error instanceof RangeError || TypeValidationError.isInstance(error);
}

/**
 * The error text the page gets. A tool's refusal is written for the model to read and fix, so
 * the person may read it too; anything else (a provider's error, a store's) stays in the
 * server's log, as the AI SDK's default does.
 */
function streamErrorText(error: unknown): string {
  if (PlankitError.isInstance(error)) return error.message;
  console.error(error);
  return 'The server could not finish this reply.';
}

/** The error text of a refused request: what was wrong with it. */
function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The plan UI's server on `node:http`:
 * - `POST /api/chat` is `useChat`'s endpoint: it runs the conversation's model with the
 *   planning tools (dependencies and history on, in the `text` mode given) and streams the reply as UI message chunks,
 *   with the live plan as a `data-plan` part (`withPlanUpdates`) that the page updates in place;
 * - `GET /api/chats/:id/plan` answers `{ plan }`, the conversation's plan view read from the
 *   store, so a reloaded page shows the plan before anything streams;
 * - every other GET serves the built page.
 */
export function createPlanUiServer({
  pool,
  modelFor,
  clientDirectory,
  text,
}: PlanUiServerOptions): Server {
  const root = resolve(clientDirectory);
  const session = pool.resolver(({ context }: AISDKContext<ChatContext>) => context?.chatId);
  const tools = toAISDKTools(
    createPlanningTools(new Session(), { extensions: [dependencies(), history()], text }),
    { session },
  );

  const chat = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const body = (await readJson(request)) as { id?: unknown; messages?: unknown } | null;
    const chatId = body?.id;
    if (typeof chatId !== 'string' || !CHAT_ID.test(chatId))
      return sendJson(response, 400, { error: 'id: 1-64 letters, digits, _ or -' });
    const messages = await validateUIMessages({ messages: body?.messages });
    const context: ChatContext = { chatId };
    const stream = createUIMessageStream({
      execute: withPlanUpdates({ session, context }, async ({ writer }) => {
        const result = streamText({
          model: modelFor(chatId),
          system: SYSTEM,
          messages: await convertToModelMessages(messages),
          tools,
          experimental_context: context,
          stopWhen: stepCountIs(12),
        });
        writer.merge(result.toUIMessageStream({ onError: streamErrorText }));
      }),
      onError: streamErrorText,
    });
    await pipeUIMessageStreamToResponse({ response, stream });
  };

  const plan = async (chatId: string, response: ServerResponse): Promise<void> => {
    const got = await pool.get(chatId);
    if (!got.ok) throw got.error;
    sendJson(response, 200, { plan: planView(got.value) });
  };

  const page = async (url: string, response: ServerResponse): Promise<void> => {
    const path = decodeURIComponent(new URL(url, 'http://page').pathname);
    const file = resolve(root, `.${path === '/' ? '/index.html' : path}`);
    // Nothing outside the built page is served, whatever the path says.
    if (!file.startsWith(root + sep)) return sendJson(response, 404, { error: 'not found' });
    const type = TYPES[extname(file)];
    const content = type === undefined ? undefined : await readFile(file).catch(() => undefined);
    if (type === undefined || content === undefined)
      return sendJson(response, 404, { error: 'not found' });
    response.writeHead(200, { 'content-type': type });
    response.end(content);
  };

  const route = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = request.url ?? '/';
    const planMatch = /^\/api\/chats\/([^/?]+)\/plan$/.exec(url);
    if (url === '/api/chat' && request.method === 'POST') return chat(request, response);
    if (planMatch?.[1] !== undefined && request.method === 'GET') {
      const chatId = decodeURIComponent(planMatch[1]);
      if (!CHAT_ID.test(chatId))
        return sendJson(response, 400, { error: 'chat id: 1-64 letters, digits, _ or -' });
      return plan(chatId, response);
    }
    if (url.startsWith('/api/')) return sendJson(response, 404, { error: 'not found' });
    if (request.method === 'GET') return page(url, response);
    return sendJson(response, 405, { error: 'method not allowed' });
  };

  return createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      if (response.headersSent) response.end();
      // A body that is not JSON, a malformed path, messages useChat could not have sent.
      else if (error instanceof SyntaxError || error instanceof URIError || isBadRequest(error))
        sendJson(response, 400, { error: errorText(error) });
      else {
        console.error(error);
        sendJson(response, 500, { error: 'internal error' });
      }
    });
  });
}
