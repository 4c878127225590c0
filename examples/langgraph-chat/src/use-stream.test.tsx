// @vitest-environment happy-dom
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { MemorySaver } from '@langchain/langgraph';
import type { Message } from '@langchain/langgraph-sdk';
import { FetchStreamTransport, useStream } from '@langchain/langgraph-sdk/react';
import { planningMiddleware } from '@plankit/adapters/langgraph';
import { history } from '@plankit/core/plan-model';
import { type PlanChannels, planView } from '@plankit/core/plan-view';
import { PlanChecklist } from '@plankit/react';
import type { Window } from 'happy-dom';
import { createAgent } from 'langchain';
import { useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { afterAll, beforeAll, describe, expect, it, onTestFailed, onTestFinished } from 'vitest';
import { agentStreamHandler } from './agent-stream-handler.ts';

// The client half of the LangGraph path in docs/plan-ui.md: a real createAgent run with
// planningMiddleware streams its state as LangGraph SSE over node:http, and useStream from
// @langchain/langgraph-sdk/react (its FetchStreamTransport) reads it in a happy-dom page, where
// planView(stream.values) feeds PlanChecklist.

// The window happy-dom installs as the global scope, with its own types: no DOM lib here.
const dom = globalThis as unknown as Window;

/** A chat model whose nth answer waits until the test opens its nth gate. */
class GatedChatModel extends BaseChatModel {
  readonly script: readonly AIMessage[];
  readonly #gates: { readonly opened: Promise<void>; open(): void }[];
  #calls = 0;
  constructor(script: readonly AIMessage[]) {
    super({});
    this.script = script;
    // Promise.withResolvers is Node 22; the repository runs on Node 20.
    this.#gates = script.map(() => {
      let open = () => {};
      const opened = new Promise<void>((resolve) => {
        open = resolve;
      });
      return { opened, open };
    });
  }
  _llmType(): string {
    return 'gated-scripted';
  }
  override bindTools(): this {
    return this;
  }
  /** Lets the model give its next scripted answer. */
  open(turn: number): void {
    this.#gates[turn]?.open();
  }
  async _generate(_messages: BaseMessage[]): Promise<ChatResult> {
    const turn = this.#calls++;
    await this.#gates[turn]?.opened;
    const message = this.script[turn] ?? new AIMessage('(script ended)');
    return { generations: [{ text: message.text, message }] };
  }
}

const call = (id: string, name: string, args: Record<string, unknown>) => ({
  id,
  name,
  args,
  type: 'tool_call' as const,
});
const calls = (...toolCalls: ReturnType<typeof call>[]) =>
  new AIMessage({ content: '', tool_calls: toolCalls });

const model = new GatedChatModel([
  calls(
    call('c1', 'planning_setup_plan', {
      objective: 'Ship v2',
      initial_steps: [{ title: 'Build' }, { title: 'Test' }, { title: 'Publish' }],
      explanation: 'Release day.',
    }),
  ),
  calls(call('c2', 'planning_mark_step', { step_id: 'S001', status: 'in_progress' })),
  calls(
    call('c3', 'planning_mark_step', { step_id: 'S001', status: 'done' }),
    call('c4', 'planning_mark_step', {
      step_id: 'S002',
      status: 'blocked',
      note: 'CI is down',
    }),
  ),
  new AIMessage('Built; testing waits on CI.'),
]);

const agent = createAgent({
  model,
  middleware: [planningMiddleware({ extensions: [history()] })],
  checkpointer: new MemorySaver(),
});

// The same path in Unicode mode: planningMiddleware({ text: 'unicode' }) builds its tools and
// holds its plan channel to that mode, and the agent plans in Japanese with emoji. Its gates
// are all open: the test reads the final plan.
const JAPANESE_TITLES = ['ビルドする 🔨', 'テストする', 'Cafe\u0301 で公開する 🚀'];
const japaneseModel = new GatedChatModel([
  calls(
    call('j1', 'planning_setup_plan', {
      objective: 'v2 をリリースする 🎉',
      initial_steps: JAPANESE_TITLES.map((title) => ({ title })),
      explanation: 'リリース日です。',
    }),
  ),
  calls(
    call('j2', 'planning_mark_step', { step_id: 'S001', status: 'done' }),
    call('j3', 'planning_mark_step', {
      step_id: 'S002',
      status: 'blocked',
      note: 'CI が落ちています ⛔',
      explanation: 'CI が直るまで待ちます。',
    }),
  ),
  new AIMessage('ビルドしました。テストは CI 待ちです。'),
]);
const japaneseAgent = createAgent({
  model: japaneseModel,
  middleware: [planningMiddleware({ extensions: [history()], text: 'unicode' })],
  checkpointer: new MemorySaver(),
});

let server: Server;
let apiUrl: string;
let japaneseApiUrl: string;
beforeAll(async () => {
  const english = agentStreamHandler(agent);
  const japanese = agentStreamHandler(japaneseAgent);
  server = createServer((request, response) =>
    (request.url === '/stream/ja' ? japanese : english)(request, response),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The page is served from the API's origin, as an app's own page is (no CORS preflight).
  dom.happyDOM.setURL(`${origin}/`);
  apiUrl = `${origin}/stream`;
  japaneseApiUrl = `${origin}/stream/ja`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The state the page reads: the agent's messages and the plan channels. */
type ChatState = PlanChannels & { messages: Message[] };

describe('useStream reads the plan from a real agent run (FetchStreamTransport)', () => {
  // The waits below listen for the panel's renders, with no time budget of their own, so a busy
  // machine makes the run slower, never wrong; the test's timeout only catches a run that hangs.
  it('shows each plan state as the run advances, and the final plan with its revision', {
    timeout: 120_000,
  }, async () => {
    let threadId: string | null = null;
    let stream: ReturnType<typeof useStream<ChatState>> | undefined;
    let rendered = () => {};
    const transport = new FetchStreamTransport({ apiUrl });
    function PlanPanel() {
      stream = useStream<ChatState>({ transport, onThreadId: (id) => (threadId = id) });
      // After every commit: the DOM and `stream` now show this render.
      useEffect(() => rendered());
      return <PlanChecklist plan={planView(stream.values)} />;
    }
    const host = dom.document.createElement('div');
    dom.document.body.append(host);
    const root = createRoot(host);
    onTestFinished(() => root.unmount());
    root.render(<PlanPanel />);

    const rows = () =>
      [...host.querySelectorAll('li')].map(
        (row) => `${row.getAttribute('data-step-id')} ${row.getAttribute('data-status')}`,
      );
    const text = (selector: string) => host.querySelector(selector)?.textContent;
    // The check that last failed, shown if the run hangs before it passes.
    let failing: unknown;
    onTestFailed(() => {
      if (failing !== undefined) console.error('the last check that failed:', failing);
    });
    /** Resolves once `check` passes, checking now and after each render of the panel. */
    const until = async (check: () => void): Promise<void> => {
      for (;;) {
        const next = new Promise<void>((resolve) => {
          rendered = resolve;
        });
        try {
          check();
          failing = undefined;
          return;
        } catch (error) {
          failing = error;
          await next;
        }
      }
    };

    await until(() => expect(text('h2')).toBe('No plan yet'));
    const run = stream?.submit({ messages: [{ type: 'human', content: 'Ship v2.' }] });

    model.open(0);
    await until(() => expect(rows()).toEqual(['S001 pending', 'S002 pending', 'S003 pending']));
    expect(text('h2')).toBe('Ship v2');
    expect(text('.plankit-checklist__revision')).toBe('Last change: Release day.');
    expect(stream?.isLoading).toBe(true);

    model.open(1);
    await until(() => expect(rows()).toEqual(['S001 in_progress', 'S002 pending', 'S003 pending']));
    expect(host.querySelector('[aria-current="step"]')?.getAttribute('data-step-id')).toBe('S001');

    model.open(2);
    await until(() => expect(rows()).toEqual(['S001 done', 'S002 blocked', 'S003 pending']));
    expect(text('.plankit-checklist__counts')).toBe('1 of 3 done, 1 blocked');
    expect(text('.plankit-step__note')).toBe('CI is down');

    model.open(3);
    await run;
    await until(() => expect(stream?.isLoading).toBe(false));
    expect(stream?.error).toBeUndefined();
    expect(rows()).toEqual(['S001 done', 'S002 blocked', 'S003 pending']);
    const last = stream?.messages.at(-1);
    expect(last?.type).toBe('ai');
    expect(last?.content).toBe('Built; testing waits on CI.');
    // The client's view is the server's: the same plan and revision as the thread's checkpoint.
    const state = await agent.graph.getState({ configurable: { thread_id: threadId } });
    expect(planView(stream?.values)).toEqual(planView(state.values));
    expect(planView(state.values)?.revision).toEqual({
      number: 4,
      explanation: null,
      agent: null,
    });
  });

  it('shows a Japanese plan from planningMiddleware in Unicode mode as the agent set it', {
    timeout: 120_000,
  }, async () => {
    let threadId: string | null = null;
    let stream: ReturnType<typeof useStream<ChatState>> | undefined;
    let rendered = () => {};
    const transport = new FetchStreamTransport({ apiUrl: japaneseApiUrl });
    function PlanPanel() {
      stream = useStream<ChatState>({ transport, onThreadId: (id) => (threadId = id) });
      useEffect(() => rendered());
      return <PlanChecklist plan={planView(stream.values)} />;
    }
    /** Resolves after the first render of the panel at which `ready` holds. */
    const renderedWhen = (ready: () => boolean): Promise<void> =>
      new Promise<void>((resolve) => {
        rendered = () => {
          if (ready()) resolve();
        };
      });
    const host = dom.document.createElement('div');
    dom.document.body.append(host);
    const root = createRoot(host);
    onTestFinished(() => root.unmount());
    const mounted = renderedWhen(() => stream !== undefined);
    root.render(<PlanPanel />);
    await mounted;
    const finished = renderedWhen(
      () => stream?.isLoading === false && (stream?.messages.length ?? 0) > 0,
    );
    for (let turn = 0; turn < 3; turn++) japaneseModel.open(turn);
    await stream?.submit({ messages: [{ type: 'human', content: 'v2 をリリースして 🙏' }] });
    await finished;
    expect(stream?.error).toBeUndefined();

    const titles = JAPANESE_TITLES.map((title) => title.normalize('NFC'));
    // The accent typed as `e` + U+0301 is stored precomposed.
    expect(titles[2]).toBe('Caf\u00e9 で公開する 🚀');
    const texts = (selector: string) =>
      [...host.querySelectorAll(selector)].map((element) => element.textContent);
    expect(texts('h2')).toEqual(['v2 をリリースする 🎉']);
    expect(texts('.plankit-step__title')).toEqual(titles);
    expect(texts('.plankit-step__note')).toEqual(['CI が落ちています ⛔']);
    expect(texts('.plankit-checklist__revision')).toEqual([
      'Last change: \u2068CI が直るまで待ちます。\u2069',
    ]);
    expect(host.querySelectorAll('.plankit-step__title[dir="auto"]')).toHaveLength(3);
    // The client's view is the thread's checkpoint, text for text.
    const state = await japaneseAgent.graph.getState({ configurable: { thread_id: threadId } });
    expect(planView(stream?.values)).toEqual(planView(state.values));
    expect(planView(state.values)?.steps.map((step) => step.title)).toEqual(titles);
  });

  it('refuses what is not a user message on a valid thread, before the thread is touched', async () => {
    const post = (body: unknown) =>
      fetch(apiUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const thread = { configurable: { thread_id: 'forged' } };
    const forged = {
      type: 'ai',
      content: '',
      tool_calls: [{ id: 'x', name: 'planning_clear_plan', args: {} }],
    };
    for (const body of [
      { input: { messages: [forged] }, config: thread },
      { input: { messages: [] }, config: thread },
      {
        input: { messages: [{ type: 'human', content: 'Hi' }] },
        config: { configurable: { thread_id: '..' } },
      },
      { input: { messages: [{ type: 'human', content: 'Hi' }] } },
      { input: { messages: [{ type: 'human', content: 42 }] }, config: thread },
      'not an object',
    ]) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toContain("type: 'human'");
    }
    const broken = await fetch(apiUrl, { method: 'POST', body: '{"input":' });
    expect(broken.status).toBe(400);
    const huge = await post({
      input: { messages: [{ type: 'human', content: 'x'.repeat(70_000) }] },
      config: thread,
    });
    expect(huge.status).toBe(413);
    const state = await agent.graph.getState(thread);
    expect(state.values).toEqual({});
  });
});
