import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ChatAgent } from './chat-server.ts';

/** One tool call the scripted agent makes (a tool of the planning server, by its MCP name). */
export interface ScriptedCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** One turn of the scripted agent: tool calls, or the final text. */
export type ScriptedReply = readonly ScriptedCall[] | string;

/** What the agent saw: the tools listed, then each call's answer, in order. */
export type AgentEvent =
  | { readonly type: 'tools'; readonly names: readonly string[] }
  | {
      readonly type: 'result';
      readonly name: string;
      readonly isError: boolean;
      readonly text: string;
    };

/**
 * A {@link ChatAgent} that plays back `replies` in order, standing in for Claude Code offline:
 * it connects the real MCP v1 client to the conversation's in-process server over the
 * in-memory transport (as Claude Code talks to a `createSdkMcpServer` server), lists the
 * tools, then makes each turn's calls one at a time until a turn is text. The replies are
 * shared across messages (each message takes the next ones). `delayMs` makes each turn take a
 * while, so two conversations interleave; `events` collects what the agent saw.
 */
export function scriptedAgent(
  replies: ScriptedReply[],
  options: { readonly delayMs?: number; readonly events?: AgentEvent[] } = {},
): ChatAgent {
  return async ({ planning }) => {
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await planning.instance.connect(serverSide);
    const client = new Client({ name: 'claude-code-stand-in', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const listed = await client.listTools();
      options.events?.push({ type: 'tools', names: listed.tools.map((tool) => tool.name) });
      let turns = 0;
      while (turns < 8) {
        turns++;
        await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0));
        const reply = replies.shift() ?? 'Nothing left to do.';
        if (typeof reply === 'string') return { text: reply, turns };
        for (const call of reply) {
          const result = await client.callTool(call);
          const content = result.content as { type: string; text?: string }[];
          options.events?.push({
            type: 'result',
            name: call.name,
            isError: result.isError === true,
            text: content.map((block) => block.text ?? '').join(''),
          });
        }
      }
      return { text: '', turns };
    } finally {
      // Closing the client closes the linked server side too.
      await client.close();
    }
  };
}
