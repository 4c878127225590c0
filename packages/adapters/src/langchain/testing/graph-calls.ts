import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';

/** A model turn that calls planning_setup_plan with `titles` as the initial steps. */
export function setupCall(id: string, objective: string, titles: readonly string[]): AIMessage {
  return new AIMessage({
    content: '',
    tool_calls: [
      {
        id,
        name: 'planning_setup_plan',
        args: { objective, initial_steps: titles.map((title) => ({ title })) },
        type: 'tool_call',
      },
    ],
  });
}

/** A model turn that marks `stepId` done. */
export function markCall(id: string, stepId: string): AIMessage {
  return new AIMessage({
    content: '',
    tool_calls: [
      {
        id,
        name: 'planning_mark_step',
        args: { step_id: stepId, status: 'done' },
        type: 'tool_call',
      },
    ],
  });
}

/** The last tool reply in a graph's messages. */
export function lastToolMessage(messages: readonly BaseMessage[]): ToolMessage | undefined {
  return messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m)).at(-1);
}
