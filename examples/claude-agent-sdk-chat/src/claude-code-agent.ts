import { query } from '@anthropic-ai/claude-agent-sdk';
import { createPlanningTools, Session } from '@plankit/core';
import type { ChatAgent } from './chat-server.ts';

const SYSTEM = 'You are a planning assistant. Keep a plan with the planning tools.';
// Claude Code asks before it runs an MCP tool; the planning tools are allowed up front.
const ALLOWED = createPlanningTools(new Session()).map((tool) => `mcp__planning__${tool.name}`);

/**
 * The live {@link ChatAgent}: Claude Code through `query()`, with the conversation's planning
 * server as its only tools (`mcp__planning__<tool>`; Claude Code's built-in tools are off) and
 * the conversation resumed from Claude Code's own session on later messages.
 *
 * Type-checked, never run in the tests: `query()` starts the Claude Code binary and needs
 * ANTHROPIC_API_KEY. `main.ts --live` runs it.
 */
export function claudeCodeAgent(): ChatAgent {
  const claudeSessions = new Map<string, string>();
  return async ({ chatId, prompt, planning }) => {
    const resume = claudeSessions.get(chatId);
    const run = query({
      prompt,
      options: {
        systemPrompt: SYSTEM,
        mcpServers: { planning },
        tools: [],
        allowedTools: ALLOWED,
        maxTurns: 8,
        ...(resume === undefined ? {} : { resume }),
      },
    });
    for await (const message of run) {
      if (message.type !== 'result') continue;
      claudeSessions.set(chatId, message.session_id);
      const text = message.subtype === 'success' ? message.result : message.errors.join('\n');
      return { text, turns: message.num_turns };
    }
    return { text: '', turns: 0 };
  };
}
