import { describe, expect, it } from 'vitest';
import { CLAUDE_AGENT_TASK_TOOLS } from './claude-agent-task-tools.ts';

describe('CLAUDE_AGENT_TASK_TOOLS', () => {
  it('names built-in tools of the installed SDK, as disallowedTools spells them', async () => {
    const sdk = (await import('@anthropic-ai/claude-agent-sdk')) as {
      BUILTIN_TOOL_NAMES?: readonly string[];
    };
    expect(sdk.BUILTIN_TOOL_NAMES).toBeDefined();
    for (const name of CLAUDE_AGENT_TASK_TOOLS) expect(sdk.BUILTIN_TOOL_NAMES).toContain(name);
  });

  it('lists every task tool of the SDK and no tool that is not about the plan', async () => {
    const { BUILTIN_TOOL_NAMES } = (await import('@anthropic-ai/claude-agent-sdk')) as {
      BUILTIN_TOOL_NAMES: readonly string[];
    };
    const planTools = BUILTIN_TOOL_NAMES.filter(
      (name) => /^Task(Create|Get|List|Update)$/.test(name) || name === 'TodoWrite',
    );
    expect([...CLAUDE_AGENT_TASK_TOOLS].sort()).toEqual([...planTools].sort());
    expect(CLAUDE_AGENT_TASK_TOOLS).not.toContain('TaskStop');
    expect(Object.isFrozen(CLAUDE_AGENT_TASK_TOOLS)).toBe(true);
  });
});
