import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { PLAN_RESOURCE_URI } from '@plankit/adapters/mcp';
import type { Plan } from '@plankit/core';

/** What one client did: its MCP session id, its plan as the server shows it, what it was told. */
export interface ChatOutcome {
  readonly sessionId: string;
  readonly plan: Plan | null;
  /** The replies of its tool calls, in order. */
  readonly replies: readonly string[];
  /** How many `notifications/resources/updated` it received for the plan. */
  readonly updates: number;
}

/**
 * One conversation, as a scripted client: connects over Streamable HTTP, subscribes to the
 * plan resource, sets up a plan with `steps`, works through the first `done` steps, reads the
 * plan back, and disconnects, ending its MCP session.
 */
export async function runChat(
  url: URL,
  objective: string,
  steps: readonly string[],
  done: number,
): Promise<ChatOutcome> {
  const client = new Client({ name: `chat ${objective}`, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(url);
  let updates = 0;
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => {
    updates += 1;
  });
  await client.connect(transport);
  const sessionId = transport.sessionId ?? '';
  const replies: string[] = [];
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
    if (result.isError === true) throw new Error(`${name} refused: ${text}`);
    replies.push(text);
  };
  await client.subscribeResource({ uri: PLAN_RESOURCE_URI });
  await call('planning_setup_plan', {
    objective,
    initial_steps: steps.map((title) => ({ title })),
  });
  for (let index = 1; index <= done; index++) {
    const stepId = `S${String(index).padStart(3, '0')}`;
    await call('planning_mark_step', { step_id: stepId, status: 'in_progress' });
    await call('planning_mark_step', { step_id: stepId, status: 'done' });
  }
  const read = await client.readResource({ uri: PLAN_RESOURCE_URI });
  const plan = JSON.parse((read.contents[0] as { text: string }).text) as Plan | null;
  await transport.terminateSession();
  await client.close();
  return { sessionId, plan, replies, updates };
}
