import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { createPlanningTools, invokeTool, Plan, Session, selectLatest } from '@plankit/core';
import { batch, dependencies, history, owners, planHistory } from '@plankit/core/plan-model';
import fc from 'fast-check';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { fromPlanAnchor } from '../plan-anchor.ts';
import { compactAnthropicMessages } from './compact-anthropic-messages.ts';
import { chatText, compactChatMessages } from './compact-chat-messages.ts';
import { PLAN_STATE_HEADER, RECENT_CHANGES_HEADER } from './compact-with-plan.ts';

// The whole context as text, in order: fromPlanAnchor reads the last anchor in it.
const contextText = (messages: readonly ChatCompletionMessageParam[]): string =>
  messages.map((message) => chatText(message)).join('\n\n');

// Summarisers as lossy as a model can be: nothing, a fixed line, or a stale anchor quoted back.
const summarisers = fc.constantFrom<(old: readonly ChatCompletionMessageParam[]) => string>(
  () => '',
  () => 'The user and the assistant worked on the release.',
  (old) => old.map(chatText).join('\n').slice(0, 400),
  (old) => contextText(old),
);

const title = fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,15}$/);

// One planning call, with arguments the tools may refuse (unknown ids, cycles, open
// dependencies): refusals must change nothing, and compaction must carry what was applied.
const call = fc.oneof(
  fc.record({
    name: fc.constant(3),
    args: fc.record({
      step_id: fc.constantFrom('S001', 'S002', 'S003', 'S004', 'S005', 'S009'),
      status: fc.constantFrom('pending', 'in_progress', 'blocked', 'done'),
      note: fc.option(title, { nil: undefined }),
    }),
  }),
  fc.record({
    name: fc.constant(1),
    args: fc.record({
      steps: fc.array(
        fc.record({
          title,
          depends_on: fc.uniqueArray(fc.constantFrom('S001', 'S002', 'S003', 'S004'), {
            maxLength: 2,
          }),
        }),
        { minLength: 1, maxLength: 2 },
      ),
    }),
  }),
  fc.record({
    name: fc.constant(2),
    args: fc.record({
      step_id: fc.constantFrom('S001', 'S002', 'S003', 'S004'),
      depends_on: fc.uniqueArray(fc.constantFrom('S001', 'S002', 'S003', 'S004'), {
        maxLength: 2,
      }),
    }),
  }),
  fc.record({
    name: fc.constant(6),
    args: fc.record({
      operations: fc.array(
        fc.oneof(
          fc.record({
            op: fc.constant('mark'),
            step_id: fc.constantFrom('S001', 'S002', 'S003'),
            status: fc.constantFrom('in_progress', 'done'),
          }),
          fc.record({
            op: fc.constant('note'),
            step_id: fc.constantFrom('S001', 'S002'),
            note: title,
          }),
        ),
        { minLength: 1, maxLength: 3 },
      ),
    }),
  }),
);

async function setupSession(): Promise<{ session: Session; tools: ReturnType<typeof toolsOf> }> {
  const session = new Session({ sessionId: 'compaction-property', clock: () => 1 });
  const tools = toolsOf(session);
  await invokeTool(
    tools.planning_setup_plan,
    {
      objective: 'Ship the release',
      initial_steps: [
        { title: 'Design', details: 'keep it small' },
        { title: 'Build', depends_on: ['S001'] },
        { title: 'Test', depends_on: ['S002'] },
      ],
    },
    { session },
  );
  return { session, tools };
}
const toolsOf = (session: Session) =>
  createPlanningTools(session, { extensions: [dependencies(), batch()] });

function turn(n: number, result: string): ChatCompletionMessageParam[] {
  return [
    { role: 'user', content: `Turn ${n}` },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: `c${n}`,
          type: 'function',
          function: { name: 'planning_read_plan', arguments: '{}' },
        },
      ],
    },
    { role: 'tool', tool_call_id: `c${n}`, content: result },
  ];
}

describe('a plan survives successive compactions exactly', () => {
  it('10 rounds of compaction of a chat with a session: after each compaction, the context holds the latest plan, notes and dependencies included (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.array(call, { maxLength: 3 }), summarisers, fc.nat({ max: 5 })), {
          minLength: 10,
          maxLength: 10,
        }),
        async (rounds) => {
          const { session, tools } = await setupSession();
          let messages: ChatCompletionMessageParam[] = [{ role: 'system', content: 'sys' }];
          let compactions = 0;
          for (const [n, [calls, summarise, keep]] of rounds.entries()) {
            for (const { name, args } of calls) {
              const before = selectLatest(session, Plan);
              const result = await invokeTool(tools[name] as never, args, { session });
              if (!result.success) expect(selectLatest(session, Plan)).toEqual(before);
              messages.push(...turn(n, result.message));
            }
            messages.push({ role: 'user', content: `Round ${n} done?` });
            const compacted = await compactChatMessages({ messages, session, keep, summarise });
            if (compacted.summarised === 0) {
              // Nothing older than the kept tail: the context is left as it is. Once a
              // compaction ran, its messages are always summarised again, so never after.
              expect(compactions).toBe(0);
              expect(compacted.messages).toEqual(messages);
              continue;
            }
            compactions += 1;
            messages = JSON.parse(JSON.stringify(compacted.messages));
            const plan = selectLatest(session, Plan);
            expect(fromPlanAnchor(contextText(messages))).toEqual({ ok: true, value: plan });
            expect(messages[0]).toEqual({ role: 'system', content: 'sys' });
            expect(messages.filter((m) => chatText(m).startsWith(PLAN_STATE_HEADER))).toHaveLength(
              1,
            );
            const planAt = messages.findIndex((m) => chatText(m).startsWith(PLAN_STATE_HEADER));
            expect(planAt).toBe(2);
            expect(messages[3]?.role).not.toBe('tool');
          }
          // The last round always has something older than its tail (at least 11 messages, a
          // tail of at most 5), so compaction starts by then; when it starts depends on the
          // generated calls and tails (seed 51796271 starts it in round 5).
          expect(compactions).toBeGreaterThanOrEqual(1);
        },
      ),
      { numRuns: 25 },
    );
  });

  it.each([
    ['without a key: flagged unauthenticated', undefined, 'unauthenticated-anchor'],
    ['with anchorKey: authenticated', 'a-32-byte-secret-from-the-vault!', 'authenticated-anchor'],
  ] as const)(
    '10 compactions without a session, %s: the plan comes back from the plan message, byte for byte, whatever the summariser drops',
    async (_, anchorKey, source) => {
      const { session, tools } = await setupSession();
      await invokeTool(
        tools.planning_mark_step,
        { step_id: 'S001', status: 'done', note: 'approved by Ana' },
        { session },
      );
      await invokeTool(
        tools.planning_add_step,
        { steps: [{ title: 'Docs', depends_on: ['S001', 'S003'] }] },
        { session },
      );
      const plan = selectLatest(session, Plan);
      let messages = (
        await compactChatMessages({
          messages: turn(0, 'x'),
          session,
          anchorKey,
          summarise: () => '',
        })
      ).messages;
      for (let n = 1; n <= 10; n++) {
        messages.push(...turn(n, `result ${n}`));
        const compacted = await compactChatMessages({
          messages,
          keep: n % 3,
          anchorKey,
          summarise: () => `summary ${n}`,
        });
        expect(compacted.planSource).toBe(source);
        expect(compacted.ignoredAnchors).toEqual([]);
        expect(compacted.plan).toEqual(plan);
        messages = JSON.parse(JSON.stringify(compacted.messages));
      }
      expect(fromPlanAnchor(contextText(messages))).toEqual({ ok: true, value: plan });
      expect(plan?.steps[3]?.depends_on).toEqual(['S001', 'S003']);
      expect(plan?.steps[0]?.notes).toEqual(['approved by Ana']);
    },
  );

  it('10 compactions of an Anthropic Messages list: one user message with the summary and plan blocks, tool_use kept with its tool_result', async () => {
    const { session, tools } = await setupSession();
    let messages: MessageParam[] = [];
    const anthropicText = (list: readonly MessageParam[]) =>
      list
        .map((m) =>
          typeof m.content === 'string'
            ? m.content
            : m.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n'),
        )
        .join('\n\n');
    for (let n = 1; n <= 10; n++) {
      const result = await invokeTool(
        tools.planning_apply_batch,
        {
          operations: [
            { op: 'add', title: `Step ${n}`, depends_on: ['S001'] },
            { op: 'note', step_id: 'S001', note: `n${n}` },
          ],
        },
        { session },
      );
      expect(result.success).toBe(true);
      messages.push(
        { role: 'user', content: `Turn ${n}` },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: `t${n}`, name: 'planning_apply_batch', input: {} }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: `t${n}`, content: result.message }],
        },
      );
      const compacted = await compactAnthropicMessages({
        messages,
        session,
        keep: 1,
        summarise: () => `s${n}`,
      });
      messages = JSON.parse(JSON.stringify(compacted.messages));
      expect(messages[0]?.role).toBe('user');
      expect(((messages[0]?.content ?? []) as { type: string }[]).map((b) => b.type)).toEqual([
        'text',
        'text',
      ]);
      expect(messages[1]?.role).toBe('assistant'); // the tool_use, kept with its result
      expect(fromPlanAnchor(anthropicText(messages))).toEqual({
        ok: true,
        value: selectLatest(session, Plan),
      });
    }
    expect(selectLatest(session, Plan)?.steps[0]?.notes).toHaveLength(10);
  });

  it('10 compactions of a shared plan: owners travel in the anchor, the newest explanations are shown', async () => {
    const session = new Session({ sessionId: 'owned', clock: () => 1 });
    const lead = createPlanningTools(session, {
      extensions: [dependencies(), owners({ agent: 'lead' }), history()],
    });
    const worker = createPlanningTools(session, {
      extensions: [dependencies(), owners({ agent: 'worker-1' }), history()],
    });
    await invokeTool(
      lead.planning_setup_plan,
      {
        objective: 'Ship',
        initial_steps: Array.from({ length: 10 }, (_, i) => ({ title: `Part ${i + 1}` })),
        explanation: 'kick-off',
      },
      { session },
    );
    let messages: ChatCompletionMessageParam[] = [{ role: 'system', content: 'sys' }];
    for (let n = 1; n <= 10; n++) {
      const id = `S${String(n).padStart(3, '0')}`;
      const who = n % 2 === 0 ? lead : worker;
      expect(
        (
          await invokeTool(
            who.planning_claim_step,
            { step_id: id, explanation: `claim ${n}` },
            { session },
          )
        ).success,
      ).toBe(true);
      expect(
        (
          await invokeTool(
            who.planning_mark_step,
            { step_id: id, status: 'in_progress', explanation: `start ${n}` },
            { session },
          )
        ).success,
      ).toBe(true);
      messages.push(...turn(n, `worked ${n}`));
      const compacted = await compactChatMessages({
        messages,
        session,
        keep: 2,
        history: 2,
        summarise: () => '',
      });
      messages = JSON.parse(JSON.stringify(compacted.messages));
      const text = contextText(messages);
      expect(fromPlanAnchor(text)).toEqual({ ok: true, value: selectLatest(session, Plan) });
      const shown = text.slice(text.indexOf(RECENT_CHANGES_HEADER));
      expect(shown).toContain(`"claim ${n}"`);
      expect(shown).toContain(`"start ${n}"`);
      if (n > 1) expect(shown).not.toContain(`"start ${n - 1}"`);
    }
    const plan = selectLatest(session, Plan);
    expect(plan?.steps.map((step) => step.owner)).toEqual(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 1 ? 'lead' : 'worker-1')),
    );
    expect(planHistory(session).length).toBeGreaterThan(20);
  });
});
