/** One tool call the scripted model emits. */
export interface ScriptedCall {
  readonly name: string;
  readonly input: object;
}

/** One reply of the scripted model: tool uses, or the final text. */
export type ScriptedReply = readonly ScriptedCall[] | string;

/**
 * A `fetch` for `new Anthropic({ fetch })` that answers each `POST /v1/messages` with the next
 * of `replies`, as a `message` in the shape the API returns, so the real client parses it;
 * nothing leaves the process. `delayMs` makes each answer take a while, so two conversations
 * interleave. `bodies` collects the request bodies the client sent.
 */
export function scriptedFetch(
  replies: ScriptedReply[],
  options: { readonly delayMs?: number; readonly bodies?: unknown[] } = {},
): typeof fetch {
  let calls = 0;
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.endsWith('/v1/messages'))
      return new Response(
        JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: url } }),
        { status: 404 },
      );
    options.bodies?.push(JSON.parse(String(init?.body)));
    await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0));
    const reply = replies.shift() ?? 'Nothing left to do.';
    const content =
      typeof reply === 'string'
        ? [{ type: 'text', text: reply, citations: null }]
        : reply.map(({ name, input: args }) => ({
            type: 'tool_use',
            id: `toolu_${String(calls++).padStart(4, '0')}`,
            name,
            input: args,
          }));
    const message = {
      id: `msg_${calls}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5',
      content,
      stop_reason: typeof reply === 'string' ? 'end_turn' : 'tool_use',
      stop_sequence: null,
      usage: {
        input_tokens: 1,
        output_tokens: 1,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        service_tier: 'standard',
      },
    };
    return new Response(JSON.stringify(message), {
      status: 200,
      headers: { 'content-type': 'application/json', 'request-id': `req_${calls}` },
    });
  };
}
