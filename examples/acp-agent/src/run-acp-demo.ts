import { PROTOCOL_VERSION, type SessionNotification } from '@agentclientprotocol/sdk';
import { AGENT_MAIN, connectClient, renderPlanEntries, spawnAgent } from './connect-client.ts';

/** Options of {@link runACPDemo}. */
export interface ACPDemoOptions {
  /** Where the agent keeps its plans. */
  readonly store: string;
  readonly print: (line: string) => void;
}

const isPlan = (n: SessionNotification): boolean => n.update.sessionUpdate === 'plan';

/**
 * Plays an editor: spawns the stdio agent, opens a session, prompts twice and prints each plan
 * update as it arrives; then starts the agent again and loads the session, which replays the
 * plan it saved.
 */
export async function runACPDemo(options: ACPDemoOptions): Promise<void> {
  const { print, store } = options;
  print(
    `Launch line for an ACP client (Zed's agent_servers): node --conditions=@plankit/source --import tsx ${AGENT_MAIN}`,
  );
  const first = spawnAgent(store);
  const editor = connectClient(first.stream);
  const agent = editor.connection.agent;
  const init = await agent.request('initialize', { protocolVersion: PROTOCOL_VERSION });
  print(
    `\nConnected to ${init.agentInfo?.name ?? 'the agent'}; loadSession: ${init.agentCapabilities?.loadSession === true}`,
  );
  const { sessionId } = await agent.request('session/new', { cwd: process.cwd(), mcpServers: [] });
  for (const text of ['Add a --json flag to the CLI', 'Carry on']) {
    print(`\n> ${text}`);
    const from = editor.updates.length;
    const { stopReason } = await agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text }],
    });
    for (const n of editor.updates.slice(from)) {
      const u = n.update;
      if (u.sessionUpdate === 'plan') print(`plan:\n${renderPlanEntries(n)}`);
      else if (u.sessionUpdate === 'tool_call') print(`tool call (${u.kind}): ${u.title}`);
      else if (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text')
        print(`agent: ${u.content.text}`);
    }
    print(`(${stopReason})`);
  }
  editor.connection.close();
  first.child.stdin?.end();
  await first.exited;

  print(`\nThe agent restarts; session/load replays the saved plan:`);
  const second = spawnAgent(store);
  const again = connectClient(second.stream);
  await again.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION });
  await again.connection.agent.request('session/load', {
    sessionId,
    cwd: process.cwd(),
    mcpServers: [],
  });
  print(renderPlanEntries(await again.waitFor(isPlan)));
  again.connection.close();
  second.child.stdin?.end();
  await second.exited;
}
