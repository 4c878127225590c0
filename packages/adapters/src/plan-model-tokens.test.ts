import { type AnyTool, createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';
import { batch, dependencies, history, owners } from '@plankit/core/plan-model';
import { describe, expect, it } from 'vitest';
import { createOpenAIToolset } from './openai/create-openai-toolset.ts';
import { definitionTokens } from './testing/definition-tokens.ts';

// The plan-model options pay for their tokens: the budgets the token-economy bench reports,
// held here so a copy edit that breaks one fails a test. Counted as the bench counts: o200k
// tokens of the definitions (name, description, JSON Schema) as one JSON array.

const batchTool = (tools: readonly AnyTool[]): AnyTool[] =>
  tools.filter((tool) => tool.name === 'planning_apply_batch');

describe('plan-model tool definitions within their token budgets', () => {
  it('planning_apply_batch costs at most 200 tokens, with history too', () => {
    expect(
      definitionTokens(batchTool(createPlanningTools(new Session(), { extensions: [batch()] }))),
    ).toBeLessThanOrEqual(200);
    const explained = createPlanningTools(new Session(), { extensions: [batch(), history()] });
    expect(definitionTokens(batchTool(explained))).toBeLessThanOrEqual(200);
  });

  it('all nine tools with every option on cost at most 1,000 tokens', () => {
    const tools = createPlanningTools(new Session(), {
      extensions: [dependencies(), batch(), owners({ agent: 'worker-1' }), history()],
    });
    expect(tools.length).toBe(9);
    expect(definitionTokens(tools)).toBeLessThanOrEqual(1_000);
  });

  it('a strict host sends every batch field, null where unused; the batch reads null as absent', async () => {
    const session = new Session({ clock: () => 1 });
    const tools = createPlanningTools(session, { extensions: [dependencies(), batch()] });
    const toolset = createOpenAIToolset(tools);
    const advertised = toolset.chatTools.find((t) => t.function.name === 'planning_apply_batch');
    expect(advertised?.function.strict).toBe(true);
    const unused = {
      step_id: null,
      status: null,
      note: null,
      objective: null,
      title: null,
      details: null,
      depends_on: null,
    };
    const operations = [
      { ...unused, op: 'setup', objective: 'Ship v2' },
      { ...unused, op: 'add', title: 'Draft' },
      { ...unused, op: 'add', title: 'Review', depends_on: ['S001'] },
      { ...unused, op: 'mark', step_id: 'S001', status: 'in_progress' },
    ];
    const [reply] = await toolset.runChatToolCalls(
      [
        {
          id: 'c1',
          type: 'function',
          function: { name: 'planning_apply_batch', arguments: JSON.stringify({ operations }) },
        },
      ],
      { session },
    );
    expect(reply?.message.content).toBe(
      'Applied 4 operations: new plan set up; added S001, S002; S001 marked as in_progress.',
    );
    expect(selectLatest(session, Plan)?.steps.map((s) => [s.status, s.depends_on])).toEqual([
      ['in_progress', []],
      ['pending', ['S001']],
    ]);
  });
});
