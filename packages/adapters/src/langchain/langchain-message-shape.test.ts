import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { createPlanningTools, invokeTool, Plan, Session, selectLatest } from '@plankit/core';
import { compactWithPlan, fromPlanAnchor, PLAN_STATE_HEADER } from '@plankit/prompt';
import { describe, expect, it } from 'vitest';
import { langChainMessageShape } from './langchain-message-shape.ts';

describe('langChainMessageShape with compactWithPlan', () => {
  it('keeps the SystemMessage, places summary and plan as HumanMessages, and a ToolMessage with its call', async () => {
    const session = new Session();
    const [setup, , , mark] = createPlanningTools(session, { dependencies: true });
    await invokeTool(
      setup,
      {
        objective: 'Ship',
        initial_steps: [{ title: 'Build' }, { title: 'Test', depends_on: ['S001'] }],
      },
      { session },
    );
    let messages: BaseMessage[] = [new SystemMessage('You ship releases.')];
    for (let n = 1; n <= 10; n++) {
      if (n === 5)
        await invokeTool(mark, { step_id: 'S001', status: 'done', note: 'built' }, { session });
      messages.push(
        new HumanMessage(`Turn ${n}`),
        new AIMessage({
          content: '',
          tool_calls: [{ id: `c${n}`, name: 'planning_read_plan', args: {}, type: 'tool_call' }],
        }),
        new ToolMessage({ content: `plan ${n}`, tool_call_id: `c${n}` }),
      );
      const compacted = await compactWithPlan(
        { messages, session, keep: 1, summarise: (old) => `folded ${old.length}` },
        langChainMessageShape,
      );
      messages = compacted.messages;
      expect(SystemMessage.isInstance(messages[0])).toBe(true);
      expect(HumanMessage.isInstance(messages[2])).toBe(true);
      expect(String(messages[2]?.content).startsWith(PLAN_STATE_HEADER)).toBe(true);
      expect(AIMessage.isInstance(messages[3])).toBe(true);
      expect(ToolMessage.isInstance(messages[4])).toBe(true);
      expect(fromPlanAnchor(String(messages[2]?.content))).toEqual({
        ok: true,
        value: selectLatest(session, Plan),
      });
    }
    expect(selectLatest(session, Plan)?.steps[0]?.notes).toEqual(['built']);
  });
});
