import type Anthropic from '@anthropic-ai/sdk';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { createAnthropicToolset } from '@plankit/adapters/anthropic';
import { type AnyTool, renderPlan } from '@plankit/core';
import type { ModelReply, ModelRequest, PlanningModel } from './planning-model.ts';

const SYSTEM =
  'You are a coding agent. Keep a plan with the planning tools: set it up for any task of more ' +
  'than one step, mark each step in_progress when you start it and done when it is done, ' +
  'blocked when it waits on something. Then answer in a few sentences.';

/**
 * A live Claude model through the Anthropic SDK: one message history per ACP session, the
 * plankit tools offered in Anthropic's shape (not strict, so the agent runs the calls as the
 * model wrote them).
 */
export function createClaudeModel(
  client: Anthropic,
  tools: readonly AnyTool[],
  model: string,
): PlanningModel {
  const toolset = createAnthropicToolset(tools, { strict: false });
  const histories = new Map<string, MessageParam[]>();
  return {
    reply: async (request: ModelRequest, signal: AbortSignal): Promise<ModelReply> => {
      const messages = histories.get(request.sessionId) ?? [];
      histories.set(request.sessionId, messages);
      if (request.step === 0) {
        const plan = request.plan === undefined ? 'No plan yet.' : renderPlan(request.plan);
        messages.push({ role: 'user', content: `${request.prompt}\n\nCurrent plan:\n${plan}` });
      } else {
        messages.push({
          role: 'user',
          content: request.outcomes.map((outcome) => ({
            type: 'tool_result' as const,
            tool_use_id: outcome.id,
            content: outcome.text,
            is_error: !outcome.success,
          })),
        });
      }
      const response = await client.messages.create(
        { model, max_tokens: 2048, system: SYSTEM, messages, tools: [...toolset.tools] },
        { signal },
      );
      messages.push({ role: 'assistant', content: response.content });
      const text = response.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
      const calls = response.content.flatMap((b) =>
        b.type === 'tool_use' ? [{ id: b.id, name: b.name, arguments: b.input }] : [],
      );
      return { text, calls };
    },
  };
}
