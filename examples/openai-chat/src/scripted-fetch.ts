/** One tool call the scripted model emits. */
export interface ScriptedCall {
  readonly name: string;
  readonly args: object;
}

/** One reply of the scripted model: tool calls, or the final text. */
export type ScriptedReply = readonly ScriptedCall[] | string;

/**
 * A `fetch` for `new OpenAI({ fetch })` that answers each `POST /chat/completions` with the
 * next of `replies`, as a `chat.completion` in the shape the API returns, so the real client
 * parses it; nothing leaves the process. `delayMs` makes each answer take a while, so two
 * conversations interleave. `bodies` collects the request bodies the client sent.
 */
export function scriptedFetch(
  replies: ScriptedReply[],
  options: { readonly delayMs?: number; readonly bodies?: unknown[] } = {},
): typeof fetch {
  let calls = 0;
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.endsWith('/chat/completions'))
      return new Response(JSON.stringify({ error: { message: `No route ${url}` } }), {
        status: 404,
      });
    options.bodies?.push(JSON.parse(String(init?.body)));
    await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0));
    const reply = replies.shift() ?? 'Nothing left to do.';
    const message =
      typeof reply === 'string'
        ? { role: 'assistant', content: reply, refusal: null, annotations: [] }
        : {
            role: 'assistant',
            content: null,
            refusal: null,
            annotations: [],
            tool_calls: reply.map(({ name, args }) => ({
              id: `call_${calls++}`,
              type: 'function',
              function: { name, arguments: JSON.stringify(args) },
            })),
          };
    const completion = {
      id: `chatcmpl-${calls}`,
      object: 'chat.completion',
      created: 1_763_900_000,
      model: 'gpt-5-2025-08-07',
      choices: [
        {
          index: 0,
          message,
          logprobs: null,
          finish_reason: typeof reply === 'string' ? 'stop' : 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      service_tier: 'default',
      system_fingerprint: null,
    };
    return new Response(JSON.stringify(completion), {
      status: 200,
      headers: { 'content-type': 'application/json', 'x-request-id': `req_${calls}` },
    });
  };
}
