import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAIToolset } from '@plankit/adapters/openai';
import { createSessionPool } from '@plankit/adapters/sessions';
import { MemoryStore } from '@plankit/adapters/stores';
import { createPlanningTools, Plan, renderPlan, Session, selectLatest } from '@plankit/core';
import { dependencies, history, registerPlanModelReducers } from '@plankit/core/plan-model';
import { parsePlanView, planView } from '@plankit/core/plan-view';
import { latestPlan, PlanChecklist, type PlanMessagePart } from '@plankit/react';
import { Window } from 'happy-dom';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlanUiServer } from './plan-ui-server.ts';
import { JAPANESE_RUN, LATER_REPLY } from './script.ts';
import { scriptedModel } from './scripted-model.ts';

// A Japanese-and-emoji plan set up through a real host (the AI SDK's streamText, with the
// planning tools in Unicode mode) shows the same titles everywhere it is read: the session's
// plan and its text, the plan view streamed as a data-plan part and read by latestPlan, the
// plan view read back from the store, and the DOM PlanChecklist renders.

/** The titles the script sets, as the tools store them (NFC). */
function scriptedTitles(): { objective: string; titles: string[] } {
  const [setup] = JAPANESE_RUN;
  const input = (setup as readonly { input: object }[])[0]?.input as {
    objective: string;
    initial_steps: { title: string }[];
  };
  return {
    objective: input.objective.normalize('NFC'),
    titles: input.initial_steps.map((step) => step.title.normalize('NFC')),
  };
}

describe('a Japanese plan through the AI SDK', () => {
  let folder: string;
  let server: Server;
  let base: string;
  const pool = createSessionPool({ store: new MemoryStore(), setup: registerPlanModelReducers });

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'plankit-plan-ui-unicode-'));
    server = createPlanUiServer({
      pool,
      clientDirectory: folder,
      text: 'unicode',
      modelFor: () => scriptedModel(JAPANESE_RUN, LATER_REPLY),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await pool.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('shows the titles as set in the plan, the plan view, the store and the checklist', async () => {
    const { objective, titles } = scriptedTitles();
    // The combining accent the script typed is stored precomposed.
    expect(titles[2]).toBe('法務の承認を得る（Caf\u00e9 で打ち合わせ）');
    expect(titles[2]).not.toBe(
      (JAPANESE_RUN[0] as readonly { input: { initial_steps: { title: string }[] } }[])[0]?.input
        .initial_steps[2]?.title,
    );

    const response = await fetch(`${base}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: 'unicode-test',
        messages: [
          {
            id: 'u1',
            role: 'user',
            parts: [{ type: 'text', text: '2.0 のリリースノートを公開してください 🙏' }],
          },
        ],
      }),
    });
    expect(response.status).toBe(200);
    const events = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice('data: '.length)) as PlanMessagePart & { type: string });
    expect(events.filter((event) => event.type === 'tool-output-error')).toHaveLength(1);

    // The client's reading: the data-plan parts of the assistant's message, newest valid one.
    const parts = events.filter((event) => event.type === 'data-plan');
    const { plan, warnings } = latestPlan([{ id: 'a1', role: 'assistant', parts }]);
    expect(warnings).toEqual([]);
    expect(plan?.objective).toBe(objective);
    expect(plan?.steps.map((step) => step.title)).toEqual(titles);
    expect(plan?.steps.map((step) => step.status)).toEqual(['done', 'done', 'blocked', 'pending']);

    // The session's plan and its text, and the view read back from the store.
    const session = await pool.get('unicode-test');
    if (!session.ok) throw session.error;
    const stored = selectLatest(session.value, Plan);
    expect(stored?.steps.map((step) => step.title)).toEqual(titles);
    const text = renderPlan(stored as Plan);
    for (const title of titles) expect(text).toContain(title);
    const body = (await (await fetch(`${base}/api/chats/unicode-test/plan`)).json()) as {
      plan: unknown;
    };
    const fromStore = parsePlanView(body.plan);
    expect(fromStore.ok && fromStore.value).toEqual(plan);

    // The checklist's DOM: the same titles, character for character.
    const window = new Window();
    try {
      window.document.body.innerHTML = renderToStaticMarkup(<PlanChecklist plan={plan ?? null} />);
      const document = window.document;
      expect(document.querySelector('h2')?.textContent).toBe(objective);
      expect(
        [...document.querySelectorAll('.plankit-step__title')].map((title) => title.textContent),
      ).toEqual(titles);
      expect(
        [...document.querySelectorAll('.plankit-step__note')].map((note) => note.textContent),
      ).toEqual([
        '1.9 以降にマージされたプルリクエストは 42 件',
        '下書きは docs/release-2.0.ja.md に 📄',
        '法務は月曜まで不在 🏖️',
      ]);
      expect(
        document.querySelector('[data-step-id="S004"] .plankit-step__waiting')?.textContent,
      ).toBe(`Waiting on S003 (\u2068${titles[2]}\u2069)`);
    } finally {
      await window.happyDOM.close();
    }
  });
});

// The same plan set up through OpenAI Chat's tool calls (the OpenAI toolset, Unicode mode):
// the plan view of the session and the checklist it renders show the titles as set.
describe('a Japanese plan through OpenAI Chat', () => {
  it('shows the titles as set in the plan view and the checklist', async () => {
    const { objective, titles } = scriptedTitles();
    const [setup] = JAPANESE_RUN;
    const input = (setup as readonly { input: object }[])[0]?.input;
    const session = new Session({ sessionId: 'openai-unicode', clock: () => 1_700_000_000_000 });
    // The example's own tools: the plan model's dependencies and history, in Unicode mode.
    const toolset = createOpenAIToolset(
      createPlanningTools(session, { extensions: [dependencies(), history()], text: 'unicode' }),
    );
    const replies = await toolset.runChatToolCalls(
      [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'planning_setup_plan', arguments: JSON.stringify(input) },
        },
      ],
      { session },
    );
    expect(replies).toHaveLength(1);
    const view = planView(session);
    expect(view?.objective).toBe(objective);
    expect(view?.steps.map((step) => step.title)).toEqual(titles);

    const window = new Window();
    try {
      window.document.body.innerHTML = renderToStaticMarkup(<PlanChecklist plan={view ?? null} />);
      const document = window.document;
      expect(document.querySelector('h2')?.textContent).toBe(objective);
      expect(
        [...document.querySelectorAll('.plankit-step__title')].map((title) => title.textContent),
      ).toEqual(titles);
    } finally {
      await window.happyDOM.close();
    }
  });
});
