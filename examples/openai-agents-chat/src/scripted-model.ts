import { type AgentOutputItem, type Model, type ModelRequest, Usage } from '@openai/agents';

/** One tool call the scripted model emits. */
export interface ScriptedCall {
  readonly name: string;
  readonly args: object;
}

/** One reply of the scripted model: tool calls, or the final text. */
export type ScriptedReply = readonly ScriptedCall[] | string;

/**
 * A `Model` that plays back `replies` in order, standing in for a provider's model (the
 * Responses API's `gpt-5`): each reply is one turn's function calls or its final text.
 * `delayMs` makes each turn take a while, so two conversations interleave. `requests`
 * collects what it was sent.
 */
export function scriptedModel(
  replies: ScriptedReply[],
  options: { readonly delayMs?: number; readonly requests?: ModelRequest[] } = {},
): Model {
  let calls = 0;
  return {
    getResponse: async (request) => {
      options.requests?.push(request);
      await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0));
      const reply = replies.shift() ?? 'Nothing left to do.';
      const output: AgentOutputItem[] =
        typeof reply === 'string'
          ? [
              {
                type: 'message',
                role: 'assistant',
                status: 'completed',
                content: [{ type: 'output_text', text: reply }],
              },
            ]
          : reply.map(({ name, args }) => ({
              type: 'function_call',
              callId: `call_${calls++}`,
              name,
              arguments: JSON.stringify(args),
            }));
      return { usage: new Usage(), output };
    },
    getStreamedResponse: () => {
      throw new Error('The scripted model does not stream.');
    },
  };
}
