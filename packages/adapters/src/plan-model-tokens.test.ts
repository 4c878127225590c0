import { type AnyTool, createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';
import { batch, dependencies, history, owners } from '@plankit/core/plan-model';
import { asSchema } from 'ai';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { toAISDKTools } from './ai-sdk/to-ai-sdk-tools.ts';
import { createAnthropicToolset } from './anthropic/create-anthropic-toolset.ts';
import { createOpenAIToolset } from './openai/create-openai-toolset.ts';
import { toOpenAIAgentsTools } from './openai-agents/to-openai-agents-tools.ts';
import { definitionTokens, type SchemaOf, strictSchemaOf } from './testing/definition-tokens.ts';

// The plan-model options pay for their tokens: the budgets the token-economy bench reports,
// held here so a copy edit that breaks one fails a test. Counted as the bench counts: o200k
// tokens of the definitions (name, description, JSON Schema) as one JSON array, with the
// schema each host sends: the tool's own (LangChain, MCP, a tool that is not strict), or its
// strict form (OpenAI, Anthropic, the AI SDK and the OpenAI Agents SDK, for the planning
// tools, which are strict by default). Strict mode makes every field required and the optional
// ones nullable, so the strict form costs more, and has budgets of its own.

const batchTool = (tools: readonly AnyTool[]): AnyTool[] =>
  tools.filter((tool) => tool.name === 'planning_apply_batch');

const everyOption = () =>
  createPlanningTools(new Session(), {
    extensions: [dependencies(), batch(), owners({ agent: 'worker-1' }), history()],
  });

// The schema each strict host sends for each tool, read from the host's own definitions.
const STRICT_HOSTS: Readonly<Record<string, (tools: readonly AnyTool[]) => SchemaOf>> = {
  'OpenAI Chat Completions': (tools) => {
    const sent = createOpenAIToolset(tools).chatTools;
    return (tool) => sent.find((entry) => entry.function.name === tool.name)?.function.parameters;
  },
  'OpenAI Responses': (tools) => {
    const sent = createOpenAIToolset(tools).responsesTools;
    return (tool) => sent.find((entry) => entry.name === tool.name)?.parameters;
  },
  Anthropic: (tools) => {
    const sent = createAnthropicToolset(tools).tools;
    return (tool) => sent.find((entry) => entry.name === tool.name)?.input_schema;
  },
  'Vercel AI SDK': (tools) => {
    const sent = toAISDKTools(tools, { session: new Session() });
    return (tool) => {
      const inputSchema = sent[tool.name]?.inputSchema;
      return inputSchema === undefined ? undefined : asSchema(inputSchema).jsonSchema;
    };
  },
  'OpenAI Agents SDK': (tools) => {
    const sent = toOpenAIAgentsTools(tools, { session: new Session() });
    return (tool) => sent.find((entry) => entry.name === tool.name)?.parameters;
  },
};

describe('plan-model tool definitions within their token budgets', () => {
  it('planning_apply_batch costs at most 200 tokens, with history too', () => {
    expect(
      definitionTokens(batchTool(createPlanningTools(new Session(), { extensions: [batch()] }))),
    ).toBeLessThanOrEqual(200);
    const explained = createPlanningTools(new Session(), { extensions: [batch(), history()] });
    expect(definitionTokens(batchTool(explained))).toBeLessThanOrEqual(200);
  });

  it('all nine tools with every option on cost at most 1,000 tokens', () => {
    const tools = everyOption();
    expect(tools.length).toBe(9);
    expect(definitionTokens(tools)).toBeLessThanOrEqual(1_000);
  });

  it('every strict host sends the strict form: the batch tool at most 290 tokens, all nine 1,350', () => {
    const alone = createPlanningTools(new Session(), { extensions: [batch()] });
    const explained = createPlanningTools(new Session(), { extensions: [batch(), history()] });
    const all = everyOption();
    for (const [host, sent] of Object.entries(STRICT_HOSTS)) {
      for (const tools of [alone, explained, all]) {
        const schemaOf = sent(tools);
        for (const tool of tools)
          expect(schemaOf(tool), `${host}: ${tool.name}`).toEqual(strictSchemaOf(tool));
      }
    }
    expect(definitionTokens(batchTool(alone), strictSchemaOf)).toBeLessThanOrEqual(290);
    expect(definitionTokens(batchTool(explained), strictSchemaOf)).toBeLessThanOrEqual(290);
    expect(definitionTokens(all, strictSchemaOf)).toBeLessThanOrEqual(1_350);
  });

  it('costs what docs/plan-model.md says, own and strict, and Chat Completions adds its wrapper', () => {
    const batchWith = (extensions: Parameters<typeof createPlanningTools>[1]) =>
      batchTool(createPlanningTools(new Session(), extensions));
    const rows: [string, readonly AnyTool[]][] = [
      ['the six', createPlanningTools(new Session())],
      ['batch alone', batchWith({ extensions: [batch()] })],
      ['batch with history', batchWith({ extensions: [batch(), history()] })],
      [
        'batch with every option',
        batchWith({
          extensions: [dependencies(), batch(), owners({ agent: 'worker-1' }), history()],
        }),
      ],
      ['all nine', everyOption()],
    ];
    expect(
      rows.map(([name, tools]) => [
        name,
        definitionTokens(tools),
        definitionTokens(tools, strictSchemaOf),
      ]),
    ).toEqual([
      ['the six', 541, 555],
      ['batch alone', 192, 260],
      ['batch with history', 200, 281],
      ['batch with every option', 220, 314],
      ['all nine', 956, 1_335],
    ]);
    // `type: 'function'`, `function: {...}` and `strict: true` around each definition.
    const chat = (tools: readonly AnyTool[]) =>
      countTokens(JSON.stringify(createOpenAIToolset(tools).chatTools));
    expect([chat(rows[1]?.[1] ?? []), chat(everyOption())]).toEqual([270, 1_425]);
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
