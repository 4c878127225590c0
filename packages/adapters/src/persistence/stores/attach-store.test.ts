import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  append,
  createPlanningTools,
  defineDataType,
  InProcessEventBus,
  invokeTool,
  MarkStep,
  Plan,
  type Reducer,
  registerPlanningReducers,
  Session,
  SetupPlan,
  selectAll,
  selectLatest,
  snapshotToJSON,
  ToolCall,
} from '@plankit/core';
import { logReads } from '@plankit/core/internal-unstable';
import * as fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { attachStore } from './attach-store.ts';
import { FileStore } from './file-store.ts';
import { MemoryStore } from './memory-store.ts';
import { SESSION_COMMITTED_EVENT, SESSION_ROLLED_BACK_EVENT } from './replay-rules.ts';
import type { SessionStore } from './session-store.ts';
import { StoreError } from './store-error.ts';
import { err, ok } from './testing/store-contract.ts';

const Note = defineDataType('attachtest.Note', z.strictObject({ text: z.string() }));
type Note = z.infer<typeof Note>;
// A command routed into another slice: not a slice itself.
const Shout = defineDataType('attachtest.Shout', z.strictObject({ text: z.string() }));
const shout: Reducer<Note, Note> = (notes, { value }) => [
  ...notes,
  { text: value.text.toUpperCase() },
];

const NOW = 1_700_000_000_000;

function noteSession(id = 'notes'): Session {
  let tick = NOW;
  const session = new Session({ sessionId: id, clock: () => tick++ });
  session.register(Note, append);
  return session;
}

function slicesOf(session: Session) {
  return session.snapshot().slices;
}

/** Attaches and unwraps; throws with the store's message on failure. */
async function attach(
  session: Session,
  store: SessionStore,
  options: Parameters<typeof attachStore>[2] = {},
) {
  const attached = await attachStore(session, store, options);
  if (!attached.ok) throw new Error(`${attached.error.code}: ${attached.error.message}`);
  return attached.value;
}

describe('attachStore', () => {
  let store: MemoryStore;

  beforeEach(() => {
    store = new MemoryStore();
  });

  it('starts a new session and persists every commit as an event', async () => {
    const session = noteSession();
    const attachment = await attach(session, store);
    expect(attachment).toMatchObject({
      resumed: false,
      version: 0,
      issues: [],
      failure: undefined,
    });
    session.dispatch(Note, { text: 'one' });
    session.dispatch(Note, { text: 'two' });
    session.dispatch(Note, { text: 'one' }); // append skips it: no commit, no event
    expect(ok(await attachment.flush())).toBe(2);
    expect(attachment.version).toBe(2);
    const loaded = ok(await store.load('notes'));
    expect(loaded.events.map(({ type, data, at }) => ({ type, data, at }))).toEqual([
      {
        type: SESSION_COMMITTED_EVENT,
        data: { changes: [{ dataType: 'attachtest.Note', value: { text: 'one' } }] },
        at: NOW,
      },
      {
        type: SESSION_COMMITTED_EVENT,
        data: { changes: [{ dataType: 'attachtest.Note', value: { text: 'two' } }] },
        at: NOW + 1,
      },
    ]);
  });

  it('restores the state in a fresh session: snapshot, then the events after it', async () => {
    const first = noteSession();
    const attachment = await attach(first, store, { snapshotEvery: 3 });
    for (let i = 0; i < 7; i++) first.dispatch(Note, { text: `n${i}` });
    ok(await attachment.flush());
    const stored = ok(await store.load('notes'));
    expect(stored.snapshot?.version).toBe(6);
    expect(stored.events.map((event) => event.sequence)).toEqual([7]);

    const second = noteSession();
    const resumed = await attach(second, store, { snapshotEvery: 3 });
    expect(resumed).toMatchObject({ resumed: true, version: 7 });
    expect(slicesOf(second)).toEqual(slicesOf(first));
    second.dispatch(Note, { text: 'n7' });
    expect(ok(await resumed.flush())).toBe(8);
    expect(selectAll(noteSession(), Note)).toEqual([]);
  });

  it('replays tool calls and planning commands exactly', async () => {
    const first = new Session({ sessionId: 'plan', clock: () => NOW });
    const {
      planning_setup_plan: setup,
      planning_add_step: add,
      planning_mark_step: mark,
    } = createPlanningTools(first);
    const attachment = await attach(first, store, { snapshotEvery: 4 });
    await invokeTool(
      setup,
      { objective: 'Ship', initial_steps: [{ title: 'Write' }, { title: 'Test' }] },
      { session: first },
    );
    await invokeTool(add, { steps: [{ title: 'Release' }] }, { session: first, now: NOW + 5 });
    await invokeTool(mark, { step_id: 'S001', status: 'done', note: 'ok' }, { session: first });
    // A command dispatched by hand, not through a tool.
    first.dispatch(MarkStep, { step_id: 'S002', status: 'in_progress', note: null });
    await invokeTool(mark, { step_id: 'S009', status: 'done' }, { session: first }); // refused
    ok(await attachment.flush());

    const second = new Session({ sessionId: 'plan' });
    createPlanningTools(second);
    await attach(second, store);
    expect(selectLatest(second, Plan)).toEqual(selectLatest(first, Plan));
    expect(selectAll(second, ToolCall)).toEqual(selectAll(first, ToolCall));
    expect(slicesOf(second)).toEqual(slicesOf(first));
  });

  it('persists rollbacks as the state they restored', async () => {
    const first = noteSession();
    const attachment = await attach(first, store);
    first.dispatch(Note, { text: 'a' });
    const early = first.snapshot();
    first.dispatch(Note, { text: 'b' });
    ok(first.rollback(early, { now: NOW + 50 }));
    first.dispatch(Note, { text: 'c' });
    ok(await attachment.flush());
    const events = ok(await store.load('notes')).events;
    expect(events.map((event) => event.type)).toEqual([
      SESSION_COMMITTED_EVENT,
      SESSION_COMMITTED_EVENT,
      SESSION_ROLLED_BACK_EVENT,
      SESSION_COMMITTED_EVENT,
    ]);
    expect(events[2]).toMatchObject({
      at: NOW + 50,
      data: { slices: { 'attachtest.Note': [{ text: 'a' }] } },
    });
    const second = noteSession();
    await attach(second, store);
    expect(selectAll(second, Note)).toEqual([{ text: 'a' }, { text: 'c' }]);
  });

  it('saves a checkpoint of the state as of the call', async () => {
    const session = noteSession();
    const attachment = await attach(session, store, { snapshotEvery: Number.POSITIVE_INFINITY });
    ok(await attachment.checkpoint());
    err(await store.load('notes'), 'not_found');
    session.dispatch(Note, { text: 'a' });
    session.dispatch(Note, { text: 'b' });
    expect(ok(await attachment.checkpoint())).toBe(2);
    const loaded = ok(await store.load('notes'));
    expect(loaded.snapshot).toMatchObject({ version: 2, data: snapshotToJSON(session.snapshot()) });
    expect(loaded.events).toEqual([]);
  });

  it('stops persisting on detach', async () => {
    const session = noteSession();
    const attachment = await attach(session, store);
    session.dispatch(Note, { text: 'kept' });
    expect(ok(await attachment.detach())).toBe(1);
    session.dispatch(Note, { text: 'not kept' });
    expect(ok(await attachment.flush())).toBe(1);
    expect(ok(await store.load('notes')).version).toBe(1);
  });

  it('stops at once, and says why, when a commit could not be replayed', async () => {
    const session = noteSession();
    session.register(Shout, shout, { slice: Note });
    const errors: StoreError[] = [];
    const attachment = await attach(session, store, { onError: (error) => errors.push(error) });
    session.dispatch(Note, { text: 'saved' });
    session.dispatch(Shout, { text: 'lost' });
    session.dispatch(Note, { text: 'after' });
    const failure = err(await attachment.flush(), 'data_type_unknown');
    expect(failure.message).toContain('attachtest.Shout');
    expect(errors).toEqual([failure]);
    expect(attachment.failure).toBe(failure);
    expect(ok(await store.load('notes')).version).toBe(1);
  });

  it('replays commands given in dataTypes', async () => {
    const first = noteSession();
    first.register(Shout, shout, { slice: Note });
    const attachment = await attach(first, store, { dataTypes: [Shout] });
    first.dispatch(Shout, { text: 'hey' });
    ok(await attachment.flush());
    const second = noteSession();
    second.register(Shout, shout, { slice: Note });
    await attach(second, store, { dataTypes: [Shout] });
    expect(selectAll(second, Note)).toEqual([{ text: 'HEY' }]);
  });

  it('gives a stale worker a conflict and keeps the store as the first worker left it', async () => {
    const one = noteSession();
    const two = noteSession();
    const first = await attach(one, store);
    const second = await attach(two, store);
    one.dispatch(Note, { text: 'first' });
    ok(await first.flush());
    two.dispatch(Note, { text: 'second' });
    const failure = err(await second.flush(), 'conflict');
    expect(second.failure).toBe(failure);
    expect(selectAll(two, Note)).toEqual([{ text: 'second' }]);
    // A fresh session picks up the winner's state and carries on.
    const three = noteSession();
    const third = await attach(three, store);
    expect(selectAll(three, Note)).toEqual([{ text: 'first' }]);
    three.dispatch(Note, { text: 'third' });
    expect(ok(await third.flush())).toBe(2);
  });

  it('keeps revision order when a handler dispatches from inside another handler', async () => {
    const first = noteSession();
    let live = false;
    // Subscribed before the attachment, so it sees each commit first and nests its own.
    first.bus.subscribe('SessionCommitted', (event) => {
      const value = event.changes[0]?.value as Note | undefined;
      if (live && value?.text === 'ping') first.dispatch(Note, { text: 'pong' });
    });
    const attachment = await attach(first, store);
    live = true;
    first.dispatch(Note, { text: 'ping' });
    first.dispatch(Note, { text: 'end' });
    ok(await attachment.flush());
    expect(selectAll(first, Note).map((note) => note.text)).toEqual(['ping', 'pong', 'end']);
    const second = noteSession();
    await attach(second, store);
    expect(slicesOf(second)).toEqual(slicesOf(first));
  });

  it('refuses a second live session of one id on one bus with busy, and keeps the first log its own', async () => {
    const bus = new InProcessEventBus();
    const one = new Session({ sessionId: 'notes', bus, clock: () => NOW });
    const two = new Session({ sessionId: 'notes', bus, clock: () => NOW });
    for (const session of [one, two]) session.register(Note, append);
    const first = await attach(one, store);
    const refused = err(await attachStore(two, store), 'busy');
    expect(refused.field).toBe('session');
    expect(refused.sessionId).toBe('notes');
    expect(refused.message).toMatch(/^Another live Session with id notes is attached/);
    expect(refused.message.length).toBeLessThan(2_000);
    // The refused session goes on dispatching on the shared bus, ahead of the first and
    // behind it: none of its commits reach the first session's log.
    two.dispatch(Note, { text: 'theirs 1' });
    one.dispatch(Note, { text: 'mine 1' });
    two.dispatch(Note, { text: 'theirs 2' });
    two.dispatch(Note, { text: 'theirs 3' });
    one.dispatch(Note, { text: 'mine 2' });
    two.rollback(two.snapshot());
    expect(ok(await first.flush())).toBe(2);
    expect(first.failure).toBeUndefined();
    const stored = ok(await store.load('notes'));
    expect(stored.events.map((event) => event.type)).toEqual([
      SESSION_COMMITTED_EVENT,
      SESSION_COMMITTED_EVENT,
    ]);
    const reloaded = noteSession();
    await attach(reloaded, store);
    expect(selectAll(reloaded, Note).map((note) => note.text)).toEqual(['mine 1', 'mine 2']);
    // Once the first detaches, the id is free on the bus again.
    ok(await first.detach());
    const three = new Session({ sessionId: 'notes', bus, clock: () => NOW });
    three.register(Note, append);
    const third = await attach(three, store);
    expect(selectAll(three, Note).map((note) => note.text)).toEqual(['mine 1', 'mine 2']);
    ok(await third.detach());
  });

  it('lets one of two sessions of one id attach at once on one bus; other ids and buses are free', async () => {
    const bus = new InProcessEventBus();
    const make = (id: string, on = bus) => {
      const session = new Session({ sessionId: id, bus: on, clock: () => NOW });
      session.register(Note, append);
      return session;
    };
    const results = await Promise.all([
      attachStore(make('x'), store),
      attachStore(make('x'), store),
    ]);
    expect(results.map((result) => (result.ok ? 'ok' : result.error.code)).sort()).toEqual([
      'busy',
      'ok',
    ]);
    ok(await attachStore(make('y'), store));
    ok(await attachStore(make('x', new InProcessEventBus()), store));
    // A failed attach lets go of the id.
    const failing = make('z');
    const broken = Object.create(store) as SessionStore;
    Object.assign(broken, {
      load: async () => ({ ok: false, error: new StoreError('unreachable', 'The store is down.') }),
    });
    err(await attachStore(failing, broken), 'unreachable');
    ok(await attachStore(make('z'), store));
  });

  it('rebuilds from the log when the snapshot does not fit the session', async () => {
    const first = noteSession();
    const Other = defineDataType('attachtest.Other', z.number());
    first.register(Other, append);
    const attachment = await attach(first, store, { snapshotEvery: 2 });
    first.dispatch(Note, { text: 'a' });
    first.dispatch(Note, { text: 'b' });
    first.dispatch(Note, { text: 'c' });
    ok(await attachment.flush());
    expect(ok(await store.load('notes')).snapshot?.version).toBe(2);
    // Hand-made: a snapshot naming a slice the new session does not have.
    ok(
      await store.saveSnapshot('notes', {
        version: 3,
        data: { ...snapshotToJSON(first.snapshot()), slices: { 'attachtest.Other': [1] } },
      }),
    );
    const second = noteSession();
    const resumed = await attach(second, store);
    expect(resumed.issues).toEqual([
      { code: 'snapshot_ignored', message: expect.stringContaining('attachtest.Other') },
    ]);
    expect(selectAll(second, Note)).toEqual([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
  });

  it("rebuilds from the log when the snapshot is another session's", async () => {
    const other = noteSession('other');
    other.dispatch(Note, { text: 'not ours' });
    const first = noteSession();
    const attachment = await attach(first, store, { snapshotEvery: Number.POSITIVE_INFINITY });
    first.dispatch(Note, { text: 'a' });
    first.dispatch(Note, { text: 'b' });
    ok(await attachment.flush());
    // Copied by hand from another session's row or folder: it fits the slices, not the session.
    ok(await store.saveSnapshot('notes', { version: 2, data: snapshotToJSON(other.snapshot()) }));
    const second = noteSession();
    const resumed = await attach(second, store);
    expect(resumed.issues).toEqual([
      { code: 'snapshot_ignored', message: expect.stringContaining('session other') },
    ]);
    expect(selectAll(second, Note)).toEqual([{ text: 'a' }, { text: 'b' }]);
  });

  it('fails with replay_failed naming the event that cannot be replayed', async () => {
    ok(
      await store.append('notes', 0, [
        {
          type: SESSION_COMMITTED_EVENT,
          at: 1,
          data: { changes: [{ dataType: 'attachtest.Note', value: { text: 'a' } }] },
        },
        { type: 'app.Custom', at: 2, data: {} },
      ]),
    );
    const unknownType = err(await attachStore(noteSession(), store), 'replay_failed');
    expect(unknownType.message).toContain('Event 2');
    expect(unknownType.message).toContain('app.Custom');

    ok(
      await store.append('other', 0, [
        {
          type: SESSION_COMMITTED_EVENT,
          at: 1,
          data: { changes: [{ dataType: 'app.Unknown', value: 1 }] },
        },
      ]),
    );
    const unknownData = err(await attachStore(noteSession('other'), store), 'replay_failed');
    expect(unknownData.message).toContain('app.Unknown is unknown to the session');

    ok(
      await store.append('dup', 0, [
        {
          type: SESSION_COMMITTED_EVENT,
          at: 1,
          data: { changes: [{ dataType: 'attachtest.Note', value: { text: 'a' } }] },
        },
        {
          type: SESSION_COMMITTED_EVENT,
          at: 2,
          data: { changes: [{ dataType: 'attachtest.Note', value: { text: 'a' } }] },
        },
      ]),
    );
    expect(err(await attachStore(noteSession('dup'), store), 'replay_failed').message).toContain(
      'changed nothing',
    );

    ok(
      await store.append('shape', 0, [
        { type: SESSION_COMMITTED_EVENT, at: 1, data: { changes: 'no' } },
      ]),
    );
    err(await attachStore(noteSession('shape'), store), 'replay_failed');
  });

  it('names where a stored change breaks its schema as a model writes a path', async () => {
    const Items = defineDataType(
      'attachtest.Items',
      z.strictObject({ items: z.array(z.strictObject({ title: z.string() })) }),
    );
    ok(
      await store.append('items', 0, [
        {
          type: SESSION_COMMITTED_EVENT,
          at: 1,
          data: { changes: [{ dataType: 'attachtest.Items', value: { items: [{ title: 1 }] } }] },
        },
      ]),
    );
    const session = new Session({ sessionId: 'items' });
    session.register(Items, append);
    const refused = err(await attachStore(session, store), 'replay_failed');
    expect(refused.message).toContain('does not match its schema at items[0].title');
  });

  it('fails with replay_failed, never a throw, on an event time that is not finite', async () => {
    ok(
      await store.append('untimed', 0, [
        {
          type: SESSION_COMMITTED_EVENT,
          at: 1,
          data: { changes: [{ dataType: 'attachtest.Note', value: { text: 'a' } }] },
        },
      ]),
    );
    // A host's own store, or a row edited by hand, can give one back.
    const untimed: SessionStore = {
      load: async (sessionId, options) => {
        const loaded = await store.load(sessionId, options);
        if (!loaded.ok) return loaded;
        const events = loaded.value.events.map((event) => ({ ...event, at: Number.NaN }));
        return { ok: true, value: { ...loaded.value, events } };
      },
      append: (...args) => store.append(...args),
      saveSnapshot: (...args) => store.saveSnapshot(...args),
      list: (...args) => store.list(...args),
      delete: (...args) => store.delete(...args),
      close: () => store.close(),
    };
    const failure = err(await attachStore(noteSession('untimed'), untimed), 'replay_failed');
    expect(failure.message).toContain('Event 1');
    expect(failure.message).toContain('time is NaN');
  });

  describe('what cannot be replayed is refused when written, and replay checks it', () => {
    // A reducer that writes a value its slice's schema refuses, from a value that is valid.
    const Broken = defineDataType('attachtest.Broken', z.strictObject({ text: z.string() }));
    const broken: Reducer<Note, z.infer<typeof Broken>> = (notes, { value }) => [
      ...notes,
      { text: value.text.length } as unknown as Note,
    ];

    it('a schema-invalid value followed by a rollback: the log stays re-attachable', async () => {
      const first = noteSession('invalid');
      const errors: StoreError[] = [];
      const attachment = await attach(first, store, { onError: (error) => errors.push(error) });
      first.dispatch(Note, { text: 'kept' });
      ok(await attachment.flush());
      const before = first.snapshot();
      // Core may refuse it itself; either way nothing unreplayable may reach the store.
      const dispatched = first.dispatch(Note, { text: 5 } as unknown as Note);
      first.rollback(before);
      first.dispatch(Note, { text: 'later' });
      const flushed = await attachment.flush();
      if (dispatched.ok) {
        const failure = err(flushed, 'event_invalid');
        expect(failure.message).toContain('attachtest.Note');
        expect(failure.message).toContain('could not replay');
        expect(failure.message.length).toBeLessThan(2_000);
        expect(errors).toEqual([failure]);
      } else {
        expect(ok(flushed)).toBe(3);
      }
      const second = noteSession('invalid');
      const resumed = await attach(second, store);
      const texts = selectAll(second, Note).map((note) => note.text);
      expect(texts).toEqual(dispatched.ok ? ['kept'] : ['kept', 'later']);
      expect(resumed.version).toBe(dispatched.ok ? 1 : 3);
    });

    it('a reducer output its slice schema refuses stops persistence before it is stored', async () => {
      const first = noteSession('broken');
      first.register(Broken, broken, { slice: Note });
      const attachment = await attach(first, store, { dataTypes: [Broken] });
      first.dispatch(Note, { text: 'a' });
      expect(first.dispatch(Broken, { text: 'bad' }).ok).toBe(true);
      const failure = err(await attachment.flush(), 'event_invalid');
      expect(failure.message).toContain('Slice attachtest.Note');
      expect(ok(await store.load('broken')).version).toBe(1);
      const second = noteSession('broken');
      second.register(Broken, broken, { slice: Note });
      await attach(second, store, { dataTypes: [Broken] });
      expect(selectAll(second, Note)).toEqual([{ text: 'a' }]);
    });

    it('a rollback to a hand-made state its schemas refuse is not stored', async () => {
      const first = noteSession('handmade');
      const attachment = await attach(first, store);
      first.dispatch(Note, { text: 'a' });
      // Core may refuse it itself; either way nothing unreplayable may reach the store.
      const rolledBack = first.rollback({
        sessionId: 'handmade',
        revision: 0,
        slices: { 'attachtest.Note': [{ text: 'a', extra: true }] },
      });
      if (rolledBack.ok) err(await attachment.flush(), 'event_invalid');
      else expect(ok(await attachment.flush())).toBe(1);
      const second = noteSession('handmade');
      await attach(second, store);
      expect(selectAll(second, Note)).toEqual([{ text: 'a' }]);
    });

    it('replays commits with the rules of rollbacks: a tampered commit is replay_failed', async () => {
      const commit = (dataType: string, value: unknown) => ({
        type: SESSION_COMMITTED_EVENT,
        at: 1,
        data: { changes: [{ dataType, value }] },
      });
      const tampered: [string, unknown][] = [
        // renderPlan would crash on this plan later.
        ['plankit.Plan', { objective: 'o', status: 'active', steps: null }],
        ['plankit.Plan', { objective: 'o', status: 'done', steps: [] }],
        ['plankit.SetupPlan', { objective: 'o', initial_steps: [{ title: 7, details: null }] }],
        ['attachtest.Note', JSON.parse('{"text":"a","__proto__":{"polluted":true}}')],
        ['attachtest.Note', { text: ['a'] }],
      ];
      for (const [index, [dataType, value]] of tampered.entries()) {
        const id = `tampered-${index}`;
        ok(await store.append(id, 0, [commit('attachtest.Note', { text: 'ok' })]));
        ok(await store.append(id, 1, [commit(dataType, value)]));
        const session = noteSession(id);
        registerPlanningReducers(session);
        const failure = err(await attachStore(session, store), 'replay_failed');
        expect(failure.message, dataType).toContain('Event 2');
        expect(failure.message, dataType).toContain(dataType);
      }
      // The same rule for a reducer's output: the value is valid, what it produces is not.
      ok(await store.append('tampered-output', 0, [commit('attachtest.Broken', { text: 'x' })]));
      const session = noteSession('tampered-output');
      session.register(Broken, broken, { slice: Note });
      const failure = err(
        await attachStore(session, store, { dataTypes: [Broken] }),
        'replay_failed',
      );
      expect(failure.message).toContain('Slice attachtest.Note');
    });
  });

  it('rejects programmer errors', async () => {
    const used = noteSession();
    used.dispatch(Note, { text: 'x' });
    await expect(attachStore(used, store)).rejects.toMatchObject({
      code: 'argument_invalid',
      field: 'session',
    });
    const twice = noteSession('twice');
    const first = await attach(twice, store);
    await expect(attachStore(twice, store)).rejects.toThrow(/already attached/);
    ok(await first.detach());
    // Detached and still at revision 0, it may attach again.
    ok(await (await attach(twice, store)).detach());
    await expect(attachStore({} as Session, store)).rejects.toMatchObject({ field: 'session' });
    await expect(attachStore(noteSession(), {} as SessionStore)).rejects.toMatchObject({
      field: 'store',
    });
    for (const options of [
      { snapshotEvery: 0 },
      { snapshotEvery: 1.5 },
      { dataTypes: [z.string()] },
      { dataTypes: 'x' },
      { onError: 'x' },
      { every: 2 },
    ]) {
      await expect(
        attachStore(noteSession(), store, options as never),
        JSON.stringify(options),
      ).rejects.toMatchObject({
        code: 'argument_invalid',
      });
    }
  });

  it('returns the store failure when the state cannot be read', async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'plankit-attach-'));
    try {
      const files = new FileStore({ directory });
      await files.close();
      err(await attachStore(noteSession(), files), 'closed');
      err(
        await attachStore(new Session({ sessionId: 'bad/../id' }), new MemoryStore()),
        'session_id_invalid',
      );
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('restores exactly what was persisted, for any sequence of changes', async () => {
    const change = fc.oneof(
      fc.record({ kind: fc.constant('note' as const), text: fc.string({ maxLength: 6 }) }),
      fc.record({ kind: fc.constant('shout' as const), text: fc.string({ maxLength: 6 }) }),
      fc.record({ kind: fc.constant('rollback' as const), back: fc.nat(4) }),
      fc.record({ kind: fc.constant('flush' as const) }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(change, { maxLength: 25 }),
        fc.integer({ min: 1, max: 6 }),
        async (changes, every) => {
          const id = `prop-${run++}`;
          const make = () => {
            const session = noteSession(id);
            session.register(Shout, shout, { slice: Note });
            return session;
          };
          const first = make();
          const attachment = await attach(first, store, {
            snapshotEvery: every,
            dataTypes: [Shout],
          });
          const history = [first.snapshot()];
          for (const step of changes) {
            if (step.kind === 'note') first.dispatch(Note, { text: step.text });
            else if (step.kind === 'shout') first.dispatch(Shout, { text: step.text });
            else if (step.kind === 'rollback') {
              const target = history[Math.max(0, history.length - 1 - step.back)];
              if (target !== undefined) ok(first.rollback(target));
            } else ok(await attachment.flush());
            history.push(first.snapshot());
          }
          ok(await attachment.flush());
          const second = make();
          await attach(second, store, { dataTypes: [Shout] });
          expect(slicesOf(second)).toEqual(slicesOf(first));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('attachStore on a long tool-call log', () => {
  async function markMany(
    session: Session,
    mark: ReturnType<typeof createPlanningTools>[3],
    count: number,
  ): Promise<void> {
    for (let i = 0; i < count; i++) {
      const status = i % 2 === 0 ? 'in_progress' : 'pending';
      const result = await invokeTool(mark, { step_id: 'S001', status, note: null }, { session });
      expect(result.success).toBe(true);
    }
  }

  it.each([
    ['every entry kept', undefined],
    ['maxLoggedCalls 50', 50],
  ])('checks only the entries a commit appended, never the older ones (%s)', async (_, cap) => {
    const store = new MemoryStore();
    const make = () => new Session({ sessionId: 'long', clock: () => NOW, maxLoggedCalls: cap });
    const first = make();
    const { planning_setup_plan: setup, planning_mark_step: mark } = createPlanningTools(first);
    const attachment = await attach(first, store, { snapshotEvery: Number.POSITIVE_INFINITY });
    await invokeTool(
      setup,
      { objective: 'Long', initial_steps: [{ title: 'a' }] },
      { session: first },
    );
    await markMany(first, mark, 400);
    ok(await attachment.flush());
    // Counted, not timed: the log entries read out of core's chunks while 100 more calls
    // are checked and stored. Reading the whole log even once would be 400 or more.
    const before = logReads.entries;
    await markMany(first, mark, 100);
    ok(await attachment.flush());
    expect(logReads.entries - before).toBe(100);
    expect(attachment.failure).toBeUndefined();

    const second = make();
    createPlanningTools(second);
    await attach(second, store);
    expect(selectAll(second, ToolCall)).toEqual(selectAll(first, ToolCall));
    expect(slicesOf(second)).toEqual(slicesOf(first));
  });
});

describe('attachStore through FileStore', () => {
  let directory: string;

  beforeEach(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'plankit-attach-'));
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('falls back to the log when a snapshot migration fails', async () => {
    const v1 = new FileStore({ directory });
    const first = noteSession();
    const attachment = await attach(first, v1, { snapshotEvery: 1 });
    first.dispatch(Note, { text: 'a' });
    first.dispatch(Note, { text: 'b' });
    ok(await attachment.flush());
    const v2 = new FileStore({
      directory,
      snapshotSchema: {
        version: 2,
        migrations: {
          1: () => {
            throw new Error('cannot upgrade');
          },
        },
      },
    });
    const second = noteSession();
    const resumed = await attach(second, v2);
    expect(resumed.issues).toEqual([
      { code: 'snapshot_ignored', message: expect.stringContaining('cannot upgrade') },
    ]);
    expect(selectAll(second, Note)).toEqual([{ text: 'a' }, { text: 'b' }]);
    await v1.close();
    await v2.close();
  });

  it('refuses to resume from a snapshot a newer build wrote', async () => {
    const v2 = new FileStore({ directory, snapshotSchema: { version: 2 } });
    const first = noteSession();
    const attachment = await attach(first, v2, { snapshotEvery: 1 });
    first.dispatch(Note, { text: 'a' });
    ok(await attachment.flush());
    const v1 = new FileStore({ directory });
    err(await attachStore(noteSession(), v1), 'snapshot_version_unknown');
    await v1.close();
    await v2.close();
  });

  it('uses SetupPlan and the planning reducers on reload', async () => {
    const files = new FileStore({ directory });
    const first = new Session({ sessionId: 'job-42', clock: () => NOW });
    registerPlanningReducers(first);
    const attachment = await attach(first, files);
    first.dispatch(SetupPlan, { objective: 'o', initial_steps: [{ title: 't', details: null }] });
    ok(await attachment.flush());
    const second = new Session({ sessionId: 'job-42' });
    registerPlanningReducers(second);
    await attach(second, files);
    expect(selectLatest(second, Plan)).toEqual(selectLatest(first, Plan));
    await files.close();
  });
});
