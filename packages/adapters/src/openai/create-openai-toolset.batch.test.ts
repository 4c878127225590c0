import { createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAnthropicToolset } from '../anthropic/create-anthropic-toolset.ts';
import { createOpenAIToolset } from './create-openai-toolset.ts';

// A bad entry in a host batch must not throw after earlier calls applied.
const junk = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.integer(),
  fc.string({ maxLength: 8 }),
  fc.constant([]),
  fc.constant({}),
  fc.constant({ id: 'x', type: 'function' }),
  fc.constant({ id: 'x', type: 'function', function: null }),
  fc.constant({ id: 'x', type: 'function', function: { name: 42, arguments: '{}' } }),
  fc.constant({ id: 'x', type: 'function', function: { name: '', arguments: '{}' } }),
  fc.constant({ id: 7, type: 'function', function: { name: 'planning_read_plan', arguments: 1 } }),
  fc.constant({
    id: 'x',
    type: 'function',
    function: { name: 'planning_read_plan', arguments: '{"a"' },
  }),
  fc.constant({ id: 'x', type: 'function', function: { name: 'planning_nuke', arguments: '{}' } }),
  fc.constant({ id: 'x', type: 'custom', custom: { name: 'planning_read_plan', input: '' } }),
  fc.constant({
    id: 'x',
    type: 'mystery',
    function: { name: 'planning_read_plan', arguments: '{}' },
  }),
  fc.anything({ maxDepth: 2 }),
);

interface Valid {
  readonly kind: 'valid';
  readonly title: string;
}
const valid = fc
  .stringMatching(/^[A-Za-z]{1,10}$/)
  .map((title): Valid => ({ kind: 'valid', title }));

const setup = (title: string) =>
  JSON.stringify({
    objective: `Goal ${title}`,
    initial_steps: [{ title: 'Draft', details: null }],
  });

describe('a bad host batch never rejects halfway', () => {
  it('runChatToolCalls: one record per entry, in order, valid calls applied in order (missing type read as function)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(junk, valid), { maxLength: 12 }), async (entries) => {
        const session = new Session({ clock: () => 1 });
        const toolset = createOpenAIToolset(createPlanningTools(session));
        const calls = entries.map((entry, index) =>
          typeof entry === 'object' && entry !== null && (entry as Valid).kind === 'valid'
            ? {
                id: `call_${index}`,
                // Every other valid call omits `type`, as some OpenAI-compatible servers do.
                ...(index % 2 === 0 ? { type: 'function' } : {}),
                function: { name: 'planning_setup_plan', arguments: setup((entry as Valid).title) },
              }
            : entry,
        );
        const records = await toolset.runChatToolCalls(calls as never, { session });
        expect(records).toHaveLength(entries.length);
        records.forEach((record, index) => {
          const entry = entries[index];
          const isValid =
            typeof entry === 'object' && entry !== null && (entry as Valid).kind === 'valid';
          if (isValid) {
            expect(record.result.success).toBe(true);
            expect(record.callId).toBe(`call_${index}`);
          } else
            expect(record.message.content).toMatch(
              /^Tool (validation|'.*') failed: |^Retrieved|^No plan/,
            );
          expect(record.message.role).toBe('tool');
          expect(String(record.message.content).length).toBeLessThan(2_000);
        });
        const last = entries
          .filter((entry): entry is Valid => (entry as Valid)?.kind === 'valid')
          .at(-1);
        expect(selectLatest(session, Plan)?.objective).toBe(
          last === undefined ? undefined : `Goal ${last.title}`,
        );
      }),
      { numRuns: 150 },
    );
  });

  it('runResponsesFunctionCalls and runToolUses: one record per call entry, in order, never throwing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(junk, valid), { maxLength: 12 }), async (entries) => {
        const session = new Session({ clock: () => 1 });
        const tools = createPlanningTools(session);
        const responses = entries.map((entry, index) =>
          (entry as Valid)?.kind === 'valid'
            ? {
                type: 'function_call',
                call_id: `c${index}`,
                name: 'planning_setup_plan',
                arguments: setup((entry as Valid).title),
              }
            : {
                type: 'function_call',
                call_id: index,
                name: (entry as { name?: unknown })?.name,
                arguments: entry,
              },
        );
        const records = await createOpenAIToolset(tools).runResponsesFunctionCalls(responses, {
          session,
        });
        expect(records.map((record) => record.result.success)).toEqual(
          entries.map((entry) => (entry as Valid)?.kind === 'valid'),
        );
        const blocks = entries.map((entry, index) =>
          (entry as Valid)?.kind === 'valid'
            ? {
                type: 'tool_use',
                id: `t${index}`,
                name: 'planning_setup_plan',
                input: JSON.parse(setup((entry as Valid).title)),
              }
            : {
                type: 'tool_use',
                id: index,
                name: (entry as { name?: unknown })?.name,
                input: entry,
              },
        );
        const uses = await createAnthropicToolset(tools).runToolUses(blocks, { session });
        expect(uses.map((use) => use.block.is_error === true)).toEqual(
          entries.map((entry) => (entry as Valid)?.kind !== 'valid'),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('names what is wrong with each malformed entry, and keeps earlier records', async () => {
    const session = new Session({ clock: () => 1 });
    const toolset = createOpenAIToolset(createPlanningTools(session));
    const records = await toolset.runChatToolCalls(
      [
        {
          id: 'a',
          type: 'function',
          function: { name: 'planning_setup_plan', arguments: setup('A') },
        },
        null,
        { id: 'b' },
        {
          id: 'c',
          function: {
            name: 'planning_mark_step',
            arguments: '{"step_id":"S001","status":"done","note":null}',
          },
        },
        { id: 'd', type: 'custom', custom: { name: 'planning_read_plan', input: '' } },
        { id: 'e', type: 'function', function: { name: 'planning_read_plan', arguments: '{"x":' } },
      ] as never,
      { session },
    );
    expect(
      records.map((record) => [
        record.callId,
        record.result.success,
        record.result.success ? undefined : record.result.error.code,
      ]),
    ).toEqual([
      ['a', true, undefined],
      ['', false, 'arguments_malformed'],
      ['b', false, 'arguments_malformed'],
      ['c', true, undefined],
      ['d', false, 'tool_unknown'],
      ['e', false, 'arguments_malformed'],
    ]);
    expect(records[1]?.message.content).toBe(
      'Tool validation failed: Tool call 1 is not an object.',
    );
    expect(records[2]?.message.content).toBe(
      'Tool validation failed: Tool call 2 has no function name.',
    );
    const escaped = await toolset.runChatToolCalls(
      [
        { id: 'f', type: 'custom', custom: { name: 'x\ny', input: '' } },
        { id: 'g', type: 'x\u001b[2J', function: { name: 'planning_read_plan' } },
      ] as never,
      { session },
    );
    expect(escaped.map((record) => record.message.content)).toEqual([
      "Tool validation failed: Unknown tool 'x\\ny': tool call 0 is a custom tool call; plankit tools take function calls.",
      "Tool validation failed: Tool call 1 has the type 'x\\u001b[2J'; only 'function' calls run.",
    ]);
    expect(await toolset.runChatToolCalls('junk' as never, { session })).toEqual([]);
  });
});
