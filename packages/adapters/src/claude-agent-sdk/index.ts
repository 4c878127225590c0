/**
 * plankit tools for the Claude Agent SDK (`@anthropic-ai/claude-agent-sdk`): registered on the
 * in-process MCP server that `createSdkMcpServer` returns, one plan per conversation through
 * an explicit key and a session pool.
 *
 * @packageDocumentation
 * @module @plankit/adapters/claude-agent-sdk
 */

export type { ConversationKeyContext } from '../host/keyed-context.ts';
export { CLAUDE_AGENT_TASK_TOOLS } from './claude-agent-task-tools.ts';
export type {
  ClaudeAgentSdkServer,
  ClaudeAgentToolsOptions,
} from './register-claude-agent-tools.ts';
export { registerClaudeAgentTools } from './register-claude-agent-tools.ts';
