import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binaryString } from '../../../core/src/testing/binary-string.ts';
import {
  sessionFolderName,
  sessionIdOfFolder,
  sessionIdOfHashedFolder,
} from '../persistence/stores/session-folder-name.ts';
import { isSessionId } from '../persistence/stores/session-id.ts';
import { anySessionId, HOST_IDS } from '../persistence/stores/testing/host-ids.ts';
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

/** True when `text` holds a lone surrogate. */
function hasLoneSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return true;
    } else if (code >= 0xdc00 && code <= 0xdfff) return true;
  }
  return false;
}

describe('conversation ids', () => {
  it('accept any id a host generates, as it is: nanoid, UUID, base64, emails, org/chat', () => {
    for (const id of [
      'a',
      'thread-1',
      'user_7:goal_3',
      'conv_68a1b2c3',
      'a'.repeat(128),
      ...HOST_IDS,
    ]) {
      expect(parseConversationId(id)).toEqual({ ok: true, value: id });
      expect(isConversationId(id)).toBe(true);
    }
  });

  it('accept every nanoid, including the 6.25% with _ or - at an end', () => {
    const alphabet = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...alphabet), { minLength: 21, maxLength: 21 }),
        (chars) => {
          expect(isConversationId(chars.join(''))).toBe(true);
        },
      ),
    );
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
      expect(parsed.error.message).toMatch(/^thread_id must be 1-256 characters/);
      expect(parsed.error.message.length).toBeLessThan(300);
      // The value is shown escaped: no raw control character reaches a log or a model.
      expect(hasControlCharacter(parsed.error.message)).toBe(false);
      expect(hasLoneSurrogate(parsed.error.message)).toBe(false);
      expect(isConversationId(id)).toBe(false);
    }
  });

  it('quote at most 40 characters of a refused id, never splitting a surrogate pair', () => {
    for (let at = 30; at <= 45; at++) {
      const id = `${'a'.repeat(at)}\u{1F600}${'b'.repeat(300)}`;
      const refused = parseConversationId(id);
      expect(refused.ok).toBe(false);
      if (refused.ok) continue;
      const quoted = /got "([^"]*)"/.exec(refused.error.message)?.[1] ?? '';
      expect(quoted.length).toBeLessThanOrEqual(40);
      expect(quoted.endsWith('...')).toBe(true);
      expect(hasLoneSurrogate(refused.error.message)).toBe(false);
    }
  });

  it('are exactly the session ids every store accepts (one rule)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), binaryString(), fc.anything()), (value) => {
        expect(isConversationId(value)).toBe(isSessionId(value));
        expect(parseConversationId(value).ok).toBe(isSessionId(value));
      }),
      { numRuns: 200 },
    );
  }, 30_000);

  it('are the strings of 1-256 code units without a control character, lone surrogate or dot segment', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          binaryString({ maxLength: 300 }),
          binaryString({ minLength: 250, maxLength: 260 }),
          anySessionId,
        ),
        (value) => {
          const expected =
            value.length >= 1 &&
            value.length <= 256 &&
            !hasControlCharacter(value) &&
            !hasLoneSurrogate(value) &&
            !value.split(/[/\\]/).some((segment) => segment === '.' || segment === '..');
          expect(isConversationId(value)).toBe(expected);
        },
      ),
    );
  });

  it('map to a FileStore folder that gives the id back, and never to a path', () => {
    fc.assert(
      fc.property(fc.oneof(binaryString({ maxLength: 300 }), anySessionId), (value) => {
        if (!isConversationId(value)) return;
        const name = sessionFolderName(value);
        expect(name).toMatch(/^[a-z0-9_.:+=%~-]+$/);
        expect(name === '.' || name === '..' || name.startsWith('.')).toBe(false);
        const back = sessionIdOfFolder(name);
        expect(back === 'hashed' ? sessionIdOfHashedFolder(name, value) : back).toBe(value);
      }),
      { numRuns: 300 },
    );
  });
});
