// Test support: a plankit planning server on stdio, on MCP v1 or v2 (`v1` | `v2` as argument),
// its tools in ASCII mode, or in Unicode mode with `unicode` as a second argument.
// Run with `node --conditions=@plankit/source --import tsx mcp-stdio-server.ts v2 [unicode]`
// (the tests run it bundled, see testing/bundle-worker.ts).
import { createPlanningTools, Session } from '@plankit/core';
import { PlanningToolsSection } from '@plankit/prompt';

const major = process.argv[2];
const session = new Session({ sessionId: 'stdio' });
const tools = createPlanningTools(session, {
  text: process.argv[3] === 'unicode' ? 'unicode' : 'ascii',
});
const section = new PlanningToolsSection({ session });

if (major === 'v1') {
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const mcp = await import('../index.ts');
  const server = new McpServer({ name: 'plankit-stdio-v1', version: '1.0.0' });
  mcp.registerMcpTools(server, tools, { session });
  mcp.registerMcpPlanResource(server, { session });
  mcp.registerMcpPrompt(server, section);
  await server.connect(new StdioServerTransport());
} else if (major === 'v2') {
  const { McpServer } = await import('@modelcontextprotocol/server');
  const { StdioServerTransport } = await import('@modelcontextprotocol/server/stdio');
  const mcp = await import('../v2/index.ts');
  const server = new McpServer({ name: 'plankit-stdio-v2', version: '1.0.0' });
  mcp.registerMcpTools(server, tools, { session });
  mcp.registerMcpPlanResource(server, { session });
  mcp.registerMcpPrompt(server, section);
  await server.connect(new StdioServerTransport());
} else {
  process.stderr.write('usage: mcp-stdio-server.ts v1|v2\n');
  process.exit(2);
}
