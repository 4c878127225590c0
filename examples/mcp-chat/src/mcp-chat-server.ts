import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type McpContext, registerMcpPlanResource, registerMcpTools } from '@plankit/adapters/mcp';
import { createSessionPool, type SessionPool } from '@plankit/adapters/sessions';
import type { SessionStore } from '@plankit/adapters/stores';
import { createPlanningTools, Session } from '@plankit/core';

/** Options of {@link startMcpChatServer}. */
export interface McpChatServerOptions {
  /** Where each client's plan is kept (a `FileStore` in the demo). */
  readonly store: SessionStore;
  /** The port; 0 (the default) picks a free one. The server listens on 127.0.0.1 only. */
  readonly port?: number;
  /** The most plans kept live at once; 100 by default. */
  readonly max?: number;
}

/** A running chat server. */
export interface McpChatServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: URL;
  /** The pool holding one session per client (keyed by the MCP session id). */
  readonly pool: SessionPool;
  /** Closes every client's transport, then the pool (saving each plan), then the HTTP server. */
  close(): Promise<void>;
}

// The tools run on the session each call resolves to; this one only defines them.
const TOOLS = createPlanningTools(new Session());

/**
 * Starts an MCP server over Streamable HTTP (MCP v1) that serves many clients at once, each
 * with its own plan. Each client gets its own `McpServer` and transport (the SDK's rule: one
 * connection per server); all of them share one session pool, and every request resolves its
 * plan from the transport's session id (`Mcp-Session-Id`). When a client ends its MCP session
 * (`DELETE`), its plan is saved and evicted from memory; it stays in the store.
 */
export async function startMcpChatServer(options: McpChatServerOptions): Promise<McpChatServer> {
  const pool = createSessionPool({ store: options.store, max: options.max ?? 100 });
  const session = pool.resolver((context: McpContext) => context.sessionId);
  const transports = new Map<string, StreamableHTTPServerTransport>();

  const connect = async (): Promise<StreamableHTTPServerTransport> => {
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id === undefined) return;
      transports.delete(id);
      // The conversation ended: save its plan and free the slot.
      void pool.evict(id);
    };
    const server = new McpServer({ name: 'plankit-mcp-chat', version: '1.0.0' });
    registerMcpTools(server, TOOLS, { session });
    registerMcpPlanResource(server, { session });
    await server.connect(transport);
    return transport;
  };

  const http: Server = createServer((request, response) => {
    const serve = async (): Promise<void> => {
      if (new URL(request.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') {
        response.writeHead(404).end();
        return;
      }
      const id = request.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? transports.get(id) : undefined;
      if (transport === undefined) {
        // Only an initialize request (a POST without a session id) opens a new session.
        if (id !== undefined || request.method !== 'POST') {
          response.writeHead(404, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              jsonrpc: '2.0',
              error: { code: -32001, message: 'Session not found' },
              id: null,
            }),
          );
          return;
        }
        transport = await connect();
      }
      await transport.handleRequest(request, response);
    };
    serve().catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve) => http.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;

  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    pool,
    async close() {
      await Promise.all([...transports.values()].map((transport) => transport.close()));
      const closed = await pool.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      if (!closed.ok) throw closed.error;
    },
  };
}
