import { isSessionId } from './session-id.ts';

// Folder names must stay distinct on case-insensitive file systems (macOS, by default), so
// upper-case letters are escaped as `+` and the lower-case letter. An id with more upper- than
// lower-case letters (a ULID) is stored case-swapped behind a leading `=`, so it stays short
// and readable: at most 1 + 128 + 63 = 192 characters.
const UPPER = /[A-Z]/g;
const ESCAPED = /\+([a-z])/g;
const SWAP = /[A-Za-z]/g;

const swapCase = (text: string): string =>
  text.replace(SWAP, (c) => (c <= 'Z' ? c.toLowerCase() : c.toUpperCase()));

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

/** The folder holding session `sessionId` (a valid session id). */
export function sessionFolderName(sessionId: string): string {
  const swapped = count(sessionId, /[A-Z]/g) > count(sessionId, /[a-z]/g);
  const text = swapped ? swapCase(sessionId) : sessionId;
  return (swapped ? '=' : '') + text.replace(UPPER, (c) => `+${c.toLowerCase()}`);
}

/** The session id a folder holds, or `undefined` for a name FileStore did not make. */
export function sessionIdOfFolder(name: string): string | undefined {
  const swapped = name.startsWith('=');
  const body = swapped ? name.slice(1) : name;
  if (/[A-Z]/.test(body)) return undefined;
  const unescaped = body.replace(ESCAPED, (_, c: string) => c.toUpperCase());
  const id = swapped ? swapCase(unescaped) : unescaped;
  // Only the canonical name of a valid id counts: anything else is not ours.
  return isSessionId(id) && sessionFolderName(id) === name ? id : undefined;
}
