import type { Model, ModelRequest, ModelResponse } from '@openai/agents';
import { Usage } from '@openai/agents';

/** A function call item as the model emits it in a response. */
export interface ScriptedCall {
  readonly name: string;
  readonly args: unknown;
  /** The call id; `call_<index>` of the response by default. */
  readonly callId?: string;
}

/** One scripted response: function calls, or a final text. */
export type ScriptedTurn = readonly ScriptedCall[] | string;

let responses = 0;

/**
 * The SDK's `Model` interface answering from a script, one turn per request, and recording
 * every request (the Runner's input items: the tool outputs the model reads, and its tools).
 */
export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  private readonly turns: ScriptedTurn[];

  constructor(turns: readonly ScriptedTurn[]) {
    this.turns = [...turns];
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const turn = this.turns.shift() ?? 'done';
    const responseId = `resp_${++responses}`;
    if (typeof turn === 'string')
      return {
        usage: new Usage(),
        responseId,
        output: [
          {
            type: 'message',
            role: 'assistant',
            status: 'completed',
            id: `msg_${responses}`,
            content: [{ type: 'output_text', text: turn }],
          },
        ],
      };
    return {
      usage: new Usage(),
      responseId,
      output: turn.map((call, index) => ({
        type: 'function_call' as const,
        id: `fc_${responses}_${index}`,
        callId: call.callId ?? `call_${responses}_${index}`,
        name: call.name,
        arguments: typeof call.args === 'string' ? call.args : JSON.stringify(call.args),
        status: 'completed' as const,
      })),
    };
  }

  getStreamedResponse(): AsyncIterable<never> {
    throw new Error('ScriptedModel does not stream.');
  }

  /** The outputs of the function calls the model has read so far, by call id. */
  outputs(): Map<string, string> {
    const read = new Map<string, string>();
    for (const request of this.requests) {
      if (!Array.isArray(request.input)) continue;
      for (const item of request.input) {
        if (item.type !== 'function_call_result') continue;
        const output = item.output;
        const text =
          typeof output === 'string'
            ? output
            : 'text' in output && typeof output.text === 'string'
              ? output.text
              : JSON.stringify(output);
        read.set(item.callId, text);
      }
    }
    return read;
  }
}
