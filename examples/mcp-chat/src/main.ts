import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStore } from '@plankit/adapters/stores';
import { runChat } from './chat-client.ts';
import { startMcpChatServer } from './mcp-chat-server.ts';

// Two clients talk to one MCP server at the same time; each ends with its own plan.
const directory = await mkdtemp(join(tmpdir(), 'plankit-mcp-chat-'));
const server = await startMcpChatServer({ store: new FileStore({ directory }) });
console.log(`MCP server on ${server.url.href}, plans in ${directory}`);
const [release, trip] = await Promise.all([
  runChat(server.url, 'Ship the release', ['Freeze the branch', 'Run the tests', 'Tag it'], 2),
  runChat(server.url, 'Plan the trip', ['Book the train', 'Pack'], 1),
]);
for (const chat of [release, trip]) {
  console.log(`\nclient ${chat.sessionId}: ${chat.plan?.objective}`);
  for (const step of chat.plan?.steps ?? [])
    console.log(`  ${step.step_id} ${step.status} ${step.title}`);
}
await server.close();
