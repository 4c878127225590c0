import type { ToolMessage } from '@langchain/core/messages';
import { type AnyTool, createPlanningTools, Session, type TextMode } from '@plankit/core';
import { batch, dependencies, history, owners } from '@plankit/core/plan-model';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AISDKToolError } from './ai-sdk/ai-sdk-tool-error.ts';
import { toAISDKTools } from './ai-sdk/to-ai-sdk-tools.ts';
import { createAnthropicToolset } from './anthropic/create-anthropic-toolset.ts';
import { toLangChainTools } from './langchain/to-langchain-tools.ts';
import { createOpenAIToolset } from './openai/create-openai-toolset.ts';

// The same model output gets the same verdict, in the same words, on every host: whether the
// host hands over the arguments as JSON text (OpenAI) or as the value it parsed (Anthropic,
// the AI SDK, LangChain). Strict hosts read a null for an optional field as absent and others
// do not, so hosts are compared with the same strictness. Each text mode's tools are compared
// across hosts: a plan in any language gets the same verdict everywhere too.

/** What the model reads for one call, and whether the plan changed. */
interface Verdict {
  readonly text: string;
  readonly changed: boolean;
}

type Host = (
  tools: readonly AnyTool[],
  session: Session,
  name: string,
  text: string,
) => Promise<string>;

const parse = (text: string): unknown => JSON.parse(text);

/** `build`, run once per list of tools: a toolset converts every schema when it is built. */
function perTools<T>(build: (tools: readonly AnyTool[]) => T): (tools: readonly AnyTool[]) => T {
  const built = new WeakMap<readonly AnyTool[], T>();
  return (tools) => {
    let value = built.get(tools);
    if (value === undefined) {
      value = build(tools);
      built.set(tools, value);
    }
    return value;
  };
}

const openAIChat = (strict: boolean): Host => {
  const toolset = perTools((tools) => createOpenAIToolset(tools, { strict }));
  return async (tools, session, name, text) => {
    const [record] = await toolset(tools).runChatToolCalls(
      [{ id: 'c1', type: 'function', function: { name, arguments: text } }],
      { session },
    );
    return String(record?.message.content);
  };
};
const responsesToolset = perTools((tools) => createOpenAIToolset(tools, { strict: true }));
const anthropicToolset = perTools((tools) => createAnthropicToolset(tools, { strict: true }));

const strictHosts: Record<string, Host> = {
  'openai chat': openAIChat(true),
  'openai responses': async (tools, session, name, text) => {
    const [record] = await responsesToolset(tools).runResponsesFunctionCalls(
      [{ type: 'function_call', call_id: 'c1', name, arguments: text }],
      { session },
    );
    return String(record?.message.output);
  },
  anthropic: async (tools, session, name, text) => {
    const [record] = await anthropicToolset(tools).runToolUses(
      [{ type: 'tool_use', id: 't1', name, input: parse(text) }],
      { session },
    );
    return String(record?.block.content);
  },
  'ai-sdk': async (tools, session, name, text) => {
    const tool = toAISDKTools(tools, { session, strict: true })[name];
    if (tool === undefined) throw new Error(`no tool ${name}`);
    try {
      const output = await tool.execute(parse(text), { toolCallId: 'a1', messages: [] });
      return tool.toModelOutput({ output }).value;
    } catch (error) {
      if (AISDKToolError.isInstance(error)) return error.message;
      throw error;
    }
  },
};

const looseHosts: Record<string, Host> = {
  'openai chat (strict: false)': openAIChat(false),
  langchain: async (tools, session, name, text) => {
    const tool = toLangChainTools(tools, { session }).find((candidate) => candidate.name === name);
    const message = (await tool?.invoke({
      id: 'l1',
      name,
      args: parse(text) as Record<string, unknown>,
      type: 'tool_call',
    })) as ToolMessage;
    return String(message.content);
  },
};

const PLAN_SETUP = {
  objective: 'Ship',
  initial_steps: [{ title: 'Build' }, { title: 'Test', depends_on: ['S001'] }],
  explanation: 'start',
};

// The tools of the whole plan model in each text mode, and the toolset that sets the plan up,
// built once: tools take the session from each call, and register their reducers on it, so
// every run still starts from a fresh session.
const TOOLS: Readonly<Record<TextMode, readonly AnyTool[]>> = {
  ascii: createPlanningTools(new Session(), {
    text: 'ascii',
    extensions: [dependencies(), batch(), history(), owners({ agent: 'lead' })],
  }),
  unicode: createPlanningTools(new Session(), {
    text: 'unicode',
    extensions: [dependencies(), batch(), history(), owners({ agent: 'lead' })],
  }),
};
const SETUP_TOOLSET = {
  ascii: createOpenAIToolset(TOOLS.ascii),
  unicode: createOpenAIToolset(TOOLS.unicode),
};

/** A fresh session with a two-step plan, and the tools of the whole plan model in `text` mode. */
async function planned(text: TextMode): Promise<{ session: Session; tools: readonly AnyTool[] }> {
  const session = new Session({ sessionId: 'verdict', clock: () => 1_700_000_000_000 });
  await SETUP_TOOLSET[text].runChatToolCalls(
    [
      {
        id: 's',
        type: 'function',
        function: { name: 'planning_setup_plan', arguments: JSON.stringify(PLAN_SETUP) },
      },
    ],
    { session },
  );
  return { session, tools: TOOLS[text] };
}

async function verdicts(hosts: Record<string, Host>, name: string, text: string, mode: TextMode) {
  const out: Record<string, Verdict> = {};
  for (const [host, run] of Object.entries(hosts)) {
    const { session, tools } = await planned(mode);
    const before = session.snapshot();
    const answer = await run(tools, session, name, text);
    out[host] = { text: answer, changed: session.snapshot() !== before };
  }
  return out;
}

const NAMES = TOOLS.ascii.map((tool) => tool.name);

const hostileText = fc.constantFrom(
  '',
  ' ',
  'a\nb',
  '\u0000',
  '\ud800',
  '__proto__',
  'S001',
  'S001 ',
  's001',
  'S0001',
  'S9007199254740991',
  'done',
  'in_progress',
  'x'.repeat(600),
  '翻訳を確認する',
  'Ship v2 🚀',
  'Cafe\u0301 menu',
  'abc\u202Etxt',
  'tag\u{E0041}',
  '\u200B',
  '日'.repeat(161),
);
const value: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  fc.constant(null),
  fc.integer(),
  fc.constant([]),
  fc.array(hostileText, { maxLength: 3 }),
  fc.array(fc.record({ title: hostileText }, { requiredKeys: [] }), { maxLength: 2 }),
  fc.array(
    fc.record({
      op: fc.constantFrom('mark', 'note', 'add'),
      step_id: hostileText,
      note: hostileText,
    }),
    { maxLength: 2 },
  ),
);
const keys = fc.constantFrom(
  'objective',
  'initial_steps',
  'steps',
  'step_id',
  'status',
  'note',
  'title',
  'details',
  'depends_on',
  'operations',
  'explanation',
  '__proto__',
  'constructor',
);
/** Arguments as the model writes them: JSON text of an object, or of something else. */
const argumentsText: fc.Arbitrary<string> = fc.oneof(
  fc
    .array(fc.tuple(keys, value), { maxLength: 5 })
    .map(
      (entries) =>
        `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`,
    ),
  value.map((v) => JSON.stringify(v)),
);

describe('one verdict per input, whichever host carries it (properties)', () => {
  for (const [label, hosts] of [
    ['strict hosts', strictHosts],
    ['non-strict hosts', looseHosts],
  ] as const) {
    it(`${label}: the same arguments get the same answer and the same change`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...NAMES),
          argumentsText,
          fc.constantFrom<TextMode>('ascii', 'unicode'),
          async (name, text, mode) => {
            const found = await verdicts(hosts, name, text, mode);
            const [first, ...rest] = Object.entries(found);
            for (const [host, verdict] of rest)
              expect(
                verdict,
                `${host} vs ${first?.[0]} (${mode}): ${name} ${text.slice(0, 120)}`,
              ).toEqual(first?.[1]);
            expect(first?.[1].text.length).toBeLessThan(2_000);
          },
        ),
        { numRuns: 150 },
      );
    }, 120_000);
  }
});
