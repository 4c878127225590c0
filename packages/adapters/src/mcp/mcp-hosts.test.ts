import { Client as ClientV2, InMemoryTransport as InMemoryV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { PauseGoal, registerGoalReducers, SetGoal } from '@plankit/controller/goal';
import {
  createPlanningTools,
  defineDataType,
  defineTool,
  Plan,
  type PlanningExtension,
  type PlanningTools,
  Session,
  selectLatest,
  type TextMode,
} from '@plankit/core';
import { batch, dependencies, history, owners } from '@plankit/core/plan-model';
import { parsePlanView, planView } from '@plankit/core/plan-view';
import { PlanningToolsSection } from '@plankit/prompt';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AdapterError } from '../adapter-error.ts';
import { toolJsonSchema } from '../tool-json-schema.ts';
import * as v1 from './register-mcp-plan-resource.ts';
import * as v1Prompt from './register-mcp-prompt.ts';
import * as v1Tools from './register-mcp-tools.ts';
import * as v2 from './v2/register-mcp-plan-resource.ts';
import * as v2Prompt from './v2/register-mcp-prompt.ts';
import * as v2Tools from './v2/register-mcp-tools.ts';

type CallResult = {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

/** What these tests use of a real MCP client, the same on v1 and v2. */
interface TestClient {
  listTools(): Promise<{
    tools: {
      name: string;
      description?: string;
      inputSchema: unknown;
      outputSchema?: unknown;
      annotations?: unknown;
    }[];
  }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<CallResult>;
  listResources(): Promise<{ resources: { uri: string; name: string; mimeType?: string }[] }>;
  readResource(params: { uri: string }): Promise<{ contents: { uri: string; text: string }[] }>;
  subscribeResource(params: { uri: string }): Promise<unknown>;
  unsubscribeResource(params: { uri: string }): Promise<unknown>;
  listPrompts(): Promise<{ prompts: { name: string; title?: string; description?: string }[] }>;
  getPrompt(params: {
    name: string;
  }): Promise<{ messages: { role: string; content: { type: string; text: string } }[] }>;
  getServerCapabilities(): { resources?: { subscribe?: boolean } } | undefined;
}

interface Wired {
  readonly session: Session;
  readonly tools: PlanningTools;
  readonly client: TestClient;
  /** URIs of `notifications/resources/updated`, with the events seen around them. */
  readonly log: string[];
  readonly server: { isConnected(): boolean; close(): Promise<void> };
  readonly plan: { close(): void } | undefined;
}

interface WireOptions {
  readonly resource?: boolean;
  readonly prompt?: boolean;
  readonly strictCapabilities?: boolean;
  /** The tools' text mode and extensions; ascii and none by default. */
  readonly text?: TextMode;
  readonly extensions?: readonly PlanningExtension[];
}

interface Major {
  readonly name: 'v1' | 'v2';
  wire(options?: WireOptions): Promise<Wired>;
}

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

function fixture(options: WireOptions = {}) {
  const session = new Session({ sessionId: 'mcp', clock: () => 1 });
  const { text = 'ascii', extensions = [] } = options;
  // Typed as the six: the tests that add extensions read only what every tool has.
  const tools = createPlanningTools(session, { text, extensions }) as unknown as PlanningTools;
  return { session, tools };
}

const V1: Major = {
  name: 'v1',
  async wire(options = {}) {
    const { session, tools } = fixture(options);
    const server = new McpServerV1({ name: 'plankit-test', version: '1.0.0' });
    v1Tools.registerMcpTools(server, tools, { session });
    const plan = options.resource ? v1.registerMcpPlanResource(server, { session }) : undefined;
    if (options.prompt) v1Prompt.registerMcpPrompt(server, new PlanningToolsSection({ session }));
    const [serverSide, clientSide] = InMemoryV1.createLinkedPair();
    await server.connect(serverSide);
    const client = new ClientV1(
      { name: 'test-client', version: '1.0.0' },
      { enforceStrictCapabilities: options.strictCapabilities ?? false },
    );
    const log: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      log.push(`updated ${notification.params.uri}`);
    });
    await client.connect(clientSide);
    cleanups.push(async () => {
      await client.close();
      await server.close();
    });
    return { session, tools, client: client as unknown as TestClient, log, server, plan };
  },
};

const V2: Major = {
  name: 'v2',
  async wire(options = {}) {
    const { session, tools } = fixture(options);
    const server = new McpServerV2({ name: 'plankit-test', version: '1.0.0' });
    v2Tools.registerMcpTools(server, tools, { session });
    const plan = options.resource ? v2.registerMcpPlanResource(server, { session }) : undefined;
    if (options.prompt) v2Prompt.registerMcpPrompt(server, new PlanningToolsSection({ session }));
    const [serverSide, clientSide] = InMemoryV2.createLinkedPair();
    await server.connect(serverSide);
    const client = new ClientV2(
      { name: 'test-client', version: '1.0.0' },
      { enforceStrictCapabilities: options.strictCapabilities ?? false },
    );
    const log: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      log.push(`updated ${notification.params.uri}`);
    });
    await client.connect(clientSide);
    cleanups.push(async () => {
      await client.close();
      await server.close();
    });
    return { session, tools, client: client as unknown as TestClient, log, server, plan };
  },
};

const ANNOTATIONS = {
  planning_setup_plan: {
    title: 'Set up the plan',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  planning_add_step: {
    title: 'Add plan steps',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  planning_update_step: {
    title: 'Update a plan step',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  planning_mark_step: {
    title: 'Mark a plan step',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  planning_clear_plan: {
    title: 'Clear the plan',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  planning_read_plan: { title: 'Read the plan', readOnlyHint: true, openWorldHint: false },
};

const withoutDialect = (schema: unknown) => {
  const { $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  return rest;
};

// Lets the notifications already written to the in-memory transport reach the client.
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe.each([V1, V2])(
  'MCP $name: real McpServer and Client over the in-memory transport',
  (major) => {
    // Origin: typescript-sdk test/integration/test/server/mcp.test.ts, "should register tool
    // with annotations".
    it('lists every planning tool with its schema, annotations and output schema', async () => {
      const { client, tools } = await major.wire();
      const { tools: listed } = await client.listTools();
      expect(listed.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
      for (const [index, tool] of listed.entries()) {
        const definition = tools[index] as PlanningTools[number];
        expect(withoutDialect(tool.inputSchema)).toEqual(toolJsonSchema(definition));
        expect(tool.description).toBe(definition.description);
        expect(tool.annotations).toEqual(ANNOTATIONS[definition.name as keyof typeof ANNOTATIONS]);
        expect(tool.outputSchema).toMatchObject({ type: 'object' });
      }
      const read = listed.find((tool) => tool.name === 'planning_read_plan');
      expect(read?.outputSchema).toMatchObject({
        properties: { objective: { type: 'string' }, steps: { type: 'array' } },
        required: ['objective', 'status', 'steps'],
      });
    });

    it('lists the unicode rule in every input and output schema of unicode-mode tools', async () => {
      const descriptions = (schema: unknown): string[] =>
        JSON.stringify(schema).match(/"description":"[^"]*"/g) ?? [];
      const listed = async (options: WireOptions) => (await major.wire(options)).client.listTools();
      const all = [dependencies(), batch(), owners({ agent: 'a' }), history()];
      for (const extensions of [[], all]) {
        const { tools } = await listed({ text: 'unicode', extensions });
        for (const tool of tools) {
          expect(JSON.stringify(tool.inputSchema), tool.name).not.toContain('ASCII');
          expect(JSON.stringify(tool.outputSchema ?? {}), tool.name).not.toContain('ASCII');
        }
      }
      const unicode = await listed({ text: 'unicode' });
      const output = (name: string) =>
        descriptions(unicode.tools.find((tool) => tool.name === name)?.outputSchema);
      expect(output('planning_setup_plan')).toEqual(
        expect.arrayContaining([
          '"description":"What the plan achieves, 1-240 characters."',
          '"description":"Step title, 1-160 characters."',
          '"description":"Optional details, up to 512 characters."',
        ]),
      );
      expect(output('planning_update_step')).toContain(
        '"description":"New details, up to 512 characters."',
      );
      expect(output('planning_mark_step')).toContain(
        '"description":"Optional note, up to 512 characters."',
      );
      // Ascii mode lists the reference copy; the shapes are the same but for those words.
      const ascii = await listed({});
      for (const [index, tool] of ascii.tools.entries()) {
        const words = JSON.stringify(tool.outputSchema).replaceAll(
          'ASCII characters',
          'characters',
        );
        expect(JSON.stringify(unicode.tools[index]?.outputSchema)).toBe(words);
      }
      expect(descriptions(ascii.tools[3]?.outputSchema)).toContain(
        '"description":"Optional note, up to 512 ASCII characters."',
      );
    });

    it('answers unicode-mode calls with structuredContent its listed outputSchema accepts', async () => {
      // The real client checks structuredContent against the listed outputSchema.
      const { client } = await major.wire({ text: 'unicode' });
      await client.listTools();
      const setup = await client.callTool({
        name: 'planning_setup_plan',
        arguments: { objective: '\u8a08\u753b', initial_steps: [{ title: '\u00e9tape' }] },
      });
      expect(setup.structuredContent).toEqual({
        objective: '\u8a08\u753b',
        initial_steps: [{ title: '\u00e9tape', details: null }],
      });
      const mark = await client.callTool({
        name: 'planning_mark_step',
        arguments: { step_id: 'S001', status: 'done', note: 'fini \u2705' },
      });
      expect(mark.isError, mark.content[0]?.text).toBeUndefined();
      expect(mark.structuredContent).toMatchObject({ step_id: 'S001', note: 'fini \u2705' });
    });

    // Origin: typescript-sdk test/integration/test/server/mcp.test.ts, "should support tool with
    // outputSchema and structuredContent" (the real client validates each result against the
    // listed outputSchema, so a mismatch would fail the call).
    it('answers every planning tool with structuredContent: the value of its result', async () => {
      const { client, session } = await major.wire();
      await client.listTools();
      const setup = await client.callTool({
        name: 'planning_setup_plan',
        arguments: { objective: ' Ship v2 ', initial_steps: [{ title: 'Draft' }] },
      });
      expect(setup).toEqual({
        content: [{ type: 'text', text: 'Plan initialised with 1 step.' }],
        structuredContent: {
          objective: 'Ship v2',
          initial_steps: [{ title: 'Draft', details: null }],
        },
      });
      const add = await client.callTool({
        name: 'planning_add_step',
        arguments: { steps: [{ title: 'Review', details: 'with Ana' }] },
      });
      expect(add.structuredContent).toEqual({ steps: [{ title: 'Review', details: 'with Ana' }] });
      const update = await client.callTool({
        name: 'planning_update_step',
        arguments: { step_id: 'S001', title: 'Draft it' },
      });
      expect(update.structuredContent).toEqual({
        step_id: 'S001',
        title: 'Draft it',
        details: null,
      });
      const mark = await client.callTool({
        name: 'planning_mark_step',
        arguments: { step_id: 'S001', status: 'done', note: 'ok' },
      });
      expect(mark.structuredContent).toEqual({ step_id: 'S001', status: 'done', note: 'ok' });
      const read = await client.callTool({ name: 'planning_read_plan', arguments: {} });
      expect(read.structuredContent).toEqual(selectLatest(session, Plan));
      expect(read.content[0]?.text).toContain('Objective: Ship v2');
      const clear = await client.callTool({ name: 'planning_clear_plan' });
      expect(clear).toEqual({
        content: [{ type: 'text', text: 'Plan marked as abandoned.' }],
        structuredContent: {},
      });
      expect(selectLatest(session, Plan)?.status).toBe('abandoned');
    });

    // Origin: typescript-sdk test/integration/test/server/mcp.test.ts, "should skip outputSchema
    // validation when isError is true".
    it('answers a refusal with isError and plankit text, and no structuredContent', async () => {
      const { client, session } = await major.wire();
      await client.listTools();
      await expect(
        client.callTool({
          name: 'planning_mark_step',
          arguments: { step_id: 'S001', status: 'done' },
        }),
      ).resolves.toStrictEqual({
        content: [
          { type: 'text', text: 'Tool validation failed: No plan is currently initialised.' },
        ],
        isError: true,
      });
      expect(selectLatest(session, Plan)).toBeUndefined();
    });

    it('turns malformed arguments into refusals, never protocol errors, and changes nothing', async () => {
      const { client, session } = await major.wire();
      await client.callTool({ name: 'planning_setup_plan', arguments: { objective: 'Keep' } });
      const before = session.snapshot().slices;
      const cases: { name: string; arguments?: Record<string, unknown> }[] = [
        { name: 'planning_setup_plan', arguments: { objective: 5 } },
        { name: 'planning_setup_plan', arguments: { objective: null, initial_steps: 'x' } },
        { name: 'planning_setup_plan' },
        { name: 'planning_setup_plan', arguments: { objective: 'x'.repeat(1_000_000) } },
        { name: 'planning_setup_plan', arguments: { objective: 'caf\u00e9' } },
        { name: 'planning_mark_step', arguments: { step_id: 'S001', status: 'finished' } },
        {
          name: 'planning_mark_step',
          arguments: { step_id: 'S001', status: 'done', colour: 'red' },
        },
        { name: 'planning_add_step', arguments: { steps: [[[[[[[[[[]]]]]]]]]] } },
        {
          name: 'planning_update_step',
          arguments: JSON.parse('{"step_id":"S001","__proto__":{"x":1}}'),
        },
        { name: 'planning_add_step', arguments: { steps: [{ title: Number.NaN }] } },
      ];
      for (const call of cases) {
        const result = await client.callTool(call);
        expect(result.isError, JSON.stringify(call).slice(0, 80)).toBe(true);
        expect(result.content[0]?.text).toMatch(/^Tool validation failed: /);
        expect(result.content[0]?.text.length).toBeLessThan(2_000);
        expect(result.structuredContent).toBeUndefined();
      }
      expect(session.snapshot().slices).toEqual(before);
      expect(({} as { x?: unknown }).x).toBeUndefined();
    });

    // Origin: typescript-sdk test/integration/test/server/mcp.test.ts, "should throw
    // ProtocolError for invalid tool name". v1's McpServer still answers an isError result.
    it('leaves unknown tool names to the SDK', async () => {
      const { client } = await major.wire();
      const call = client.callTool({ name: 'planning_nope', arguments: {} });
      if (major.name === 'v1') {
        const result = await call;
        expect(result.isError).toBe(true);
        expect(result.content[0]?.text).toContain('planning_nope not found');
      } else {
        await expect(call).rejects.toMatchObject({ code: -32602 });
      }
    });

    it('applies concurrent tools/call requests in the order they were sent', async () => {
      const { client, session } = await major.wire();
      const titles = Array.from({ length: 20 }, (_, index) => `Step ${index + 1}`);
      const results = await Promise.all([
        client.callTool({ name: 'planning_setup_plan', arguments: { objective: 'Order' } }),
        ...titles.map((title) =>
          client.callTool({ name: 'planning_add_step', arguments: { steps: [{ title }] } }),
        ),
        client.callTool({
          name: 'planning_mark_step',
          arguments: { step_id: 'S020', status: 'done' },
        }),
      ]);
      expect(results.map((result) => result.isError ?? false)).toEqual(results.map(() => false));
      const plan = selectLatest(session, Plan);
      expect(plan?.steps.map((step) => step.title)).toEqual(titles);
      expect(plan?.steps[19]).toMatchObject({ step_id: 'S020', status: 'done' });
    });

    it('lists the plan as a resource and reads it as JSON, null before setup', async () => {
      const { client, session } = await major.wire({ resource: true });
      expect((await client.listResources()).resources).toEqual([
        expect.objectContaining({
          uri: 'plankit://plan',
          name: 'plan',
          mimeType: 'application/json',
        }),
        expect.objectContaining({
          uri: 'plankit://plan/view',
          name: 'plan-view',
          mimeType: 'application/json',
        }),
      ]);
      const empty = await client.readResource({ uri: 'plankit://plan' });
      expect(empty.contents).toEqual([
        { uri: 'plankit://plan', mimeType: 'application/json', text: 'null' },
      ]);
      await client.callTool({
        name: 'planning_setup_plan',
        arguments: { objective: 'Ship', initial_steps: [{ title: 'Draft' }] },
      });
      const read = await client.readResource({ uri: 'plankit://plan' });
      expect(Plan.parse(JSON.parse(read.contents[0]?.text ?? ''))).toEqual(
        selectLatest(session, Plan),
      );
    });

    it('serves the plan view (the data-plan part of the AI SDK) and notifies its subscribers', async () => {
      const { client, log, session } = await major.wire({ resource: true });
      const view = async () => {
        const read = await client.readResource({ uri: 'plankit://plan/view' });
        expect(read.contents).toEqual([
          expect.objectContaining({ uri: 'plankit://plan/view', mimeType: 'application/json' }),
        ]);
        return JSON.parse(read.contents[0]?.text ?? '') as unknown;
      };
      expect(await view()).toBeNull();
      await client.subscribeResource({ uri: 'plankit://plan/view' });
      await client.callTool({
        name: 'planning_setup_plan',
        arguments: { objective: 'Ship', initial_steps: [{ title: 'Draft' }, { title: 'Ship' }] },
      });
      await client.callTool({
        name: 'planning_mark_step',
        arguments: { step_id: 'S001', status: 'done', note: 'drafted' },
      });
      await settle();
      // Only the view is subscribed: its updates, none for the plan itself.
      expect(log).toEqual(['updated plankit://plan/view', 'updated plankit://plan/view']);
      const read = parsePlanView(await view());
      expect(read).toEqual({ ok: true, value: planView(session) });
      expect(read.ok && read.value.steps[0]).toMatchObject({
        status: 'done',
        last_note: 'drafted',
      });
      await client.subscribeResource({ uri: 'plankit://plan' });
      await client.callTool({ name: 'planning_clear_plan', arguments: {} });
      await settle();
      expect(log.slice(2).sort()).toEqual([
        'updated plankit://plan',
        'updated plankit://plan/view',
      ]);
      await client.unsubscribeResource({ uri: 'plankit://plan/view' });
      await client.callTool({ name: 'planning_setup_plan', arguments: { objective: 'Again' } });
      await settle();
      expect(log.slice(4)).toEqual(['updated plankit://plan']);
    });

    // Origin: typescript-sdk test/e2e/scenarios/resources.test.ts,
    // "resources:subscribe:capability-required", both ways round.
    it('advertises resources.subscribe only with the plan resource', async () => {
      const bare = await major.wire({ strictCapabilities: true });
      expect(bare.client.getServerCapabilities()?.resources?.subscribe).toBeFalsy();
      await expect(bare.client.subscribeResource({ uri: 'plankit://plan' })).rejects.toThrow(
        /does not support.*subscri/i,
      );
      const wired = await major.wire({ resource: true, strictCapabilities: true });
      expect(wired.client.getServerCapabilities()?.resources?.subscribe).toBe(true);
      await expect(wired.client.subscribeResource({ uri: 'plankit://plan' })).resolves.toEqual({});
    });

    // Origin: typescript-sdk test/e2e/scenarios/resources.test.ts, "resources:subscribe:updated".
    it('sends resources/updated to a subscriber when the plan changes, before the call answers', async () => {
      const { client, log, session } = await major.wire({ resource: true });
      await client.subscribeResource({ uri: 'plankit://plan' });
      await client.callTool({ name: 'planning_setup_plan', arguments: { objective: 'Ship' } });
      log.push('answered setup');
      expect(log).toEqual(['updated plankit://plan', 'answered setup']);
      // Refusals and reads leave the plan as it was: no notification.
      await client.callTool({
        name: 'planning_mark_step',
        arguments: { step_id: 'S9', status: 'done' },
      });
      await client.callTool({ name: 'planning_read_plan', arguments: {} });
      await settle();
      expect(log).toHaveLength(2);
      // A rollback changes the plan too.
      const before = session.snapshot();
      await client.callTool({ name: 'planning_clear_plan', arguments: {} });
      session.rollback(before);
      await settle();
      expect(log).toEqual([
        'updated plankit://plan',
        'answered setup',
        'updated plankit://plan',
        'updated plankit://plan',
      ]);
    });

    it('sends resources/updated for the view when the goal it carries changes, not for the plan', async () => {
      const { client, log, session } = await major.wire({ resource: true });
      registerGoalReducers(session);
      await client.subscribeResource({ uri: 'plankit://plan' });
      await client.subscribeResource({ uri: 'plankit://plan/view' });
      // No plan yet: no view to carry the goal, nothing to tell.
      expect(session.dispatch(SetGoal, { objective: 'Ship it' }).ok).toBe(true);
      await settle();
      expect(log).toEqual([]);
      await client.callTool({ name: 'planning_setup_plan', arguments: { objective: 'Ship' } });
      expect(session.dispatch(PauseGoal, { reason: 'Review' }).ok).toBe(true);
      await settle();
      expect(log).toEqual([
        'updated plankit://plan',
        'updated plankit://plan/view',
        'updated plankit://plan/view',
      ]);
      const read = await client.readResource({ uri: 'plankit://plan/view' });
      const view = JSON.parse((read.contents[0] as { text: string }).text);
      expect(view.fields.goal).toMatchObject({ objective: 'Ship it', status: 'paused' });
    });

    // Origin: typescript-sdk test/e2e/scenarios/resources.test.ts,
    // "resources:unsubscribe:stops-updates" (the sentinel is a second, still-subscribed client).
    it('stops sending updates after resources/unsubscribe', async () => {
      const { client, log } = await major.wire({ resource: true });
      await client.subscribeResource({ uri: 'plankit://plan' });
      await client.callTool({ name: 'planning_setup_plan', arguments: { objective: 'One' } });
      expect(log).toEqual(['updated plankit://plan']);
      await client.unsubscribeResource({ uri: 'plankit://plan' });
      await client.callTool({ name: 'planning_setup_plan', arguments: { objective: 'Two' } });
      await settle();
      expect(log).toEqual(['updated plankit://plan']);
    });

    it('ends unsubscribed when an unsubscribe is sent right behind its subscribe, and subscribed the other way round', async () => {
      const { client, log } = await major.wire({ resource: true });
      // Sent without waiting: the server answers the unsubscribe while the subscribe is resolving.
      await Promise.all([
        client.subscribeResource({ uri: 'plankit://plan' }),
        client.unsubscribeResource({ uri: 'plankit://plan' }),
      ]);
      await client.callTool({ name: 'planning_setup_plan', arguments: { objective: 'One' } });
      await settle();
      expect(log).toEqual([]);
      await Promise.all([
        client.unsubscribeResource({ uri: 'plankit://plan/view' }),
        client.subscribeResource({ uri: 'plankit://plan/view' }),
      ]);
      await client.callTool({ name: 'planning_setup_plan', arguments: { objective: 'Two' } });
      await settle();
      expect(log).toEqual(['updated plankit://plan/view']);
    });

    it('refuses a subscription to a resource it does not serve with invalid params', async () => {
      const { client } = await major.wire({ resource: true });
      await expect(client.subscribeResource({ uri: 'plankit://other' })).rejects.toMatchObject({
        code: -32602,
      });
    });

    it('quotes an unknown URI of a subscription clipped, without splitting a surrogate pair', async () => {
      const { client } = await major.wire({ resource: true });
      // 199 code units, then a pair across the 200-unit clip, then a megabyte more.
      const uri = `plankit://${'x'.repeat(189)}\u{1F600}${'y'.repeat(1 << 20)}`;
      const error = await client.subscribeResource({ uri }).then(
        () => undefined,
        (rejected: unknown) => rejected as { code?: unknown; message?: unknown },
      );
      expect(error?.code).toBe(-32602);
      const message = String(error?.message);
      expect(message).toContain(`plankit://${'x'.repeat(189)}...`);
      expect(message.length).toBeLessThan(2_000);
      // With the u flag a pair is one code point, so only a lone surrogate matches.
      expect(/\p{Cs}/u.test(message)).toBe(false);
    });

    it('stops following the session once closed, or when the server closes', async () => {
      const { client, log, session, plan, server } = await major.wire({ resource: true });
      const listeners = () =>
        session.bus.publish({
          type: 'SessionCommitted',
          sessionId: session.sessionId,
          revision: 0,
          changes: [],
          at: 0,
        }).delivered;
      await client.subscribeResource({ uri: 'plankit://plan' });
      expect(listeners()).toBe(1);
      plan?.close();
      plan?.close();
      expect(listeners()).toBe(0);
      await client.callTool({ name: 'planning_setup_plan', arguments: { objective: 'Quiet' } });
      await settle();
      expect(log).toEqual([]);
      const other = await major.wire({ resource: true });
      await server.close();
      await other.server.close();
      expect(
        other.session.bus.publish({
          type: 'SessionCommitted',
          sessionId: other.session.sessionId,
          revision: 0,
          changes: [],
          at: 0,
        }).delivered,
      ).toBe(0);
    });

    // Origin: typescript-sdk test/integration/test/server/mcp.test.ts, "should register
    // zero-argument prompt".
    it('serves the planning section as a prompt', async () => {
      const { client, session } = await major.wire({ prompt: true });
      const { prompts } = await client.listPrompts();
      expect(prompts).toEqual([
        expect.objectContaining({ name: 'planning.tools', title: 'Planning Tools' }),
      ]);
      const prompt = await client.getPrompt({ name: 'planning.tools' });
      expect(prompt.messages).toEqual([
        {
          role: 'user',
          content: { type: 'text', text: new PlanningToolsSection({ session }).render() },
        },
      ]);
      expect(prompt.messages[0]?.content.text).toMatch(/multi-step[\s\S]*Stay brief/);
    });
  },
);

describe('MCP registration checks', () => {
  const { session, tools } = fixture();

  it('refuses what is not an McpServer, a missing session and misspelt tool names', () => {
    const server = new McpServerV1({ name: 'x', version: '1' });
    expect(() => v1Tools.registerMcpTools({} as never, [], { session })).toThrow(AdapterError);
    expect(() => v1Tools.registerMcpTools(server, tools, {} as never)).toThrow(/session/);
    expect(() =>
      v1Tools.registerMcpTools(server, tools, { session, annotations: { planning_nope: {} } }),
    ).toThrow(/annotations\.planning_nope names no tool/);
    expect(() =>
      v1Tools.registerMcpTools(server, tools, {
        session,
        outputSchemas: { planning_read_plan: {} as never },
      }),
    ).toThrow(/zod schema or null/);
    expect(() => v1Tools.registerMcpTools(server, tools, { session, extra: 1 } as never)).toThrow(
      /options\.extra is not an option/,
    );
    expect(() =>
      v2Prompt.registerMcpPrompt(new McpServerV2({ name: 'x', version: '1' }), {} as never),
    ).toThrow(AdapterError);
  });

  it('refuses to add the plan resource after connect or over a host subscription handler', async () => {
    const server = new McpServerV2({ name: 'x', version: '1' });
    const [serverSide] = InMemoryV2.createLinkedPair();
    await server.connect(serverSide);
    expect(() => v2.registerMcpPlanResource(server, { session })).toThrow(/before server\.connect/);
    await server.close();
    const claimed = new McpServerV2({ name: 'x', version: '1' });
    claimed.server.registerCapabilities({ resources: { subscribe: true } });
    claimed.server.setRequestHandler('resources/subscribe', () => ({}));
    expect(() => v2.registerMcpPlanResource(claimed, { session })).toThrow(/already exists/);
    expect(() =>
      v1.registerMcpPlanResource(new McpServerV1({ name: 'x', version: '1' }), {
        session,
        uri: 'not a uri',
      }),
    ).toThrow(/absolute URI/);
    expect(() =>
      v1.registerMcpPlanResource(new McpServerV1({ name: 'x', version: '1' }), {
        session,
        viewUri: 'plankit://plan',
      }),
    ).toThrow('registerMcpPlanResource: options.viewUri must differ from options.uri.');
  });

  it('takes annotations and output schemas for other tools, and defaults readOnlyHint', async () => {
    const Echo = z.strictObject({ text: z.string() });
    const echo = defineTool({
      name: 'echo',
      description: 'Repeat the text back.',
      parameters: Echo,
      handler: ({ text }) => ({ message: text, value: { text } }),
    });
    const count = defineTool({
      name: 'count',
      description: 'Count a word.',
      parameters: z.strictObject({ word: z.string() }),
      resultType: defineDataType('test.Word', z.string()),
      handler: ({ word }) => ({ message: word, value: word }),
    });
    const server = new McpServerV1({ name: 'x', version: '1' });
    v1Tools.registerMcpTools(server, [echo, count], {
      session,
      annotations: { echo: { title: 'Echo' } },
      outputSchemas: { echo: Echo },
    });
    const [serverSide, clientSide] = InMemoryV1.createLinkedPair();
    await server.connect(serverSide);
    const client = new ClientV1({ name: 'c', version: '1' });
    await client.connect(clientSide);
    cleanups.push(async () => {
      await client.close();
      await server.close();
    });
    const { tools: listed } = await client.listTools();
    expect(listed[0]?.annotations).toEqual({ readOnlyHint: true, title: 'Echo' });
    expect(listed[0]?.outputSchema).toMatchObject({ type: 'object', required: ['text'] });
    // A string result is no JSON object: no outputSchema, text only.
    expect(listed[1]?.annotations).toBeUndefined();
    expect(listed[1]?.outputSchema).toBeUndefined();
    expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toEqual({
      content: [{ type: 'text', text: 'hi\n\n{"text":"hi"}' }],
      structuredContent: { text: 'hi' },
    });
  });
});
