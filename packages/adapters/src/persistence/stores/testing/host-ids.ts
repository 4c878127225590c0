import * as fc from 'fast-check';

/**
 * Ids hosts generate, which every store and every host resolver must accept and give back
 * exactly: nanoid (with `_` and `-` at either end), UUID, ULID, base64 (`+ / =`), base64url,
 * `conv_…`, emails, `org/chat` paths, spaces, non-ASCII, and 256-character ids whose folder
 * names `FileStore` has to hash.
 */
export const HOST_IDS: readonly string[] = [
  'V1StGXR8_Z5jdHi6B-myT',
  '_V1StGXR8Z5jdHi6BmyT',
  'V1StGXR8Z5jdHi6BmyT_',
  '-V1StGXR8Z5jdHi6BmyT',
  'V1StGXR8Z5jdHi6BmyT-',
  '__-_',
  '0f8fad5b-d9cb-469f-a165-70867728950e',
  '01ARZ3NDEKTSV4RRFFQ69G5FAV',
  'q1s+/A==',
  '////',
  '+/+/AAEC/w==',
  'q1s-_A',
  'conv_68a1b2c3d4e5f6a7b8c9',
  'a@b.c',
  'Jane.Doe+tag@Example.com',
  'org/chat',
  'acme/support/ticket 42',
  '/leading/slash',
  '.hidden',
  'ends.',
  '...',
  'a%2Fb',
  '~home',
  '=eq',
  '+plus',
  ' padded ',
  'ünïcödé',
  '会话-1',
  '😀',
  '__proto__',
  'x'.repeat(256),
  'X'.repeat(256),
  '/'.repeat(256),
  '😀'.repeat(128),
];

const SAFE_CHARS = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 1 })
  .filter((c) => !/[\p{Cc}\p{Zl}\p{Zp}]/u.test(c));

const idPart = fc.oneof(
  fc.constantFrom(...'aZ09_-.:/\\+=%~@ '),
  fc.constantFrom('é', 'ß', '😀', '\uffff', '\ue000', 'İ'),
  SAFE_CHARS,
);

/**
 * Any valid session id, leaning towards the characters that need escaping: random text of
 * 1-256 code units with no control character, line separator or lone surrogate, and no `.` or
 * `..` path segment.
 */
export const anySessionId: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 4, arbitrary: fc.array(idPart, { minLength: 1, maxLength: 40 }) },
    // Long enough for FileStore to hash the folder name, up to the 256 limit.
    { weight: 1, arbitrary: fc.array(idPart, { minLength: 60, maxLength: 300 }) },
  )
  .map((parts) => parts.join('').slice(0, 256))
  .filter(
    (id) =>
      id.length > 0 &&
      !/(?:^|[/\\])\.{1,2}(?:$|[/\\])/.test(id) &&
      // Cutting at 256 may split a surrogate pair; with `u`, only a lone one matches.
      !/\p{Surrogate}/u.test(id),
  );
