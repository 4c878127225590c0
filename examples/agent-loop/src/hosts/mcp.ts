import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  PLAN_RESOURCE_URI,
  registerMcpPlanResource,
  registerMcpPrompt,
  registerMcpTools,
} from '@plankit/adapters/mcp';
import { Plan, selectLatest } from '@plankit/core';
import { PlanningToolsSection } from '@plankit/prompt';
import type { CallReport, DriverContext, ModelDriver, TurnReport } from '../planning-job.ts';
import { ScriptedModel } from '../scripted-model.ts';

/**
 * An MCP loop: plankit's tools live on an `McpServer`, with the plan as a resource and the
 * planning section as a prompt; the agent is an MCP client that lists the tools, fetches the
 * prompt, follows the plan resource and calls the tools over the protocol, as a desktop
 * assistant or IDE would. The model deciding the calls replays the script.
 */
export async function createMcpDriver(context: DriverContext): Promise<ModelDriver> {
  const server = new McpServer({ name: 'plankit-planner', version: '1.0.0' });
  registerMcpTools(server, context.tools, { session: context.session });
  registerMcpPlanResource(server, { session: context.session });
  registerMcpPrompt(server, new PlanningToolsSection({ session: context.session }));
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'example-agent', version: '1.0.0' });
  let planUpdates = 0;
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => {
    planUpdates++;
  });
  await client.connect(clientSide);
  const listed = await client.listTools();
  if (listed.tools.length !== context.tools.length)
    throw new Error('The MCP server did not list every planning tool.');
  const prompt = await client.getPrompt({ name: 'planning.tools' });
  const instructions = prompt.messages[0]?.content;
  if (instructions?.type !== 'text' || !instructions.text.includes('planning_setup_plan'))
    throw new Error('The MCP server did not serve the planning prompt.');
  await client.subscribeResource({ uri: PLAN_RESOURCE_URI });
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
      // The resource the client followed shows the session's plan.
      const read = await client.readResource({ uri: PLAN_RESOURCE_URI });
      const shown = read.contents[0];
      const plan = selectLatest(context.session, Plan);
      if (shown === undefined || !('text' in shown) || shown.text !== JSON.stringify(plan ?? null))
        throw new Error('The plan resource does not show the session plan.');
      if (plan !== undefined && planUpdates === 0)
        throw new Error('The MCP client was never told the plan changed.');
      await client.close();
      await server.close();
      if (script.remaining() > 0)
        throw new Error(
          `The script still has ${script.remaining()} replies: the loop ended early.`,
        );
    },
  };
}
