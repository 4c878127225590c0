import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sessionFolderName, sessionIdOfFolder } from './session-folder-name.ts';
import { isSessionId } from './session-id.ts';

const CHARS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-'];
const EDGE = [...'aZ09'];
const sessionId = fc
  .tuple(
    fc.constantFrom(...EDGE),
    fc.array(fc.constantFrom(...CHARS), { maxLength: 126 }),
    fc.constantFrom(...EDGE),
  )
  .map(([first, middle, last]) =>
    middle.length === 0 && Math.random() < 0 ? first : `${first}${middle.join('')}${last}`,
  )
  .filter(isSessionId);

describe('session folder names', () => {
  it('read back as the id they were made from', () => {
    fc.assert(
      fc.property(sessionId, (id) => {
        expect(sessionIdOfFolder(sessionFolderName(id))).toBe(id);
      }),
    );
  });

  it('stay distinct on case-insensitive file systems, short, and never hidden', () => {
    fc.assert(
      fc.property(sessionId, sessionId, (a, b) => {
        const [x, y] = [sessionFolderName(a), sessionFolderName(b)];
        if (a !== b) expect(x.toLowerCase()).not.toBe(y.toLowerCase());
        for (const name of [x, y]) {
          expect(name).toMatch(/^[a-z0-9_.:+=~-]+$/);
          expect(name.startsWith('.')).toBe(false);
          expect(name.length).toBeLessThanOrEqual(192);
        }
      }),
    );
  });

  it('keep common ids readable', () => {
    expect(sessionFolderName('job-42')).toBe('job-42');
    expect(sessionFolderName('Job-42')).toBe('+job-42');
    expect(sessionFolderName('01ARZ3NDEKTSV4RRFFQ69G5FAV')).toBe('=01arz3ndektsv4rrffq69g5fav');
    expect(sessionFolderName('01ARZ3NDEKTSV4RRFFQ69G5FaV')).toBe('=01arz3ndektsv4rrffq69g5f+av');
    expect(sessionFolderName('A'.repeat(128))).toHaveLength(129);
    expect(sessionFolderName(`${'Ab'.repeat(63)}AB`)).toHaveLength(192);
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
      'a b',
      'a/b',
      'x'.repeat(129),
    ]) {
      expect(sessionIdOfFolder(name), name).toBeUndefined();
    }
  });
});
