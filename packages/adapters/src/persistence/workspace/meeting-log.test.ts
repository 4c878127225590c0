import { appendFile, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Result } from '@plankit/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MeetingEntry } from './meeting-log.ts';
import { openWorkspace, type Workspace } from './open-workspace.ts';
import type { WorkspaceError } from './workspace-error.ts';

let dir: string;
let workspace: Workspace;
const file = () => path.join(workspace.root, 'planning', 'meeting.jsonl');

function ok<T>(result: Result<T, WorkspaceError>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

const entry = (round: number, content: string): MeetingEntry => ({
  round,
  actor: 'planner',
  phase: 'workshop',
  content,
});

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'plankit-meeting-'));
  workspace = ok(await openWorkspace(dir));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('planning/meeting.jsonl', () => {
  it('appends one JSON line per entry and reads them back', async () => {
    expect(ok(await workspace.readMeeting())).toEqual({ entries: [], torn: null });
    expect(
      ok(await workspace.appendMeeting([entry(1, 'Which provider?'), entry(1, 'Okta.')])),
    ).toEqual({
      appended: 2,
      repaired: null,
    });
    ok(await workspace.appendMeeting([entry(2, 'line one\nline two')]));
    expect(await readFile(file(), 'utf8')).toBe(
      [
        '{"round":1,"actor":"planner","phase":"workshop","content":"Which provider?"}',
        '{"round":1,"actor":"planner","phase":"workshop","content":"Okta."}',
        '{"round":2,"actor":"planner","phase":"workshop","content":"line one\\nline two"}',
        '',
      ].join('\n'),
    );
    expect(ok(await workspace.readMeeting()).entries).toEqual([
      entry(1, 'Which provider?'),
      entry(1, 'Okta.'),
      entry(2, 'line one\nline two'),
    ]);
  });

  it('takes concurrent appends in turn: each call keeps its entries together, none is lost', async () => {
    // Two workspaces on one folder share the turn, as two parts of one process would.
    const other = ok(await openWorkspace(dir));
    const calls = Array.from({ length: 8 }, (_, call) =>
      Array.from({ length: 5 }, (_, index) => entry(call, `call ${call} entry ${index}`)),
    );
    const results = await Promise.all(
      calls.map((entries, call) => (call % 2 === 0 ? workspace : other).appendMeeting(entries)),
    );
    for (const result of results) expect(ok(result)).toEqual({ appended: 5, repaired: null });
    const read = ok(await workspace.readMeeting());
    expect(read.torn).toBeNull();
    expect(read.entries).toHaveLength(40);
    // Each call's five entries are contiguous and in order, whichever call went first.
    for (let start = 0; start < 40; start += 5) {
      const call = read.entries[start]?.round;
      expect(read.entries.slice(start, start + 5)).toEqual(calls[call ?? -1]);
    }
  });

  it('ignores and reports a torn last line, and cuts it off before the next append', async () => {
    ok(await workspace.appendMeeting([entry(1, 'kept')]));
    const size = (await readFile(file())).length;
    await appendFile(file(), '{"round":2,"actor":"plan');
    expect(ok(await workspace.readMeeting())).toEqual({
      entries: [entry(1, 'kept')],
      torn: { offset: size, bytes: 24 },
    });
    expect(ok(await workspace.appendMeeting([entry(2, 'next')]))).toEqual({
      appended: 1,
      repaired: { offset: size, bytes: 24 },
    });
    expect(ok(await workspace.readMeeting())).toEqual({
      entries: [entry(1, 'kept'), entry(2, 'next')],
      torn: null,
    });
  });

  it('cuts a torn line longer than the tail window', async () => {
    ok(await workspace.appendMeeting([entry(1, 'kept')]));
    await appendFile(file(), `{"round":2,"content":"${'x'.repeat(200 * 1024)}`);
    ok(await workspace.appendMeeting([entry(2, 'next')]));
    expect(ok(await workspace.readMeeting()).entries).toHaveLength(2);
    await writeFile(file(), 'no newline at all');
    expect(ok(await workspace.appendMeeting([entry(3, 'fresh')])).repaired).toEqual({
      offset: 0,
      bytes: 17,
    });
    expect(ok(await workspace.readMeeting()).entries).toEqual([entry(3, 'fresh')]);
  });

  it('reports a damaged line that is not the last as corrupt, naming it', async () => {
    ok(await workspace.appendMeeting([entry(1, 'a')]));
    await appendFile(file(), '{"round":"two"}\n');
    ok(await workspace.appendMeeting([entry(3, 'c')]));
    const read = await workspace.readMeeting();
    expect(read.ok).toBe(false);
    if (!read.ok) {
      expect(read.error.code).toBe('corrupt');
      expect(read.error.message).toBe(
        'planning/meeting.jsonl line 2 round must be a non-negative integer; the transcript is damaged.',
      );
    }
  });

  it('reports a line that is not valid UTF-8 as corrupt, never reading it as U+FFFD', async () => {
    ok(await workspace.appendMeeting([entry(1, 'ab'), entry(2, 'c')]));
    const bytes = await readFile(file());
    bytes[bytes.indexOf('"ab"') + 1] = 0xff;
    await writeFile(file(), bytes);
    const read = await workspace.readMeeting();
    expect(read.ok).toBe(false);
    if (!read.ok) {
      expect(read.error.code).toBe('corrupt');
      expect(read.error.message).toBe(
        'planning/meeting.jsonl line 1 is not valid UTF-8; the transcript is damaged.',
      );
    }
  });

  it('writes the whole line when a write stops short (a disk nearly full)', async () => {
    const probe = await open(path.join(dir, 'probe'), 'w');
    await probe.close();
    const proto = Object.getPrototypeOf(probe) as Record<string, (...args: never[]) => unknown>;
    const original = proto['write'] as (...args: unknown[]) => Promise<{ bytesWritten: number }>;
    // The kernel may write part of a buffer and report how much: the rest is still to write.
    vi.spyOn(proto, 'write').mockImplementationOnce(async function (this: unknown, buffer: Buffer) {
      return original.call(this, buffer, 0, 10);
    } as never);
    try {
      expect(ok(await workspace.appendMeeting([entry(1, 'whole')])).appended).toBe(1);
    } finally {
      vi.restoreAllMocks();
    }
    expect(ok(await workspace.readMeeting())).toEqual({ entries: [entry(1, 'whole')], torn: null });
  });

  it('checks entries before writing any', async () => {
    const bad = await workspace.appendMeeting([
      entry(1, 'a'),
      { ...entry(1, 'b'), mood: 'happy' } as never,
    ]);
    expect(bad.ok === false && bad.error.message).toBe(
      'appendMeeting: entries[1] has an unknown key "mood".',
    );
    expect(ok(await workspace.readMeeting()).entries).toEqual([]);
  });

  it('archives the transcript under the next free number', async () => {
    expect(ok(await workspace.archiveMeeting())).toBeNull();
    ok(await workspace.appendMeeting([entry(1, 'first')]));
    expect(ok(await workspace.archiveMeeting())).toBe('planning/archive/meeting_1.jsonl');
    ok(await workspace.appendMeeting([entry(2, 'second')]));
    expect(ok(await workspace.archiveMeeting())).toBe('planning/archive/meeting_2.jsonl');
    expect(ok(await workspace.readMeeting()).entries).toEqual([]);
    expect(await readFile(path.join(dir, 'planning/archive/meeting_1.jsonl'), 'utf8')).toContain(
      '"first"',
    );
  });
});
