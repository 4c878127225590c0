import type { Options } from 'tsup';
import { packageBuild } from '../../tsup.base.config.ts';

const config: Options = packageBuild([
  'src/index.ts',
  'src/openai.ts',
  'src/anthropic.ts',
  'src/ai-sdk.ts',
  'src/langchain.ts',
  'src/langgraph.ts',
  'src/mcp.ts',
  'src/mcp-v2.ts',
  'src/stores.ts',
  'src/postgres.ts',
  'src/sessions.ts',
  'src/workspace.ts',
  'src/openai-agents.ts',
  'src/claude-agent-sdk.ts',
]);

export default config;
