import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { append } from './append.ts';
import { defineDataType } from './define-data-type.ts';
import { InProcessEventBus } from './in-process-event-bus.ts';
import { PlankitError } from './plankit-error.ts';
import type { PlankitEvent } from './plankit-event.ts';
import type { Reducer } from './reducer.ts';
import { replaceLatest } from './replace-latest.ts';
import { selectAll } from './select-all.ts';
import { selectLatest } from './select-latest.ts';
import { selectWhere } from './select-where.ts';
import { Session } from './session.ts';
import { SessionError } from './session-error.ts';

const Note = defineDataType('test.Note', z.strictObject({ id: z.number(), text: z.string() }));
type Note = z.infer<typeof Note>;
const Count = defineDataType('test.Count', z.number());

describe('Session', () => {
  it('starts empty at revision 0 with the options it was given', () => {
    const bus = new InProcessEventBus();
    const session = new Session({ bus, sessionId: 'abc', clock: () => 5 });
    expect(session.sessionId).toBe('abc');
    expect(session.bus).toBe(bus);
    expect(session.clock()).toBe(5);
    expect(session.snapshot()).toEqual({ sessionId: 'abc', revision: 0, slices: {} });
    expect(selectAll(session, Note)).toEqual([]);
    expect(new Session().sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses bad options with a typed error naming the option', () => {
    const attempts: [unknown, RegExp][] = [
      [{ sessionId: '' }, /sessionId/],
      [{ sessionId: 'x'.repeat(257) }, /sessionId/],
      [{ clock: 5 }, /clock/],
      [{ bus: {} }, /bus/],
      [{ colour: 'red' }, /colour is not an option/],
      [null, /options/],
    ];
    for (const [options, message] of attempts) {
      let caught: unknown;
      try {
        new Session(options as never);
      } catch (error) {
        caught = error;
      }
      expect(PlankitError.isInstance(caught)).toBe(true);
      expect((caught as PlankitError).code).toBe('argument_invalid');
      expect((caught as Error).message).toMatch(message);
    }
  });

  it('runs reducers of one data type in registration order into their target slices', () => {
    const session = new Session();
    const calls: string[] = [];
    const first: Reducer<Note> = (slice, { value }) => {
      calls.push('first');
      return [...slice, value];
    };
    const second: Reducer<Note> = (slice, { value }) => {
      calls.push(`second saw ${slice.length}`);
      return [...slice, { ...value, text: value.text.toUpperCase() }];
    };
    const counter: Reducer<number, Note> = (slice) => [(slice[0] ?? 0) + 1];
    session.register(Note, first);
    session.register(Note, second);
    session.register(Note, counter, { slice: Count });
    const result = session.dispatch(Note, { id: 1, text: 'a' }, { now: 7 });
    expect(result.ok).toBe(true);
    expect(calls).toEqual(['first', 'second saw 1']);
    expect(selectAll(session, Note)).toEqual([
      { id: 1, text: 'a' },
      { id: 1, text: 'A' },
    ]);
    expect(selectLatest(session, Count)).toBe(1);
    expect(session.snapshot().revision).toBe(1);
  });

  it('treats registering the same reducer twice as a no-op', () => {
    const session = new Session();
    session.register(Note, append);
    session.register(Note, append);
    session.dispatch(Note, { id: 1, text: 'a' });
    session.dispatch(Note, { id: 2, text: 'b' });
    expect(selectAll(session, Note)).toHaveLength(2);
  });

  it('passes the value, data type, session and time to reducers, never reading the clock itself', () => {
    const clock = vi.fn(() => 99);
    const session = new Session({ sessionId: 's', clock });
    const seen: unknown[] = [];
    session.register(Note, (slice, event) => {
      seen.push(event);
      return slice;
    });
    session.dispatch(Note, { id: 1, text: 'a' }, { now: 42 });
    expect(clock).not.toHaveBeenCalled();
    expect(seen).toEqual([
      { dataType: 'test.Note', value: { id: 1, text: 'a' }, sessionId: 's', at: 42 },
    ]);
    session.dispatch(Note, { id: 1, text: 'a' });
    expect(clock).toHaveBeenCalledOnce();
  });

  it('discards the whole dispatch when any reducer throws, and says which', () => {
    const session = new Session({ sessionId: 's' });
    session.register(Note, append);
    session.register(Note, (slice) => [...slice], { slice: Count } as never);
    session.register(
      Note,
      () => {
        throw new Error('boom');
      },
      { slice: Count } as never,
    );
    const before = session.snapshot();
    const result = session.dispatch(Note, { id: 1, text: 'a' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(SessionError.isInstance(result.error)).toBe(true);
    expect(result.error).toMatchObject({ code: 'reducer_failed', sessionId: 's' });
    expect(result.error.message).toBe('Reducer for test.Note into slice test.Count failed: boom');
    expect(session.snapshot()).toBe(before);
  });

  it('refuses a reducer that does not return an array', () => {
    const session = new Session();
    session.register(Note, (() => undefined) as never);
    const result = session.dispatch(Note, { id: 1, text: 'a' });
    expect(!result.ok && result.error.message).toMatch(/returned a non-array/);
    expect(session.snapshot().revision).toBe(0);
  });

  it('keeps the snapshot when nothing changed', () => {
    const bus = new InProcessEventBus();
    const session = new Session({ bus });
    const committed = vi.fn();
    bus.subscribe('SessionCommitted', committed);
    session.register(Note, append);
    session.dispatch(Note, { id: 1, text: 'a' });
    const before = session.snapshot();
    const again = session.dispatch(Note, { id: 1, text: 'a' });
    expect(again).toEqual({ ok: true, value: before });
    expect(committed).toHaveBeenCalledOnce();
    // A data type nobody reduces changes nothing either.
    expect(session.dispatch(Count, 3)).toEqual({ ok: true, value: before });
  });

  it('yields deeply frozen snapshots that share unchanged parts', () => {
    const session = new Session();
    session.register(Note, append);
    session.register(Count, replaceLatest);
    session.dispatch(Note, { id: 1, text: 'a' });
    const first = session.snapshot();
    session.dispatch(Count, 1);
    const second = session.snapshot();
    expect(first).not.toBe(second);
    expect(second.slices['test.Note']).toBe(first.slices['test.Note']);
    expect(Object.isFrozen(second)).toBe(true);
    expect(Object.isFrozen(second.slices)).toBe(true);
    expect(Object.isFrozen(second.slices['test.Note'])).toBe(true);
    expect(Object.isFrozen(selectAll(session, Note)[0])).toBe(true);
    expect(() => {
      (selectAll(session, Note) as Note[]).push({ id: 2, text: 'b' });
    }).toThrow(TypeError);
  });

  it('freezes the dispatched value so later mutation cannot reach the state', () => {
    const session = new Session();
    session.register(Note, append);
    const value = { id: 1, text: 'a' };
    session.dispatch(Note, value);
    expect(() => {
      value.text = 'changed';
    }).toThrow(TypeError);
    expect(selectAll(session, Note)).toEqual([{ id: 1, text: 'a' }]);
  });

  it('rolls back to an earlier snapshot, publishing the rollback and growing the revision', () => {
    const bus = new InProcessEventBus();
    const events: PlankitEvent[] = [];
    bus.subscribe('SessionRolledBack', (event) => events.push(event));
    const session = new Session({ bus, sessionId: 's', clock: () => 3 });
    session.register(Note, append);
    session.dispatch(Note, { id: 1, text: 'a' });
    const saved = session.snapshot();
    session.dispatch(Note, { id: 2, text: 'b' });
    const result = session.rollback(saved);
    expect(result.ok).toBe(true);
    expect(selectAll(session, Note)).toEqual([{ id: 1, text: 'a' }]);
    expect(session.snapshot().revision).toBe(3);
    expect(events).toEqual([
      { type: 'SessionRolledBack', sessionId: 's', revision: 3, restoredRevision: 1, at: 3 },
    ]);
  });

  it('refuses to roll back to a snapshot with a slice it does not know', () => {
    const session = new Session();
    const before = session.snapshot();
    const result = session.rollback({ sessionId: 'x', revision: 1, slices: { 'other.Slice': [] } });
    expect(!result.ok && result.error.code).toBe('slice_unregistered');
    expect(!result.ok && result.error.message).toMatch(
      /^Slice other\.Slice is not registered on this session: register it before restoring \(/,
    );
    expect(session.snapshot()).toBe(before);
  });

  it('selects where a predicate holds, from the session or a snapshot', () => {
    const session = new Session();
    session.register(Note, append);
    for (const id of [1, 2, 3, 4]) session.dispatch(Note, { id, text: `n${id}` });
    const even = (note: Note) => note.id % 2 === 0;
    expect(selectWhere(session, Note, even).map((n) => n.id)).toEqual([2, 4]);
    expect(selectWhere(session.snapshot(), Note, even)).toEqual(selectWhere(session, Note, even));
    expect(selectLatest(session.snapshot(), Note)?.id).toBe(4);
  });

  it('refuses unnamed data types and clashing slice names as programmer errors', () => {
    const session = new Session();
    expect(() => session.register(z.string() as never, append)).toThrow(/defineDataType/);
    const Other = defineDataType('test.Other', z.string());
    expect(() => session.register(Other, 'nope' as never)).toThrow(/reducer must be a function/);
    session.register(Note, append);
    const Clash = defineDataType('test.Note', z.number());
    expect(() => session.register(Clash, append)).toThrow(/already used by another schema/);
    expect(() => session.register(Other, append, { slice: Clash } as never)).toThrow(
      /already used by another schema/,
    );
    expect(() => session.dispatch(Clash, 1)).toThrow(/already used by another schema/);
  });

  it('stops listening to its bus once disposed', () => {
    const bus = new InProcessEventBus();
    const session = new Session({ bus, sessionId: 's' });
    session.dispose();
    const published = bus.publish({
      type: 'ToolInvoked',
      sessionId: 's',
      tool: 't',
      params: {},
      result: { ok: true, success: true, message: 'm', value: null },
      resultType: null,
      at: 1,
    });
    expect(published.delivered).toBe(0);
  });

  it('refuses a dispatch its data type rejects, with a typed error and no change', () => {
    const bus = new InProcessEventBus();
    const committed = vi.fn();
    bus.subscribe('SessionCommitted', committed);
    const session = new Session({ bus, sessionId: 's' });
    session.register(Note, append);
    const before = session.snapshot();
    const result = session.dispatch(Note, { id: 'one', text: 'a' } as never);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(SessionError.isInstance(result.error)).toBe(true);
    expect(result.error).toMatchObject({ code: 'value_invalid', field: 'id', sessionId: 's' });
    expect(result.error.message).toMatch(/^Value of test\.Note does not match its schema at id: /);
    expect(session.snapshot()).toBe(before);
    expect(committed).not.toHaveBeenCalled();
  });

  it('commits the value as its data type reads it, so a replay applies the same value', () => {
    const WithDefault = defineDataType(
      'test.WithDefault',
      z.strictObject({ text: z.string(), tags: z.array(z.string()).default([]) }),
    );
    const session = new Session();
    session.register(WithDefault, append);
    expect(session.dispatch(WithDefault, { text: 'a' } as never).ok).toBe(true);
    expect(selectAll(session, WithDefault)).toEqual([{ text: 'a', tags: [] }]);
  });

  it('refuses values a store cannot hold: U+0000, lone surrogates, non-JSON values, deep nesting', () => {
    const Anything = defineDataType('test.Anything', z.unknown());
    const session = new Session();
    session.register(Anything, append);
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const bad: [unknown, RegExp][] = [
      [{ text: 'a\u0000b' }, /text/],
      [{ 'k\u0000': 1 }, /U\+0000/],
      ['\udc00', /surrogate/],
      [{ n: Number.NaN }, /n/],
      [{ n: Number.POSITIVE_INFINITY }, /n/],
      [{ when: new Date(0) }, /when/],
      [{ big: 1n }, /big/],
      [[undefined], /\[0\]/],
      [{ f: () => 1 }, /f/],
      [deep, /deep/],
    ];
    for (const [value, message] of bad) {
      const result = session.dispatch(Anything, value);
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.error.code).toBe('value_invalid');
      expect(result.error.message).toMatch(message);
      expect(result.error.message.length).toBeLessThan(2_000);
    }
    expect(session.snapshot().revision).toBe(0);
    expect(session.dispatch(Anything, { ok: ['\ud83d\ude00', null, 1.5, true] }).ok).toBe(true);
  });

  it('refuses a non-finite time in dispatch and rollback, changing nothing', () => {
    const session = new Session();
    session.register(Note, append);
    const saved = session.snapshot();
    for (const now of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => session.dispatch(Note, { id: 1, text: 'a' }, { now })).toThrow(/options\.now/);
      expect(() => session.rollback(saved, { now })).toThrow(/options\.now/);
    }
    const broken = new Session({ clock: () => Number.NaN });
    broken.register(Note, append);
    expect(() => broken.dispatch(Note, { id: 1, text: 'a' })).toThrow(/clock/);
    expect(session.snapshot()).toBe(saved);
    expect(broken.snapshot().revision).toBe(0);
  });

  it('checks a snapshot it did not make before rolling back to it', () => {
    const session = new Session();
    session.register(Note, append);
    const before = session.snapshot();
    const result = session.rollback({
      sessionId: 'x',
      revision: 1,
      slices: { 'test.Note': [{ id: 'not a number', text: 'a' }] },
    });
    expect(!result.ok && result.error.code).toBe('snapshot_invalid');
    const unstorable = session.rollback({
      sessionId: 'x',
      revision: 1,
      slices: { 'test.Note': [{ id: 1, text: '\u0000' }] },
    });
    expect(!unstorable.ok && unstorable.error.code).toBe('snapshot_invalid');
    expect(session.snapshot()).toBe(before);
  });
});
