import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSessionPool } from '@plankit/adapters/sessions';
import { MemoryStore } from '@plankit/adapters/stores';
import { registerPlanModelReducers } from '@plankit/core/plan-model';
import { parsePlanView } from '@plankit/core/plan-view';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPlanUiServer } from './plan-ui-server.ts';
import { LATER_REPLY, RELEASE_NOTES_RUN } from './script.ts';
import { scriptedModel } from './scripted-model.ts';

describe('the plan UI server', () => {
  /** The status of a GET of `path` exactly as written. */
  const rawStatus = (path: string): Promise<number | undefined> =>
    new Promise((resolve, reject) => {
      const { port } = server.address() as AddressInfo;
      request({ host: '127.0.0.1', port, path }, (response) => {
        response.resume();
        resolve(response.statusCode);
      })
        .on('error', reject)
        .end();
    });

  let folder: string;
  let server: Server;
  let base: string;
  const pool = createSessionPool({ store: new MemoryStore(), setup: registerPlanModelReducers });

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'plankit-plan-ui-server-'));
    await mkdir(join(folder, 'client', 'assets'), { recursive: true });
    await writeFile(join(folder, 'client', 'index.html'), '<!doctype html><title>page</title>');
    await writeFile(join(folder, 'client', 'assets', 'app.js'), 'export {};');
    await writeFile(join(folder, 'secret.js'), 'export const secret = true;');
    server = createPlanUiServer({
      pool,
      clientDirectory: join(folder, 'client'),
      modelFor: (chatId) =>
        chatId === 'broken-model'
          ? new MockLanguageModelV3({
              doStream: async () => {
                throw new Error('provider said: invalid key sk-secret');
              },
            })
          : scriptedModel(RELEASE_NOTES_RUN, LATER_REPLY),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await pool.close();
    await rm(folder, { recursive: true, force: true });
  });

  const chat = (body: string): Promise<Response> =>
    fetch(`${base}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });

  it('streams the run with the plan as one data-plan part id, and keeps the plan for GET', async () => {
    const response = await chat(
      JSON.stringify({
        id: 'server-test',
        messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Go.' }] }],
      }),
    );
    expect(response.status).toBe(200);
    const events = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map(
        (line) =>
          JSON.parse(line.slice('data: '.length)) as { type: string; id?: string; data?: unknown },
      );
    const plans = events.filter((event) => event.type === 'data-plan');
    expect(new Set(plans.map((event) => event.id))).toEqual(new Set(['plankit-plan']));
    const statuses = plans.map((event) => {
      const parsed = parsePlanView(event.data);
      if (!parsed.ok) throw new Error(parsed.error.message);
      return parsed.value.steps.map((step) => step.status).join(' ');
    });
    expect(statuses.at(-1)).toBe('done done blocked pending');
    // The refusal reaches the page as the model read it.
    const refused = events.filter((event) => event.type === 'tool-output-error');
    expect(refused.map((event) => (event as { errorText?: string }).errorText)).toEqual([
      'Tool validation failed: Step S004 depends on S003, which is not done; mark it done first.',
    ]);

    const stored = (await (await fetch(`${base}/api/chats/server-test/plan`)).json()) as {
      plan: unknown;
    };
    const plan = parsePlanView(stored.plan);
    expect(plan.ok && plan.value.counts).toEqual({
      total: 4,
      done: 2,
      in_progress: 0,
      pending: 1,
      blocked: 1,
    });
  });

  it("shows a tool's refusal, but keeps any other error in the server's log", async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const response = await chat(
        JSON.stringify({
          id: 'broken-model',
          messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Go.' }] }],
        }),
      );
      const text = await response.text();
      expect(text).toContain('The server could not finish this reply.');
      expect(text).not.toContain('sk-secret');
      expect(String(logged.mock.calls[0]?.[0])).toContain('sk-secret');
    } finally {
      logged.mockRestore();
    }
  });

  it('answers a conversation without a plan with null', async () => {
    const response = await fetch(`${base}/api/chats/nothing-yet/plan`);
    expect(await response.json()).toEqual({ plan: null });
  });

  it('refuses bad requests with 400 and never crashes', async () => {
    expect((await chat('{not json')).status).toBe(400);
    expect((await chat(JSON.stringify({ id: '../x', messages: [] }))).status).toBe(400);
    expect((await chat(JSON.stringify({ id: 'ok', messages: [{ role: 'robot' }] }))).status).toBe(
      400,
    );
    expect((await fetch(`${base}/api/chats/${encodeURIComponent('a b')}/plan`)).status).toBe(400);
    expect((await fetch(`${base}/api/chats/%E0%A4%A/plan`)).status).toBe(400);
    expect((await fetch(`${base}/api/nothing`)).status).toBe(404);
    expect((await fetch(`${base}/api/chat`)).status).toBe(404);
  });

  it('serves the built page and nothing outside it', async () => {
    expect(await (await fetch(`${base}/`)).text()).toContain('<title>page</title>');
    const script = await fetch(`${base}/assets/app.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    // Sent as written (fetch would resolve the dots first): an encoded slash decodes to `../`.
    for (const path of ['/%2e%2e%2fsecret.js', '/assets/..%2f..%2fsecret.js', '/..%5csecret.js'])
      expect(await rawStatus(path)).toBe(404);
  });
});
