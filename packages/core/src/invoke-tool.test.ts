import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import * as z from 'zod';
import { append } from './append.ts';
import { defineDataType } from './define-data-type.ts';
import { defineTool } from './define-tool.ts';
import { resetDiagnostics } from './diagnostics/diagnostics-channel.ts';
import { PLAN_CHANNEL, TOOL_CALL_CHANNEL } from './diagnostics/diagnostics-channels.ts';
import type {
  DiagnosticsEvent,
  ToolCallEnded,
  ToolCallStarted,
} from './diagnostics/diagnostics-event.ts';
import { InProcessEventBus } from './in-process-event-bus.ts';
import { invokeTool } from './invoke-tool.ts';
import { PlankitError } from './plankit-error.ts';
import type { ToolInvoked } from './plankit-event.ts';
import { createPlanningTools } from './planning/create-planning-tools.ts';
import { selectAll } from './select-all.ts';
import { Session } from './session.ts';
import { ToolCall } from './tool-call.ts';
import { MAX_TOOL_ISSUES, ToolValidationError } from './tool-validation-error.ts';

const Item = defineDataType(
  'test.Item',
  z.strictObject({ name: z.string(), tags: z.array(z.string()) }),
);

const addItem = defineTool({
  name: 'add_item',
  description: 'Add an item.',
  parameters: z.strictObject({ name: z.string(), tags: z.array(z.string()).default([]) }),
  resultType: Item,
  handler: async (params) => {
    if (params.name === 'bad')
      throw new ToolValidationError('Name is bad.', { code: 'text_empty', field: 'name' });
    if (params.name === 'crash') throw new Error('disk on fire');
    return { message: `Added ${params.name}.`, value: params };
  },
});

function setup() {
  const bus = new InProcessEventBus();
  const events: ToolInvoked[] = [];
  bus.subscribe('ToolInvoked', (event) => events.push(event));
  const session = new Session({ bus, sessionId: 's', clock: () => 100 });
  session.register(Item, append);
  return { session, events };
}

describe('invokeTool', () => {
  it('parses, runs, publishes and reduces a successful call', async () => {
    const { session, events } = setup();
    const result = await invokeTool(addItem, { name: 'pen' }, { session, now: 7 });
    expect(result).toEqual({
      success: true,
      message: 'Added pen.',
      value: { name: 'pen', tags: [] },
    });
    expect(Object.isFrozen(result)).toBe(true);
    expect(selectAll(session, Item)).toEqual([{ name: 'pen', tags: [] }]);
    expect(events).toEqual([
      {
        type: 'ToolInvoked',
        sessionId: 's',
        tool: 'add_item',
        params: { name: 'pen', tags: [] },
        result,
        resultType: 'test.Item',
        at: 7,
      },
    ]);
    expect(selectAll(session, ToolCall)).toEqual([
      {
        tool: 'add_item',
        params: { name: 'pen', tags: [] },
        result: { success: true, message: 'Added pen.', value: { name: 'pen', tags: [] } },
        at: 7,
      },
    ]);
  });

  it('reports every schema problem with its path in one message, and changes nothing', async () => {
    const { session, events } = setup();
    const before = session.snapshot();
    const result = await invokeTool(
      addItem,
      { name: 5, tags: ['a', 7], colour: 'red' },
      { session },
    );
    expect(result.success).toBe(false);
    expect(result.message).toBe(
      'Tool validation failed: name: Invalid input: expected string, received number; tags[1]: Invalid input: expected string, received number; Unrecognized key: "colour"',
    );
    if (result.success) return;
    expect(result.error).toMatchObject({ code: 'schema', field: 'name' });
    expect((result.error as ToolValidationError).issues).toHaveLength(3);
    expect(session.snapshot()).toBe(before);
    expect(events).toHaveLength(1);
    expect(events[0]?.params).toEqual({ name: 5, tags: ['a', 7], colour: 'red' });
  });

  it('never throws for hostile arguments', async () => {
    const { session } = setup();
    const before = session.snapshot();
    const hostile: unknown[] = [
      undefined,
      null,
      'a string',
      42,
      [],
      JSON.parse('{"name":"x","__proto__":{"polluted":true}}'),
      { name: 'x', constructor: { prototype: { polluted: true } } },
      { name: 'x'.repeat(1_000_000), tags: [] },
      { name: 'x', [`k${'y'.repeat(1_000_000)}`]: 1 },
    ];
    for (const args of hostile) {
      const result = await invokeTool(addItem, args, { session });
      expect(result.message.length).toBeLessThan(1_000_100);
      if (result.success) continue;
      expect(result.message).toMatch(/^Tool validation failed: /);
    }
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    const long = await invokeTool(
      addItem,
      { name: 'x', [`k${'y'.repeat(1_000_000)}`]: 1 },
      { session },
    );
    expect(long.message.length).toBeLessThan(300);
    expect(selectAll(session, Item).map((item) => item.name.length)).toEqual([1_000_000]);
    expect(session.snapshot().revision).toBe(before.revision + 1);
  });

  it('names an unknown key itself as the field of its refusal, at any depth', async () => {
    const { session } = setup();
    const nested = defineTool({
      name: 'nested',
      description: 'Take an item.',
      parameters: z.strictObject({ item: z.strictObject({ name: z.string() }) }),
      handler: (params) => ({ message: 'ok', value: params }),
    });
    const fields = [];
    for (const [tool, args] of [
      [addItem, { name: 'x', colour: 'red' }],
      [addItem, JSON.parse('{"name":"x","__proto__":{"polluted":true}}')],
      [nested, { item: { name: 'x', size: 1, colour: 'red' } }],
    ] as const) {
      const result = await invokeTool(tool, args, { session });
      fields.push(!result.success && [result.error.code, result.error.field, result.message]);
    }
    expect(fields).toEqual([
      ['schema', 'colour', 'Tool validation failed: Unrecognized key: "colour"'],
      ['schema', '__proto__', 'Tool validation failed: Unrecognized key: "__proto__"'],
      ['schema', 'item.size', 'Tool validation failed: item: Unrecognized keys: "size", "colour"'],
    ]);
    expect(session.snapshot().revision).toBe(0);
  });

  it('turns a ToolValidationError from the handler into a validation failure', async () => {
    const { session } = setup();
    const result = await invokeTool(addItem, { name: 'bad' }, { session });
    expect(result).toMatchObject({
      success: false,
      message: 'Tool validation failed: Name is bad.',
      value: null,
    });
    expect(!result.success && result.error.field).toBe('name');
    expect(session.snapshot().revision).toBe(0);
  });

  it('turns any other error into an execution failure', async () => {
    const { session } = setup();
    const result = await invokeTool(addItem, { name: 'crash' }, { session });
    expect(result).toMatchObject({
      success: false,
      message: "Tool 'add_item' execution failed: disk on fire",
    });
    expect(!result.success && result.error.code).toBe('tool_execution_failed');
    const odd = defineTool({ ...addItem, resultType: null, handler: () => 'nope' as never });
    expect((await invokeTool(odd, { name: 'x' }, { session })).message).toBe(
      "Tool 'add_item' execution failed: the handler must return { message, value }",
    );
  });

  it('turns a schema that throws on the input (a transform, a refinement) into a failed result, not a throw', async () => {
    const { session, events } = setup();
    const before = session.snapshot();
    const tool = (name: string, parameters: z.ZodType) =>
      defineTool({
        name,
        description: 'Read the data.',
        parameters,
        handler: (params) => ({ message: 'read', value: params }),
      });
    const json = tool(
      'read_json',
      z.strictObject({ data: z.string().transform((text) => JSON.parse(text) as unknown) }),
    );
    const refined = tool(
      'read_refined',
      z.strictObject({
        name: z.string().refine((name) => {
          if (name === 'x')
            throw new ToolValidationError('Name x is taken.', {
              code: 'name_taken',
              field: 'name',
            });
          return true;
        }),
      }),
    );
    const failed = await invokeTool(json, { data: '{not json' }, { session });
    expect(failed.success).toBe(false);
    expect(failed.message).toMatch(/^Tool 'read_json' execution failed: .*JSON/);
    expect(!failed.success && failed.error.code).toBe('tool_execution_failed');
    const refused = await invokeTool(refined, { name: 'x' }, { session });
    expect(refused.message).toBe('Tool validation failed: Name x is taken.');
    expect(!refused.success && refused.error).toMatchObject({ code: 'name_taken', field: 'name' });
    expect(session.snapshot()).toBe(before);
    expect(events.map((event) => event.result.success)).toEqual([false, false]);
  });

  it('fails the call, not the host, when a recursive schema meets input nested 10,000 deep', async () => {
    const { session } = setup();
    type Node = { readonly child?: Node | undefined };
    const NodeSchema: z.ZodType<Node> = z.lazy(() =>
      z.strictObject({ child: NodeSchema.optional() }),
    );
    const tree = defineTool({
      name: 'tree',
      description: 'Take a tree.',
      parameters: z.strictObject({ root: NodeSchema }),
      handler: (params) => ({ message: 'ok', value: params }),
    });
    let root: Node = {};
    for (let i = 0; i < 10_000; i++) root = { child: root };
    const before = session.snapshot();
    const result = await invokeTool(tree, { root }, { session });
    expect(result.success).toBe(false);
    expect(result.message.length).toBeLessThan(2_000);
    expect(session.snapshot()).toBe(before);
  });

  it('parses with a schema that has an asynchronous refinement', async () => {
    const { session } = setup();
    const checked = defineTool({
      name: 'checked',
      description: 'Check a name.',
      parameters: z.strictObject({ name: z.string().refine(async (name) => name !== 'taken') }),
      resultType: Item,
      handler: ({ name }) => ({ message: `Added ${name}.`, value: { name, tags: [] } }),
    });
    const added = await invokeTool(checked, { name: 'pen' }, { session });
    expect(added).toMatchObject({ success: true, message: 'Added pen.' });
    const taken = await invokeTool(checked, { name: 'taken' }, { session });
    expect(taken.message).toBe('Tool validation failed: name: Invalid input');
    expect(selectAll(session, Item).map((item) => item.name)).toEqual(['pen']);
  });

  it('fails the call and keeps the session when a reducer refuses the result', async () => {
    const { session } = setup();
    session.register(Item, (slice, { value }) => {
      if (value.name === 'veto') throw new ToolValidationError('Vetoed.', { code: 'text_empty' });
      if (value.name === 'boom') throw new Error('reducer broke');
      return slice;
    });
    const before = session.snapshot();
    expect((await invokeTool(addItem, { name: 'veto' }, { session })).message).toBe(
      'Tool validation failed: Vetoed.',
    );
    expect((await invokeTool(addItem, { name: 'boom' }, { session })).message).toBe(
      "Tool 'add_item' execution failed: Reducer for test.Item into slice test.Item failed: reducer broke",
    );
    expect(session.snapshot()).toBe(before);
  });

  it('ignores the failure of an unrelated subscriber', async () => {
    const { session } = setup();
    session.bus.subscribe('ToolInvoked', () => {
      throw new Error('logger down');
    });
    expect((await invokeTool(addItem, { name: 'pen' }, { session })).success).toBe(true);
  });

  it('uses the session clock when no time is given', async () => {
    const { session } = setup();
    await invokeTool(addItem, { name: 'pen' }, { session });
    expect(selectAll(session, ToolCall)[0]?.at).toBe(100);
  });

  it('applies results only to the session they were invoked with, on a shared bus', async () => {
    const bus = new InProcessEventBus();
    const a = new Session({ bus, sessionId: 'a' });
    const b = new Session({ bus, sessionId: 'b' });
    a.register(Item, append);
    b.register(Item, append);
    await invokeTool(addItem, { name: 'pen' }, { session: a });
    expect(selectAll(a, Item)).toHaveLength(1);
    expect(selectAll(b, Item)).toHaveLength(0);
  });

  it('throws only for programmer errors', async () => {
    const { session } = setup();
    await expect(invokeTool(addItem, {}, {} as never)).rejects.toThrow(PlankitError);
    await expect(invokeTool({} as never, {}, { session })).rejects.toThrow(/tool must be a tool/);
    await expect(invokeTool(addItem, {}, { session, now: Number.NaN })).rejects.toThrow(
      /options.now/,
    );
    const spy = vi.fn();
    session.bus.subscribe('ToolInvoked', spy);
    await invokeTool(addItem, { name: 'x' }, { session });
    expect(spy).toHaveBeenCalledOnce();
  });

  it('caps the refusal text under 2,000 characters, listing the first issues then "and N more"', async () => {
    const { session } = setup();
    const before = session.snapshot();
    const many = defineTool({
      name: 'many',
      description: 'Takes many items.',
      parameters: z.strictObject({ items: z.array(z.strictObject({ name: z.string() })) }),
      handler: () => ({ message: 'ok', value: null }),
    });
    const items = Array.from({ length: 100_000 }, () => ({ name: 1 }));
    const result = await invokeTool(many, { items }, { session });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.message.length).toBeLessThan(2_000);
    expect(result.message).toMatch(/^Tool validation failed: items\[0\]\.name: Invalid input/);
    expect(result.message).toMatch(/; and \d+ more$/);
    const error = result.error as ToolValidationError;
    // The host-side result stays small too: the first 100 issues, and the count.
    expect(error.issues).toHaveLength(MAX_TOOL_ISSUES);
    expect(error.issues[0]).toEqual({ path: 'items[0].name', message: expect.any(String) });
    expect(error.issueCount).toBe(100_000);
    expect(JSON.stringify({ ...result, issues: error.issues }).length).toBeLessThan(20_000);
    const listed = result.message.split('; ').length - 1;
    expect(result.message.endsWith(`and ${100_000 - listed} more`)).toBe(true);
    expect(result.error.message.length).toBeLessThan(2_000);
    expect(session.snapshot()).toBe(before);

    // Every issue only on request; the model's message is the same either way.
    const all = await invokeTool(many, { items }, { session, maxIssues: Number.POSITIVE_INFINITY });
    if (all.success) throw new Error('expected a refusal');
    expect((all.error as ToolValidationError).issues).toHaveLength(100_000);
    expect((all.error as ToolValidationError).issues[99_999]?.path).toBe('items[99999].name');
    expect(all.message).toBe(result.message);
    const few = await invokeTool(many, { items }, { session, maxIssues: 3 });
    if (few.success) throw new Error('expected a refusal');
    expect((few.error as ToolValidationError).issues).toHaveLength(3);
    expect(few.message).toBe(result.message);
    await expect(invokeTool(many, { items }, { session, maxIssues: -1 })).rejects.toThrow(
      /options\.maxIssues/,
    );
  });

  it('caps handler and reducer refusals under 2,000 characters too', async () => {
    const { session } = setup();
    const loud = defineTool({
      name: 'loud',
      description: 'Refuses loudly.',
      parameters: z.strictObject({ how: z.enum(['validation', 'crash', 'reducer']) }),
      resultType: Item,
      handler: ({ how }) => {
        if (how === 'validation')
          throw new ToolValidationError('v'.repeat(1_000_000), { code: 'schema' });
        if (how === 'crash') throw new Error('c'.repeat(1_000_000));
        return { message: 'ok', value: { name: 'boom', tags: [] } };
      },
    });
    session.register(Item, (slice, { value }) => {
      if (value.name === 'boom') throw new Error('r'.repeat(1_000_000));
      return slice;
    });
    for (const how of ['validation', 'crash', 'reducer']) {
      const result = await invokeTool(loud, { how }, { session });
      expect(result.success).toBe(false);
      expect(result.message.length).toBeLessThan(2_000);
      // The handler's own ToolValidationError is left as it was; plankit's errors are capped.
      if (!result.success && how !== 'validation')
        expect(result.error.message.length).toBeLessThan(2_000);
    }
    expect(session.snapshot().revision).toBe(0);
  });

  it('reports a call that committed as a success, even beside another session with the same id on the bus', async () => {
    const bus = new InProcessEventBus();
    const a = new Session({ bus, sessionId: 'same' });
    const twin = new Session({ bus, sessionId: 'same' });
    a.register(Item, append);
    twin.register(Item, () => {
      throw new ToolValidationError('The twin refuses.', { code: 'text_empty' });
    });
    const result = await invokeTool(addItem, { name: 'pen' }, { session: a });
    expect(result.success).toBe(true);
    expect(selectAll(a, Item)).toEqual([{ name: 'pen', tags: [] }]);
    expect(twin.snapshot().revision).toBe(0);
    // And the other way round: a refusal on the target is reported even if the twin accepts.
    const b = new Session({ bus, sessionId: 'pair' });
    const bTwin = new Session({ bus, sessionId: 'pair' });
    b.register(Item, () => {
      throw new ToolValidationError('Refused here.', { code: 'text_empty' });
    });
    bTwin.register(Item, append);
    const refused = await invokeTool(addItem, { name: 'pen' }, { session: b });
    expect(refused.message).toBe('Tool validation failed: Refused here.');
    expect(bTwin.snapshot().revision).toBe(0);
  });

  it('refuses a call on a session that no longer listens to its bus, instead of reporting a success it did not store', async () => {
    const { session } = setup();
    session.dispose();
    const result = await invokeTool(addItem, { name: 'pen' }, { session });
    expect(result.success).toBe(false);
    expect(!result.success && result.error.code).toBe('tool_execution_failed');
    expect(session.snapshot().revision).toBe(0);
  });

  it('refuses a result value its resultType rejects, changing nothing', async () => {
    const { session } = setup();
    const sloppy = defineTool({
      name: 'sloppy',
      description: 'Returns a value that breaks its own data type.',
      parameters: z.strictObject({}),
      resultType: Item,
      handler: () => ({ message: 'ok', value: { name: 7 } as never }),
    });
    const result = await invokeTool(sloppy, {}, { session });
    expect(result.success).toBe(false);
    expect(result.message).toMatch(/^Tool 'sloppy' execution failed: .*test\.Item/);
    expect(session.snapshot().revision).toBe(0);
  });

  it('refuses arguments a store cannot hold (U+0000, lone surrogates), changing nothing', async () => {
    const { session } = setup();
    for (const name of ['a\u0000b', 'a\ud800b']) {
      const result = await invokeTool(addItem, { name }, { session });
      expect(result.success).toBe(false);
      expect(result.message).toMatch(/^Tool validation failed: name: /);
      expect(!result.success && result.error).toMatchObject({
        code: 'arguments_unstorable',
        field: 'name',
      });
    }
    expect(session.snapshot().revision).toBe(0);
  });

  it('commits a synchronous handler before any other call can run, so concurrent calls serialise', async () => {
    const session = new Session();
    const Counter = defineDataType('test.Counter', z.number());
    session.register(Counter, (_slice, { value }) => [value]);
    const bump = defineTool({
      name: 'bump',
      description: 'Reads the counter and writes it plus one.',
      parameters: z.strictObject({}),
      resultType: Counter,
      handler: (_params, context) => {
        const current = context.session.select(Counter)[0] ?? 0;
        return { message: `now ${current + 1}`, value: current + 1 };
      },
    });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => invokeTool(bump, {}, { session })),
    );
    expect(results.map((result) => result.message)).toEqual([
      'now 1',
      'now 2',
      'now 3',
      'now 4',
      'now 5',
    ]);
    expect(session.select(Counter)).toEqual([5]);
  });
});

describe('invokeTool on plankit:tool-call', () => {
  function listen(name: string = TOOL_CALL_CHANNEL) {
    const events: DiagnosticsEvent[] = [];
    const listener = (message: unknown) => events.push(message as DiagnosticsEvent);
    subscribe(name, listener);
    onTestFinished(() => {
      unsubscribe(name, listener);
    });
    return events;
  }

  beforeEach(() => resetDiagnostics());

  it('publishes a start and an end for a successful call, with generated ids', async () => {
    const events = listen();
    const { session } = setup();
    await invokeTool(addItem, { name: 'pen' }, { session });
    expect(events).toEqual([
      {
        type: 'tool-call-start',
        phase: 'start',
        callId: 'plankit-call-1',
        toolName: 'add_item',
        sessionId: 's',
        at: 100,
        arguments: { name: 'pen' },
      },
      {
        type: 'tool-call-end',
        phase: 'end',
        callId: 'plankit-call-1',
        toolName: 'add_item',
        sessionId: 's',
        at: 100,
        ok: true,
        code: null,
        field: null,
        message: 'Added pen.',
        value: { name: 'pen', tags: [] },
      },
    ]);
    expect(events.every((event) => Object.isFrozen(event))).toBe(true);
  });

  it("reports a refusal's code and field, with the host's call and conversation ids", async () => {
    const events = listen();
    const { session } = setup();
    const options = { session, callId: 'call_7', conversationId: 'conv-1' };
    await invokeTool(addItem, { name: 'bad' }, options);
    await invokeTool(addItem, { name: 'crash' }, options);
    await invokeTool(addItem, { name: 3 }, options);
    const ends = events.filter((event): event is ToolCallEnded => event.type === 'tool-call-end');
    expect(ends).toMatchObject([
      { callId: 'call_7', conversationId: 'conv-1', ok: false, code: 'text_empty', field: 'name' },
      { ok: false, code: 'tool_execution_failed', field: null, value: null },
      { ok: false, code: 'schema', field: 'name' },
    ]);
    expect(events.filter((event) => event.type === 'tool-call-start')).toHaveLength(3);
    expect(ends[1]?.message).toBe("Tool 'add_item' execution failed: disk on fire");
  });

  it('reports a call whose result the session refused as refused', async () => {
    const events = listen();
    const session = new Session({ sessionId: 's' });
    const { planning_mark_step: mark } = createPlanningTools(session);
    await invokeTool(mark, { step_id: 'S001', status: 'done' }, { session });
    expect(events[1]).toMatchObject({ phase: 'end', ok: false, code: 'plan_missing' });
  });

  it('builds nothing and generates no id while nobody listens', async () => {
    const { session } = setup();
    await invokeTool(addItem, { name: 'pen' }, { session });
    const events = listen();
    await invokeTool(addItem, { name: 'pen' }, { session });
    // The first call took no id.
    expect((events[0] as ToolCallStarted).callId).toBe('plankit-call-1');
  });

  it('refuses a callId or conversationId that is not 1-256 characters', async () => {
    const { session } = setup();
    for (const bad of ['', 'x'.repeat(257), 7]) {
      await expect(
        invokeTool(addItem, { name: 'pen' }, { session, callId: bad as string }),
      ).rejects.toThrow('options.callId must be a string of 1-256 characters');
      await expect(
        invokeTool(addItem, { name: 'pen' }, { session, conversationId: bad as string }),
      ).rejects.toThrow('options.conversationId must be a string of 1-256 characters');
    }
  });

  it('completes the call when a subscriber throws; node reports the error on the next tick', async () => {
    const thrower = () => {
      throw new Error('subscriber broke');
    };
    subscribe(TOOL_CALL_CHANNEL, thrower);
    subscribe(PLAN_CHANNEL, thrower);
    // Node hands a subscriber's error to process 'uncaughtException' on the next tick: catch it
    // here instead of the test runner's handler.
    const handlers = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    const reported: unknown[] = [];
    process.on('uncaughtException', (error) => reported.push(error));
    try {
      const session = new Session({ sessionId: 's' });
      const { planning_setup_plan: setupPlan } = createPlanningTools(session);
      const result = await invokeTool(setupPlan, { objective: 'Ship' }, { session });
      expect(result.success).toBe(true);
      expect(session.snapshot().revision).toBe(1);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.removeAllListeners('uncaughtException');
      for (const handler of handlers) process.on('uncaughtException', handler);
      unsubscribe(TOOL_CALL_CHANNEL, thrower);
      unsubscribe(PLAN_CHANNEL, thrower);
    }
    // Start, plan change, end.
    expect(reported).toHaveLength(3);
    expect(reported.every((error) => (error as Error).message === 'subscriber broke')).toBe(true);
  });
});
