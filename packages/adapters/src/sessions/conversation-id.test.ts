import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSessionId } from '../stores/session-id.ts';
import { isConversationId, parseConversationId } from './conversation-id.ts';
import { HOSTILE_IDS } from './testing/hostile-ids.ts';

/** C0 and C1 controls, DEL, and the line and paragraph separators. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029)
      return true;
  }
  return false;
}

describe('conversation ids', () => {
  it('accept what every store accepts: UUIDs, ULIDs, thread ids', () => {
    for (const id of [
      'a',
      'thread-1',
      'user_7:goal_3',
      '0f8fad5b-d9cb-469f-a165-70867728950e',
      '01ARZ3NDEKTSV4RRFFQ69G5FAV',
      'conv_68a1b2c3',
      'a'.repeat(128),
    ]) {
      expect(parseConversationId(id)).toEqual({ ok: true, value: id });
      expect(isConversationId(id)).toBe(true);
    }
  });

  it('refuse hostile ids with conversation_id_invalid, naming the field and the rule', () => {
    for (const id of HOSTILE_IDS) {
      const parsed = parseConversationId(id, 'thread_id');
      expect(
        parsed.ok,
        String(typeof id === 'string' ? JSON.stringify(id.slice(0, 20)) : typeof id),
      ).toBe(false);
      if (parsed.ok) continue;
      expect(parsed.error.code).toBe('conversation_id_invalid');
      expect(parsed.error.field).toBe('thread_id');
      expect(parsed.error.message).toMatch(/^thread_id must be 1-128 characters/);
      expect(parsed.error.message.length).toBeLessThan(300);
      // The value is shown escaped: no raw control character reaches a log or a model.
      expect(hasControlCharacter(parsed.error.message)).toBe(false);
      expect(isConversationId(id)).toBe(false);
    }
  });

  it('are exactly the session ids every store accepts (one rule)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.anything()), (value) => {
        expect(isConversationId(value)).toBe(isSessionId(value));
        expect(parseConversationId(value).ok).toBe(isSessionId(value));
      }),
      { numRuns: 200 },
    );
  }, 30_000);

  it('never contain a path separator, a dot segment or a control character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (value) => {
        if (!isConversationId(value)) return;
        expect(hasControlCharacter(value) || /[/\\]/.test(value)).toBe(false);
        expect(value.split(/[/\\]/)).not.toContain('..');
        expect(value.startsWith('.')).toBe(false);
        expect(value.length).toBeLessThanOrEqual(128);
      }),
    );
  });
});
