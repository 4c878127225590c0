import { isUtf8 } from 'node:buffer';
import type { Result } from '@plankit/core';
import { isRecord, unknownOption } from '@plankit/core/internal-unstable';
import { WorkspaceError } from './workspace-error.ts';

/** One entry of `planning/meeting.jsonl` (the planning workshop's log): a round's actor, phase and content. @public */
export interface MeetingEntry {
  /** The round it was said in. */
  readonly round: number;
  /** Who said it. */
  readonly actor: string;
  /** The planning state the round was held in. */
  readonly phase: string;
  /** What was said. */
  readonly content: string;
}

/** A last line cut short by a crash: ignored on read and reported. @public */
export interface TornLine {
  /** Where it starts, in bytes from the start of the file. */
  readonly offset: number;
  /** How long it is, in bytes. */
  readonly bytes: number;
}

/** What {@link Workspace.readMeeting} found. @public */
export interface MeetingRead {
  /** The entries, oldest first. */
  readonly entries: readonly MeetingEntry[];
  /** A torn last line, or null. */
  readonly torn: TornLine | null;
}

const KEYS = new Set(['round', 'actor', 'phase', 'content']);
const NEWLINE = 0x0a;

/** Why `value` is not a meeting entry, if it is not. */
export function entryProblem(value: unknown): string | null {
  if (!isRecord(value)) return 'must be { round, actor, phase, content }';
  const entry = value as Record<string, unknown>;
  const extra = unknownOption(entry, KEYS);
  if (extra !== undefined) return `has an unknown key ${JSON.stringify(extra)}`;
  const { round, actor, phase, content } = entry;
  if (typeof round !== 'number' || !Number.isSafeInteger(round) || round < 0)
    return 'round must be a non-negative integer';
  if (typeof actor !== 'string' || actor.length === 0 || actor.length > 64)
    return 'actor must be 1-64 characters';
  if (typeof phase !== 'string' || phase.length === 0 || phase.length > 64)
    return 'phase must be 1-64 characters';
  if (typeof content !== 'string') return 'content must be a string';
  return null;
}

/** The lines of entries, each one JSON object and a newline, keys in a fixed order. */
export function formatEntry(entry: MeetingEntry): Buffer {
  const { round, actor, phase, content } = entry;
  return Buffer.from(`${JSON.stringify({ round, actor, phase, content })}\n`, 'utf8');
}

/**
 * Reads a meeting log. Every complete line must be an entry (`corrupt` otherwise, naming the
 * line); bytes after the last newline are a line a crash cut short, ignored and reported.
 */
export function parseMeeting(bytes: Buffer, path: string): Result<MeetingRead, WorkspaceError> {
  const entries: MeetingEntry[] = [];
  let start = 0;
  let line = 1;
  for (let stop = bytes.indexOf(NEWLINE); stop !== -1; stop = bytes.indexOf(NEWLINE, start)) {
    const text = bytes.subarray(start, stop);
    let value: unknown;
    try {
      value = JSON.parse(text.toString('utf8'));
    } catch {
      value = undefined;
    }
    // Entries are written as valid UTF-8: decoding damaged bytes would put U+FFFD in silently.
    const problem = !isUtf8(text)
      ? 'is not valid UTF-8'
      : value === undefined
        ? 'is not JSON'
        : entryProblem(value);
    if (problem !== null) {
      return {
        ok: false,
        error: new WorkspaceError(
          'corrupt',
          `${path} line ${line} ${problem}; the transcript is damaged.`,
          { path },
        ),
      };
    }
    entries.push(value as MeetingEntry);
    start = stop + 1;
    line++;
  }
  const torn = start < bytes.length ? { offset: start, bytes: bytes.length - start } : null;
  return { ok: true, value: { entries, torn } };
}
