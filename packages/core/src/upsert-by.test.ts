import { describe, expect, it } from 'vitest';
import { upsertBy } from './upsert-by.ts';

type Contact = { email: string; name: string };
const event = (value: Contact) => ({ dataType: 't', value, sessionId: 's', at: 0 });

describe('upsertBy', () => {
  it('replaces the item with the same key in place, or appends', () => {
    const byEmail = upsertBy<Contact>('email');
    const slice = [
      { email: 'a@x', name: 'A' },
      { email: 'b@x', name: 'B' },
    ];
    expect(byEmail(slice, event({ email: 'a@x', name: 'A2' }))).toEqual([
      { email: 'a@x', name: 'A2' },
      { email: 'b@x', name: 'B' },
    ]);
    expect(byEmail(slice, event({ email: 'c@x', name: 'C' }))).toHaveLength(3);
    expect(slice[0]?.name).toBe('A');
  });

  it('accepts a key function', () => {
    const byDomain = upsertBy<Contact>((c) => c.email.split('@')[1]);
    expect(byDomain([{ email: 'a@x', name: 'A' }], event({ email: 'b@x', name: 'B' }))).toEqual([
      { email: 'b@x', name: 'B' },
    ]);
  });

  it('returns the same reducer for the same key, so registering twice stays a no-op', () => {
    const key = (c: Contact) => c.email;
    expect(upsertBy<Contact>('email')).toBe(upsertBy<Contact>('email'));
    expect(upsertBy(key)).toBe(upsertBy(key));
    expect(upsertBy<Contact>('name')).not.toBe(upsertBy<Contact>('email'));
  });

  it('refuses a key that is neither a name nor a function', () => {
    expect(() => upsertBy(5 as never)).toThrow(/key must be a property name or a function/);
  });
});
