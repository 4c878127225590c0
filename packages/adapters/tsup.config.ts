import type { Options } from 'tsup';
import { packageBuild } from '../../tsup.base.config.ts';

const config: Options = packageBuild([
  'src/index.ts',
  'src/openai/index.ts',
  'src/anthropic/index.ts',
  'src/ai-sdk/index.ts',
  'src/langchain/index.ts',
  'src/langgraph/index.ts',
  'src/mcp/index.ts',
  'src/mcp/v2/index.ts',
  'src/persistence/stores/index.ts',
  'src/persistence/postgres/index.ts',
  'src/dbos/index.ts',
  'src/sessions/index.ts',
  'src/persistence/workspace/index.ts',
  'src/openai-agents/index.ts',
  'src/claude-agent-sdk/index.ts',
  'src/acp/index.ts',
]);

export default config;
