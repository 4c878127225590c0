import type { IncomingMessage, RequestListener } from 'node:http';
import { HumanMessage } from '@langchain/core/messages';
import { isConversationId } from '@plankit/adapters/sessions';

/**
 * What the handler needs of an agent: `createAgent`'s `stream` with LangGraph's own SSE
 * encoding (`encoding: 'text/event-stream'`), which writes each chunk as `event: <mode>` and
 * `data: <json>`, the format `useStream`'s `FetchStreamTransport` reads.
 */
export interface StreamingAgent {
  /** Runs the agent on a thread and streams it as LangGraph SSE bytes. */
  stream(
    input: { messages: HumanMessage[] },
    options: {
      configurable: { thread_id: string };
      streamMode: ('values' | 'messages')[];
      encoding: 'text/event-stream';
      signal: AbortSignal;
    },
  ): Promise<AsyncIterable<Uint8Array>>;
}

/** The body `FetchStreamTransport` posts: `useStream`'s `submit` values and its config. */
interface StreamRequest {
  readonly input?: { readonly messages?: unknown };
  readonly config?: { readonly configurable?: { readonly thread_id?: unknown } };
}

const MAX_BODY_BYTES = 65_536;

/**
 * The user's messages of a request, or `null` when any is not a user message with text: the
 * client speaks for the user only, never as the assistant or a tool.
 */
function userMessages(value: unknown): HumanMessage[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const messages: HumanMessage[] = [];
  for (const item of value) {
    const { type, role, content } = (typeof item === 'object' && item !== null ? item : {}) as {
      type?: unknown;
      role?: unknown;
      content?: unknown;
    };
    if ((type !== 'human' && role !== 'user') || typeof content !== 'string') return null;
    messages.push(new HumanMessage(content));
  }
  return messages;
}

/** The request's JSON body, `null` when it is not JSON, `'too large'` past the limit. */
async function readBody(request: IncomingMessage): Promise<StreamRequest | null | 'too large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Read to the end, keeping nothing past the limit: leaving the loop early would destroy the
  // socket, and the client would see a reset instead of the 413.
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  if (size > MAX_BODY_BYTES) return 'too large';
  try {
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof body === 'object' && body !== null ? body : null;
  } catch {
    return null;
  }
}

/**
 * A `node:http` handler for `useStream({ transport: new FetchStreamTransport({ apiUrl }) })`
 * from `@langchain/langgraph-sdk/react`: each POST runs the agent on the thread `useStream`
 * names (`config.configurable.thread_id`, a fresh id per conversation) with the submitted
 * user messages, and streams the run's `values` (the whole state after each step, the plan
 * channels included) and `messages` as LangGraph SSE. Anything but user messages with text and
 * a valid thread id is refused with 400 before the thread is touched. The run stops when the
 * client goes away.
 */
export function agentStreamHandler(agent: StreamingAgent): RequestListener {
  return (request, response) => {
    const refuse = (status: number, error: string) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error }));
    };
    if (request.method !== 'POST') return refuse(405, 'POST a useStream payload');
    const abort = new AbortController();
    // 'close' on the response fires when it ends or when the client disconnects first.
    response.on('close', () => abort.abort());
    void (async () => {
      const body = await readBody(request);
      if (body === 'too large') return refuse(413, `send at most ${MAX_BODY_BYTES} bytes`);
      const thread = body?.config?.configurable?.thread_id;
      const messages = userMessages(body?.input?.messages);
      if (!isConversationId(thread) || messages === null)
        return refuse(
          400,
          "send { input: { messages: [{ type: 'human', content }] }, config: { configurable: { thread_id } } }",
        );
      const stream = await agent.stream(
        { messages },
        {
          configurable: { thread_id: thread },
          streamMode: ['values', 'messages'],
          encoding: 'text/event-stream',
          signal: abort.signal,
        },
      );
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for await (const chunk of stream) response.write(chunk);
      response.end();
    })().catch((error: unknown) => {
      // Logged here; the page gets no internal error's text.
      console.error(error);
      if (!response.headersSent) refuse(500, 'the run failed');
      else response.destroy();
    });
  };
}
