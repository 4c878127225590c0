import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatLogLines, scanLog } from './event-log.ts';

/** A log of appends of the given sizes, and the byte offset where each append ends. */
function logOf(sizes: readonly number[]): { bytes: Buffer; ends: number[]; versions: number[] } {
  const parts: Buffer[] = [];
  const ends: number[] = [];
  const versions: number[] = [];
  let version = 0;
  let offset = 0;
  for (const size of sizes) {
    const events = Array.from({ length: size }, (_, i) => ({
      type: 'test.Event',
      at: version + i + 1,
      dataText: JSON.stringify({ n: version + i + 1, text: 'é'.repeat((version * 7) % 13) }),
    }));
    const part = formatLogLines(events, version + 1);
    parts.push(part);
    version += size;
    offset += part.length;
    ends.push(offset);
    versions.push(version);
  }
  return { bytes: Buffer.concat(parts), ends, versions };
}

const sizes = fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 12 });

describe('scanLog', () => {
  it('reads a whole log', () => {
    fc.assert(
      fc.property(sizes, (appends) => {
        const { bytes, versions } = logOf(appends);
        const scan = scanLog(bytes, 1, true);
        const version = versions.at(-1) ?? 0;
        expect(scan).toMatchObject({
          version,
          cleanEnd: bytes.length,
          tornBytes: 0,
          corrupt: undefined,
        });
        expect(scan.lines.map((line) => line.seq)).toEqual(
          Array.from({ length: version }, (_, i) => i + 1),
        );
      }),
    );
  });

  it('keeps exactly the appends completed before a crash cut the log anywhere', () => {
    fc.assert(
      fc.property(
        sizes,
        fc.nat(),
        fc.constantFrom('', '\u0000\u0000\u0000\u0000', '{"seq":'),
        (appends, cutAt, junk) => {
          const { bytes, ends, versions } = logOf(appends);
          const cut = cutAt % (bytes.length + 1);
          const crashed = Buffer.concat([bytes.subarray(0, cut), Buffer.from(junk)]);
          const complete = ends.filter((end) => end <= cut).length;
          const version = complete === 0 ? 0 : (versions[complete - 1] as number);
          const cleanEnd = complete === 0 ? 0 : (ends[complete - 1] as number);
          const scan = scanLog(crashed, 1, true);
          expect(scan.corrupt).toBeUndefined();
          expect(scan.version).toBe(version);
          expect(scan.cleanEnd).toBe(cleanEnd);
          expect(scan.tornBytes).toBe(crashed.length - cleanEnd);
          expect(scan.lines).toHaveLength(version);
          // Reading only the end of the log (as an append does) finds the same end.
          const from = Math.min(cleanEnd, ends[Math.max(0, complete - 2)] ?? 0);
          const window = scanLog(crashed.subarray(from), undefined, false);
          if (window.version !== undefined) expect(from + window.cleanEnd).toBe(cleanEnd);
        },
      ),
    );
  });

  it('calls damage before a later append corrupt', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 2, maxLength: 8 }),
        fc.nat(),
        (appends, pick) => {
          const { bytes, ends } = logOf(appends);
          // Damage one line of any append but the last.
          const index = pick % (ends.length - 1);
          const start = index === 0 ? 0 : (ends[index - 1] as number);
          const damaged = Buffer.from(bytes);
          damaged.fill(0x20, start + 1, start + 5);
          const scan = scanLog(damaged, 1, true);
          expect(scan.corrupt).toContain('cannot be read past event');
          expect(scan.tornBytes).toBe(0);
        },
      ),
    );
  });

  it('calls a line put before an append corrupt, the last append included', () => {
    fc.assert(
      fc.property(
        sizes,
        fc.nat(),
        fc.constantFrom('\n', '\u0000\u0000\n', '{"seq":\n'),
        (appends, pick, junk) => {
          const { bytes, ends } = logOf(appends);
          // Before any append: the first line of an append is where the one before it ended.
          const index = pick % ends.length;
          const at = index === 0 ? 0 : (ends[index - 1] as number);
          const edited = Buffer.concat([
            bytes.subarray(0, at),
            Buffer.from(junk),
            bytes.subarray(at),
          ]);
          const scan = scanLog(edited, 1, true);
          expect(scan.corrupt).toContain('cannot be read past event');
          expect(scan.tornBytes).toBe(0);
        },
      ),
    );
  });

  it('reads a line that is not valid UTF-8 as damaged, never as U+FFFD', () => {
    fc.assert(
      fc.property(sizes, fc.nat(), (appends, pick) => {
        const { bytes, ends, versions } = logOf(appends);
        // One byte of a line's data string becomes 0xff, which UTF-8 never holds.
        const index = pick % ends.length;
        const start = index === 0 ? 0 : (ends[index - 1] as number);
        const damaged = Buffer.from(bytes);
        damaged[damaged.indexOf('"text":"', start) + 8] = 0xff;
        const scan = scanLog(damaged, 1, true);
        if (index === ends.length - 1) {
          // In the last append: as a crash could leave it, never acknowledged.
          expect(scan.corrupt).toBeUndefined();
          expect(scan.version).toBe(index === 0 ? 0 : versions[index - 1]);
          expect(scan.tornBytes).toBe(bytes.length - start);
        } else {
          expect(scan.corrupt).toContain('cannot be read past event');
        }
      }),
    );
  });
});
