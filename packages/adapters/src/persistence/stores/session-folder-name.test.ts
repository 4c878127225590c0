import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isHashedFolderName,
  sessionFolderName,
  sessionIdOfFolder,
  sessionIdOfHashedFolder,
} from './session-folder-name.ts';
import { isSessionId } from './session-id.ts';
import { anySessionId, HOST_IDS } from './testing/host-ids.ts';

/** The session id rule before 0.x: FileStore folders made then must still be found. */
const OLD_CHARS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-'];
const OLD_EDGE = [...'aZ09'];
const oldSessionId = fc
  .tuple(
    fc.constantFrom(...OLD_EDGE),
    fc.array(fc.constantFrom(...OLD_CHARS), { maxLength: 126 }),
    fc.constantFrom(...OLD_EDGE),
  )
  .map(([first, middle, last]) => `${first}${middle.join('')}${last}`);

/** The folder name FileStore gave an id of the old rule (the old encoder, kept as a model). */
function oldFolderName(sessionId: string): string {
  const upper = sessionId.match(/[A-Z]/g)?.length ?? 0;
  const lower = sessionId.match(/[a-z]/g)?.length ?? 0;
  const swapped = upper > lower;
  const text = swapped
    ? sessionId.replace(/[A-Za-z]/g, (c) => (c <= 'Z' ? c.toLowerCase() : c.toUpperCase()))
    : sessionId;
  return (swapped ? '=' : '') + text.replace(/[A-Z]/g, (c) => `+${c.toLowerCase()}`);
}

/** The id a folder name gives back, reading the id file of a hashed one. */
function readBack(name: string, id: string): string | undefined {
  const direct = sessionIdOfFolder(name);
  return direct === 'hashed' ? sessionIdOfHashedFolder(name, id) : direct;
}

describe('session folder names', () => {
  it('read back as the id they were made from, for any valid id', () => {
    fc.assert(
      fc.property(anySessionId, (id) => {
        expect(isSessionId(id)).toBe(true);
        const name = sessionFolderName(id);
        expect(readBack(name, id)).toBe(id);
        // A hashed folder's id file naming another id is not taken for this folder's.
        if (isHashedFolderName(name))
          expect(sessionIdOfHashedFolder(name, `${id}x`)).toBe(undefined);
      }),
      { numRuns: 500 },
    );
    for (const id of HOST_IDS) expect(readBack(sessionFolderName(id), id), id).toBe(id);
  });

  it('keep the names ids of the old rule always had, so existing folders are found', () => {
    fc.assert(
      fc.property(oldSessionId, (id) => {
        expect(sessionFolderName(id)).toBe(oldFolderName(id));
        expect(sessionIdOfFolder(oldFolderName(id))).toBe(id);
      }),
      { numRuns: 500 },
    );
  });

  it('stay distinct on case-insensitive file systems, short, ASCII, and never hidden', () => {
    const ids = fc.oneof(anySessionId, oldSessionId, fc.constantFrom(...HOST_IDS));
    fc.assert(
      fc.property(ids, ids, (a, b) => {
        const [x, y] = [sessionFolderName(a), sessionFolderName(b)];
        if (a !== b) expect(x.toLowerCase()).not.toBe(y.toLowerCase());
        for (const name of [x, y]) {
          expect(name).toMatch(/^[a-z0-9_.:+=%~-]+$/);
          expect(name.startsWith('.')).toBe(false);
          expect(name.endsWith('.')).toBe(false);
          expect(name.length).toBeLessThanOrEqual(192);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('keep host ids readable', () => {
    expect(sessionFolderName('job-42')).toBe('job-42');
    expect(sessionFolderName('Job-42')).toBe('+job-42');
    expect(sessionFolderName('01ARZ3NDEKTSV4RRFFQ69G5FAV')).toBe('=01arz3ndektsv4rrffq69g5fav');
    expect(sessionFolderName('01ARZ3NDEKTSV4RRFFQ69G5FaV')).toBe('=01arz3ndektsv4rrffq69g5f+av');
    expect(sessionFolderName('A'.repeat(128))).toHaveLength(129);
    expect(sessionFolderName(`${'Ab'.repeat(63)}AB`)).toHaveLength(192);
    expect(sessionFolderName('_V1StGXR8-')).toBe('=_v1s+tgxr8-');
    expect(sessionFolderName('_v1StGxr8-')).toBe('_v1+st+gxr8-');
    expect(sessionFolderName('a@b.c')).toBe('a%40b.c');
    expect(sessionFolderName('org/chat')).toBe('org%2fchat');
    expect(sessionFolderName('q1s+/A==')).toBe('q1s%2b%2f+a%3d%3d');
    expect(sessionFolderName('.hidden')).toBe('%2ehidden');
    expect(sessionFolderName('ends.')).toBe('ends%2e');
    expect(sessionFolderName('é')).toBe('%c3%a9');
    expect(sessionFolderName('a%2Fb')).toBe('a%252+fb');
    // Past 192 characters: a readable prefix, `~` and 40 hex digits of SHA-256.
    const hashed = sessionFolderName('/'.repeat(256));
    expect(hashed).toMatch(/^(?:%2f){40}~[0-9a-f]{40}$/);
    expect(isHashedFolderName(hashed)).toBe(true);
    expect(sessionIdOfFolder(hashed)).toBe('hashed');
    expect(sessionFolderName('x'.repeat(256))).toMatch(/^x{120}~[0-9a-f]{40}$/);
    expect(sessionFolderName('😀'.repeat(128))).toMatch(/^(?:%f0%9f%98%80){10}~[0-9a-f]{40}$/);
  });

  it('refuse names FileStore did not make', () => {
    for (const name of [
      '.trash-1',
      '.lock-x',
      'Job',
      '+J',
      '=a+b',
      'a+',
      '+',
      '=',
      '',
      '..',
      '%2e%2e',
      '%2e',
      'a%2f%2e%2e',
      'a b',
      'a/b',
      '%61',
      '%2E',
      '%c3',
      '%ed%a0%80',
      '%00',
      'a%2',
      '.hidden',
      'ends.',
      'x'.repeat(129 + 128),
      `${'x'.repeat(10)}~${'0'.repeat(40)}x`,
      `~${'0'.repeat(39)}`,
    ]) {
      expect(sessionIdOfFolder(name), name).toBeUndefined();
    }
  });
});
