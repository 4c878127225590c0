import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendedSince, CallLog, CHUNK_SIZE, logChunks, logCopies, logReads } from './call-log.ts';

function appendMany(log: CallLog, from: number, count: number, cap?: number): CallLog {
  let next = log;
  for (let i = from; i < from + count; i++) next = next.append(i, cap);
  return next;
}

describe('CallLog', () => {
  it('appends without copying or touching old chunks, however long the log', () => {
    const before = { ...logCopies };
    const log = appendMany(CallLog.EMPTY, 0, 50 * CHUNK_SIZE);
    const chunks = logChunks(log);
    const snapshot = chunks.map((chunk) => [...chunk.items]);
    const longer = appendMany(log, 50 * CHUNK_SIZE, 10 * CHUNK_SIZE + 3);
    // No entry was copied: every append wrote one slot of the newest chunk.
    expect(logCopies).toEqual(before);
    // The old chunks are the same objects holding the same entries.
    const after = logChunks(longer);
    for (const [i, chunk] of chunks.entries()) {
      expect(after[i]).toBe(chunk);
      expect(chunk.items).toEqual(snapshot[i]);
    }
    expect(after).toHaveLength(61);
    // The new version reads everything; the old one still reads only its own entries.
    expect(longer.toArray()).toEqual(Array.from({ length: 60 * CHUNK_SIZE + 3 }, (_, i) => i));
    expect(log.toArray()).toEqual(Array.from({ length: 50 * CHUNK_SIZE }, (_, i) => i));
  });

  it('copies at most one chunk when appending to an older version (after a rollback)', () => {
    const base = appendMany(CallLog.EMPTY, 0, 10 * CHUNK_SIZE + 5);
    appendMany(base, 1000, 3);
    const before = logCopies.entries;
    const branch = base.append('x');
    expect(logCopies.entries - before).toBe(5);
    expect(branch.toArray().slice(-2)).toEqual([10 * CHUNK_SIZE + 4, 'x']);
    expect(base.toArray()).toHaveLength(10 * CHUNK_SIZE + 5);
  });

  it('keeps only the newest `cap` entries and unlinks old chunks in bounded steps', () => {
    const cap = 100;
    let log = CallLog.EMPTY;
    let worst = 0;
    for (let i = 0; i < 20_000; i++) {
      const before = logCopies.chunks;
      log = log.append(i, cap);
      worst = Math.max(worst, logCopies.chunks - before);
      expect(log.length).toBe(Math.min(i + 1, cap));
    }
    // A compaction relinks about cap / CHUNK_SIZE chunks, never the whole history.
    expect(worst).toBeLessThanOrEqual(Math.ceil(cap / CHUNK_SIZE) + 2);
    expect(logChunks(log).length).toBeLessThanOrEqual(Math.ceil((2 * cap) / CHUNK_SIZE) + 3);
    expect(log.toArray()).toEqual(Array.from({ length: cap }, (_, i) => 19_900 + i));
    expect(log.latest()).toBe(19_999);
  });

  it('builds a frozen array once per version', () => {
    const log = CallLog.from([1, 2, 3]);
    expect(Object.isFrozen(log.toArray())).toBe(true);
    expect(log.toArray()).toBe(log.toArray());
    expect(CallLog.EMPTY.latest()).toBeUndefined();
  });
});

describe('appendedSince', () => {
  it('returns only what a later version appended, reading no older entry', () => {
    const log = appendMany(CallLog.EMPTY, 0, 20 * CHUNK_SIZE + 5);
    const reads = logReads.entries;
    expect(appendedSince(appendMany(log, 20 * CHUNK_SIZE + 5, 3), log)).toEqual([
      20 * CHUNK_SIZE + 5,
      20 * CHUNK_SIZE + 6,
      20 * CHUNK_SIZE + 7,
    ]);
    expect(appendedSince(log, log)).toEqual([]);
    expect(logReads.entries - reads).toBe(3);
  });

  it('returns undefined for another lineage or a diverged branch, and respects the cap', () => {
    const log = appendMany(CallLog.EMPTY, 0, 10);
    const branchA = log.append('a');
    const branchB = log.append('b');
    expect(appendedSince(branchB, branchA)).toBeUndefined();
    expect(appendedSince(branchA, branchB.append('c'))).toBeUndefined();
    expect(appendedSince(CallLog.from(log.toArray()).append('x'), log)).toBeUndefined();
    const capped = appendMany(log, 10, 1, 3);
    expect(appendedSince(capped, log)).toEqual([10]);
    // The cap dropped everything `log` held: every kept entry is new.
    expect(appendedSince(appendMany(log, 10, 5, 2), log)).toEqual([13, 14]);
  });
});

describe('appendedSince, property', () => {
  it('never misses an entry the newer version holds and the older one does not', () => {
    // Random histories of appends, rollbacks to any earlier version and caps; any two
    // versions: when appendedSince answers, it holds every new entry (safe for a checker).
    const step = fc.oneof(
      fc.record({ kind: fc.constant('append' as const), count: fc.integer({ min: 1, max: 70 }) }),
      fc.record({ kind: fc.constant('back' as const), to: fc.nat() }),
    );
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 30 }),
        fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
        fc.nat(),
        fc.nat(),
        (steps, cap, i, j) => {
          const versions = [CallLog.EMPTY];
          let current = CallLog.EMPTY;
          let n = 0;
          for (const s of steps) {
            if (s.kind === 'back') current = versions[s.to % versions.length] as CallLog;
            else
              for (let k = 0; k < s.count; k++) {
                current = current.append({ n: n++ }, cap);
                versions.push(current);
              }
          }
          const older = versions[i % versions.length] as CallLog;
          const newer = versions[j % versions.length] as CallLog;
          const appended = appendedSince(newer, older);
          if (appended === undefined) return;
          const had = new Set(older.toArray());
          const got = new Set(appended);
          for (const entry of newer.toArray())
            if (!had.has(entry)) expect(got.has(entry)).toBe(true);
          // And nothing it returns is outside the newer version.
          const holds = new Set(newer.toArray());
          for (const entry of appended) expect(holds.has(entry)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
