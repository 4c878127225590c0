import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { isPlanReminder } from '@plankit/prompt';

let nextCall = 0;

/**
 * A chat model that needs no network: it reads the user's last message and answers with
 * planning tool calls. `plan: A; B; C` sets up a plan with those steps (one call) and marks
 * the first in progress (a second call in the same message, so the two run in parallel);
 * `done S001` marks a step done and starts the next; after tool results it answers in words.
 */
export class ScriptedChatModel extends BaseChatModel {
  /** @returns the model's type name */
  _llmType(): string {
    return 'scripted-chat';
  }

  /** Tools are known from the script; binding them changes nothing. */
  override bindTools(): this {
    return this;
  }

  /** Answers one request. */
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const message = answer(messages);
    return { generations: [{ text: message.text, message }] };
  }
}

const call = (name: string, args: Record<string, unknown>) => ({
  id: `call_${++nextCall}`,
  name,
  args,
  type: 'tool_call' as const,
});

function answer(messages: readonly BaseMessage[]): AIMessage {
  // The plan reminder comes last; the turn is decided by what came before it.
  const turn = messages.filter((m) => !isPlanReminder(m));
  const last = turn.at(-1);
  if (ToolMessage.isInstance(last)) return new AIMessage('Plan updated.');
  const text = last?.text.trim() ?? '';
  if (text.startsWith('plan:')) {
    const titles = text
      .slice('plan:'.length)
      .split(';')
      .map((title) => title.trim())
      .filter((title) => title !== '');
    return new AIMessage({
      content: '',
      tool_calls: [
        call('planning_setup_plan', {
          objective: titles.join(', '),
          initial_steps: titles.map((title) => ({ title })),
        }),
        call('planning_mark_step', { step_id: 'S001', status: 'in_progress' }),
      ],
    });
  }
  const done = /^done (S\d{3})$/.exec(text);
  if (done !== null) {
    const next = `S${String(Number(done[1]?.slice(1)) + 1).padStart(3, '0')}`;
    return new AIMessage({
      content: '',
      tool_calls: [
        call('planning_mark_step', { step_id: done[1], status: 'done' }),
        call('planning_mark_step', { step_id: next, status: 'in_progress' }),
      ],
    });
  }
  return new AIMessage('Say "plan: A; B" or "done S001".');
}
