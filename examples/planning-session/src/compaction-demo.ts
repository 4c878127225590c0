import {
  createPlanningTools,
  invokeTool,
  Plan,
  renderPlan,
  Session,
  selectLatest,
} from '@plankit/core';
import { batch, dependencies } from '@plankit/core/plan-model';
import { compactChatMessages, fromPlanAnchor } from '@plankit/prompt';

/** A chat message in the OpenAI Chat Completions shape, as a host would store it. */
interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly content: string | null;
  readonly tool_call_id?: string;
  readonly tool_calls?: readonly {
    readonly id: string;
    readonly type: 'function';
    readonly function: { readonly name: string; readonly arguments: string };
  }[];
}

/**
 * A long release conversation compacted 10 times, with a summariser that keeps nothing of the
 * plan: after each compaction the context still holds the session's plan exactly (notes,
 * dependencies and all), right after the summary. Deterministic: no model, injected time.
 */
export async function runCompactionDemo(print: (line: string) => void): Promise<void> {
  const session = new Session({ sessionId: 'demo-compaction', clock: () => Date.UTC(2026, 0, 15) });
  const tools = createPlanningTools(session, { extensions: [dependencies(), batch()] });
  const {
    planning_setup_plan: setup,
    planning_mark_step: mark,
    planning_apply_batch: apply,
  } = tools;
  await invokeTool(
    setup,
    {
      objective: 'Publish the v2.0 release of the CLI',
      initial_steps: Array.from({ length: 10 }, (_, i) => ({
        title: `Release task ${i + 1}`,
        ...(i === 0 ? {} : { depends_on: [`S${String(i).padStart(3, '0')}`] }),
      })),
    },
    { session },
  );
  await invokeTool(mark, { step_id: 'S001', status: 'in_progress' }, { session });

  let messages: ChatMessage[] = [{ role: 'system', content: 'You run the release.' }];
  for (let round = 1; round <= 10; round++) {
    const id = `S${String(round).padStart(3, '0')}`;
    const next = `S${String(round + 1).padStart(3, '0')}`;
    const operations = [
      { op: 'mark', step_id: id, status: 'done', note: `Task ${round} checked` },
      ...(round < 10 ? [{ op: 'mark', step_id: next, status: 'in_progress' }] : []),
    ];
    const result = await invokeTool(apply, { operations }, { session });
    messages.push(
      { role: 'user', content: `Carry on with ${id}.` },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: `call_${round}`,
            type: 'function',
            function: { name: 'planning_apply_batch', arguments: JSON.stringify({ operations }) },
          },
        ],
      },
      { role: 'tool', tool_call_id: `call_${round}`, content: result.message },
    );
    const compacted = await compactChatMessages({
      messages,
      session,
      keep: 2,
      summarise: (old) => `Round ${round}: ${old.length} messages about the release.`,
    });
    messages = compacted.messages;
    const text = messages.map((message) => message.content ?? '').join('\n\n');
    const restored = fromPlanAnchor(text);
    const same =
      restored.ok && JSON.stringify(restored.value) === JSON.stringify(selectLatest(session, Plan));
    print(
      `compaction ${round}: ${compacted.summarised} messages summarised, ${messages.length} left, plan ${same ? 'intact' : 'LOST'}`,
    );
  }
  const plan = selectLatest(session, Plan);
  if (plan !== undefined) print(`\n${renderPlan(plan, { dependencies: true })}`);
}
