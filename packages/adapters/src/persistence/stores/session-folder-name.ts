import { createHash } from 'node:crypto';
import { isSessionId } from './session-id.ts';

// Folder names are lower-case ASCII, so they stay distinct on case-insensitive file systems
// (macOS, Windows by default) and untouched by Unicode normalization (HFS+):
// - `a-z 0-9 _ : -` and `.` (except first or last) stand for themselves;
// - an upper-case letter is `+` and the lower-case letter;
// - anything else is `%` and its UTF-8 bytes in lower-case hex: `a@b.c` is `a%40b.c`;
// - an id with more upper- than lower-case letters (a ULID) is stored case-swapped behind a
//   leading `=`, so it stays short and readable.
// Ids of the old rule (ASCII letters, digits, `_ . : -`, alphanumeric at both ends) need no
// `%`, so they keep the folder names they always had. A name longer than DIRECT_MAX (an id
// of many escaped characters) is cut to a readable prefix and ends in `~` and a SHA-256 of
// the id; the folder then holds the id in SESSION_ID_FILE.
const DIRECT_MAX = 192;
const PREFIX_MAX = 120;
const HASH_HEX = 40;
const PLAIN = /[a-z0-9_:-]/;
const OLD_RULE = /^[A-Za-z0-9](?:[A-Za-z0-9_.:-]{0,126}[A-Za-z0-9])?$/;
const UPPER = /[A-Z]/g;
const LOWER = /[a-z]/g;
const SWAP = /[A-Za-z]/g;
const DIRECT_NAME = /^=?(?:[a-z0-9_.:-]|\+[a-z]|%[0-9a-f]{2})+$/;
const HASHED_NAME = new RegExp(`^=?(?:[a-z0-9_.:-]|\\+[a-z]|%[0-9a-f]{2})*~[0-9a-f]{${HASH_HEX}}$`);
const TOKEN = /\+([a-z])|%([0-9a-f]{2})|([a-z0-9_.:-])/gy;
const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The file a hashed session folder keeps its id in (a folder name cannot hold it). */
export const SESSION_ID_FILE = 'session-id';

const swapCase = (text: string): string =>
  text.replace(SWAP, (c) => (c <= 'Z' ? c.toLowerCase() : c.toUpperCase()));

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

/** The escaped form of one character, at the start or end of the id or within it. */
function escapeCharacter(c: string, edge: boolean): string {
  if (PLAIN.test(c) || (c === '.' && !edge)) return c;
  if (c >= 'A' && c <= 'Z') return `+${c.toLowerCase()}`;
  let out = '';
  for (const byte of utf8.encode(c)) out += `%${byte.toString(16).padStart(2, '0')}`;
  return out;
}

/** The escaped characters of `sessionId` (a valid session id), after the `=` case swap. */
function tokensOf(sessionId: string): { readonly swapped: boolean; readonly tokens: string[] } {
  const swapped = count(sessionId, UPPER) > count(sessionId, LOWER);
  const text = swapped ? swapCase(sessionId) : sessionId;
  const characters = [...text];
  const last = characters.length - 1;
  return { swapped, tokens: characters.map((c, i) => escapeCharacter(c, i === 0 || i === last)) };
}

/**
 * The folder holding session `sessionId` (a valid session id): a reversible, case-safe
 * encoding of the id, or, past 192 characters, a readable prefix of it, `~` and a hash.
 */
export function sessionFolderName(sessionId: string): string {
  // The common case, ids of the old rule, without splitting into characters.
  if (OLD_RULE.test(sessionId)) {
    const swapped = count(sessionId, UPPER) > count(sessionId, LOWER);
    const text = swapped ? swapCase(sessionId) : sessionId;
    return (swapped ? '=' : '') + text.replace(UPPER, (c) => `+${c.toLowerCase()}`);
  }
  const { swapped, tokens } = tokensOf(sessionId);
  const name = (swapped ? '=' : '') + tokens.join('');
  if (name.length <= DIRECT_MAX) return name;
  let prefix = swapped ? '=' : '';
  for (const token of tokens) {
    if (prefix.length + token.length > PREFIX_MAX) break;
    prefix += token;
  }
  const hash = createHash('sha256').update(sessionId, 'utf8').digest('hex').slice(0, HASH_HEX);
  return `${prefix}~${hash}`;
}

/** True when `name` is a hashed folder name, whose id is in its {@link SESSION_ID_FILE}. */
export function isHashedFolderName(name: string): boolean {
  return name.includes('~') && HASHED_NAME.test(name);
}

/**
 * The session id a folder holds, `undefined` for a name FileStore did not make, or `'hashed'`
 * when only the folder's {@link SESSION_ID_FILE} can tell (see {@link sessionIdOfHashedFolder}).
 */
export function sessionIdOfFolder(name: string): string | 'hashed' | undefined {
  if (isHashedFolderName(name)) return 'hashed';
  if (!DIRECT_NAME.test(name)) return undefined;
  const swapped = name.startsWith('=');
  const bytes: number[] = [];
  TOKEN.lastIndex = swapped ? 1 : 0;
  for (let match = TOKEN.exec(name); match !== null; match = TOKEN.exec(name)) {
    const [, upper, hex, plain] = match;
    const text = upper?.toUpperCase() ?? plain;
    if (text !== undefined) bytes.push(text.charCodeAt(0));
    else bytes.push(Number.parseInt(hex as string, 16));
  }
  let text: string;
  try {
    text = strictUtf8.decode(Uint8Array.from(bytes));
  } catch {
    return undefined;
  }
  const id = swapped ? swapCase(text) : text;
  // Only the canonical name of a valid id counts: anything else is not ours.
  return isSessionId(id) && sessionFolderName(id) === name ? id : undefined;
}

/** The id a hashed folder's {@link SESSION_ID_FILE} holds, when it is the folder's own. */
export function sessionIdOfHashedFolder(name: string, fileText: string): string | undefined {
  return isSessionId(fileText) && sessionFolderName(fileText) === name ? fileText : undefined;
}
