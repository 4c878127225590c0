import { createSessionPool } from '@plankit/adapters/sessions';
import { MemoryStore } from '@plankit/adapters/stores';
import { createPlanningTools, invokeTool } from '@plankit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { GenAIAttributes, PlankitAttributes } from './semantic-conventions.ts';
import { recordTraces, type TraceRecorder } from './testing/trace-recorder.ts';

let recorder: TraceRecorder | undefined;
afterEach(async () => {
  await recorder?.stop();
  recorder = undefined;
});

const CONVERSATIONS = 48;
const SLOTS = 4;

/** A tick of the event loop, so runs of different conversations interleave. */
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('instrumentPlankit under pressure', () => {
  it('gives every call of many conversations, through a pool far smaller than them, its own span with its own change', async () => {
    recorder = recordTraces();
    const pool = createSessionPool({ store: new MemoryStore(), max: SLOTS });
    // Each conversation: set up two steps, start the first, a refusal, finish the first. Every
    // call runs in its own turn of the pool, so sessions are evicted and reloaded between them.
    const script = [
      {
        tool: 'planning_setup_plan',
        args: (id: string) => ({
          objective: `Plan ${id}`,
          initial_steps: [{ title: `${id} one` }, { title: `${id} two` }],
        }),
      },
      { tool: 'planning_mark_step', args: () => ({ step_id: 'S001', status: 'in_progress' }) },
      { tool: 'planning_mark_step', args: () => ({ step_id: 'S404', status: 'done' }) },
      { tool: 'planning_mark_step', args: () => ({ step_id: 'S001', status: 'done' }) },
    ] as const;
    const expected = new Map<string, (number | undefined)[]>();
    const outcomes = await Promise.all(
      Array.from({ length: CONVERSATIONS }, async (_, n) => {
        const id = `chat-${n}`;
        const codes: string[] = [];
        const revisions: (number | undefined)[] = [];
        for (const [index, step] of script.entries()) {
          const ran = await pool.run(id, async (session) => {
            await tick();
            const tools = createPlanningTools(session);
            const result = await invokeTool(tools[step.tool], step.args(id), {
              session,
              conversationId: id,
              callId: `${id}/${index}`,
            });
            // The revision the call's change made, which its span must carry.
            return { result, revision: result.success ? session.snapshot().revision : undefined };
          });
          if (!ran.ok) throw ran.error;
          const { result, revision } = ran.value;
          codes.push(result.success ? 'ok' : result.error.code);
          revisions.push(revision);
        }
        expected.set(id, revisions);
        return codes;
      }),
    );
    await pool.close();
    for (const codes of outcomes) expect(codes).toEqual(['ok', 'ok', 'step_unknown', 'ok']);

    const spans = recorder.spans();
    expect(spans).toHaveLength(CONVERSATIONS * script.length);
    for (let n = 0; n < CONVERSATIONS; n++) {
      const id = `chat-${n}`;
      const mine = spans
        .filter((span) => span.attributes[GenAIAttributes.CONVERSATION_ID] === id)
        .sort((a, b) =>
          String(a.attributes[GenAIAttributes.TOOL_CALL_ID]).localeCompare(
            String(b.attributes[GenAIAttributes.TOOL_CALL_ID]),
          ),
        );
      // Each call's span holds that call's ids and that call's change, nobody else's.
      expect(mine.map((span) => span.attributes[GenAIAttributes.TOOL_CALL_ID])).toEqual([
        `${id}/0`,
        `${id}/1`,
        `${id}/2`,
        `${id}/3`,
      ]);
      expect(mine.map((span) => span.attributes[PlankitAttributes.PLAN_REVISION])).toEqual(
        expected.get(id),
      );
      expect(mine.map((span) => span.attributes[PlankitAttributes.STEP_STATUS])).toEqual([
        ['pending', 'pending'],
        ['in_progress'],
        undefined,
        ['done'],
      ]);
      expect(mine.map((span) => span.attributes[GenAIAttributes.ERROR_TYPE])).toEqual([
        undefined,
        undefined,
        'step_unknown',
        undefined,
      ]);
      expect(mine[3]?.attributes[`${PlankitAttributes.PLAN_COUNTS_PREFIX}done`]).toBe(1);
    }
  });
});
