import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerMcpTools } from '@plankit/adapters/mcp';
import type { CallReport, DriverContext, ModelDriver, TurnReport } from '../planning-job.ts';
import { ScriptedModel } from '../scripted-model.ts';

/**
 * An MCP loop: plankit's tools live on an `McpServer`; the agent is an MCP client that lists
 * them and calls them over the protocol, as a desktop assistant or IDE would. The model
 * deciding the calls replays the script.
 */
export async function createMcpDriver(context: DriverContext): Promise<ModelDriver> {
  const server = new McpServer({ name: 'plankit-planner', version: '1.0.0' });
  registerMcpTools(server, context.tools, { session: context.session });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'example-agent', version: '1.0.0' });
  await client.connect(clientSide);
  const listed = await client.listTools();
  if (listed.tools.length !== context.tools.length)
    throw new Error('The MCP server did not list every planning tool.');
  const script = new ScriptedModel();

  return {
    host: 'mcp',
    model: 'scripted',
    live: false,
    async turn(instruction): Promise<TurnReport> {
      script.begin(instruction);
      const calls: CallReport[] = [];
      const usage: { inputTokens: number; outputTokens: number }[] = [];
      for (let step = 0; step < 8; step++) {
        const reply = script.reply();
        context.tick();
        usage.push(reply.usage);
        if ('text' in reply) return { calls, text: reply.text, usage };
        for (const call of reply.calls) {
          const result = (await client.callTool({
            name: call.name,
            arguments: { ...call.args },
          })) as {
            content: { type: string; text?: string }[];
            isError?: boolean;
          };
          calls.push({
            tool: call.name,
            success: result.isError !== true,
            message: result.content[0]?.text ?? '',
          });
        }
      }
      return { calls, text: '', usage };
    },
    async close() {
      await client.close();
      await server.close();
      if (script.remaining() > 0)
        throw new Error(
          `The script still has ${script.remaining()} replies: the loop ended early.`,
        );
    },
  };
}
