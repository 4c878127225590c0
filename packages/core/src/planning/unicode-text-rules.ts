// The character rules of the Unicode text mode, one pass over the code points. Every table
// here is fixed (copied from Unicode 16), never `\p{...}` or Intl: their answers follow the
// ICU a Node version ships, and a store replayed on another Node must accept the same text.
// The reasons for each rule are in specs/unicode-text.md.

/** The codes of the Unicode character rules. @internal */
export type UnicodeCharCode =
  | 'text_control_char'
  | 'text_bidi_control'
  | 'text_lone_surrogate'
  | 'text_noncharacter'
  | 'text_line_separator'
  | 'text_bom'
  | 'text_invisible';

/** The first code point a text may not hold, with the rule it breaks. @internal */
export interface UnicodeCharProblem {
  /** The rule's stable code. */
  readonly code: UnicodeCharCode;
  /** The rule, as a sentence fragment: `must not contain U+202E (a bidirectional control)`. */
  readonly rule: string;
}

const VARIATION_SELECTOR = 1;
const ALLOWED = 2;
const BIDI = 3;
const INVISIBLE = 4;

// Default_Ignorable_Code_Point, from DerivedCoreProperties.txt of Unicode 16.0, as sorted
// [first, last, kind] ranges. The bidirectional marks and controls among them have their own
// rule; ZWNJ and ZWJ are allowed (Persian, Indic scripts and emoji sequences need them); a
// variation selector is allowed once, directly after a character. U+FEFF is the byte order
// mark (its own rule, checked before this table).
const IGNORABLE: readonly (readonly [number, number, number])[] = [
  [0x00ad, 0x00ad, INVISIBLE], // soft hyphen
  [0x034f, 0x034f, INVISIBLE], // combining grapheme joiner
  [0x061c, 0x061c, BIDI], // Arabic letter mark
  [0x115f, 0x1160, INVISIBLE], // Hangul choseong and jungseong fillers
  [0x17b4, 0x17b5, INVISIBLE], // Khmer inherent vowels
  [0x180b, 0x180d, VARIATION_SELECTOR], // Mongolian free variation selectors 1-3
  [0x180e, 0x180e, INVISIBLE], // Mongolian vowel separator
  [0x180f, 0x180f, VARIATION_SELECTOR], // Mongolian free variation selector 4
  [0x200b, 0x200b, INVISIBLE], // zero width space
  [0x200c, 0x200d, ALLOWED], // ZWNJ, ZWJ
  [0x200e, 0x200f, BIDI], // left-to-right and right-to-left marks
  [0x202a, 0x202e, BIDI], // embeddings and overrides
  [0x2060, 0x2065, INVISIBLE], // word joiner, invisible operators, a reserved one
  [0x2066, 0x2069, BIDI], // isolates
  [0x206a, 0x206f, INVISIBLE], // deprecated format characters
  [0x3164, 0x3164, INVISIBLE], // Hangul filler
  [0xfe00, 0xfe0f, VARIATION_SELECTOR], // variation selectors 1-16
  [0xffa0, 0xffa0, INVISIBLE], // halfwidth Hangul filler
  [0xfff0, 0xfff8, INVISIBLE], // reserved
  [0x1bca0, 0x1bca3, INVISIBLE], // shorthand format controls
  [0x1d173, 0x1d17a, INVISIBLE], // musical symbol format controls
  [0xe0000, 0xe00ff, INVISIBLE], // tags (U+E0020-U+E007F spell hidden ASCII) and reserved
  [0xe0100, 0xe01ef, VARIATION_SELECTOR], // variation selectors 17-256
  [0xe01f0, 0xe0fff, INVISIBLE], // reserved
];

/**
 * The kind of a default-ignorable code point other than U+FEFF (1 a variation selector, 2
 * allowed, 3 bidirectional, 4 invisible), or 0 for every other one. Linear in a short table.
 * @internal
 */
export function ignorableKind(code: number): number {
  if (code < 0x00ad || code > 0xe0fff) return 0;
  for (const [first, last, kind] of IGNORABLE) {
    if (code < first) return 0;
    if (code <= last) return kind;
  }
  return 0;
}

/** `U+XXXX`: at least four upper-case hex digits, as the Unicode Standard writes code points. */
export function codePointName(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

function problem(code: UnicodeCharCode, point: number, what: string): UnicodeCharProblem {
  return { code, rule: `must not contain ${codePointName(point)} (${what})` };
}

/**
 * The first code point of `text` that the Unicode text mode refuses, with its rule, or
 * undefined: controls (C0, DEL, C1), bidirectional controls and marks, lone surrogates,
 * noncharacters, U+2028 and U+2029, the byte order mark, and default-ignorable characters
 * that hide text, a variation selector counting as one only when it does not directly follow
 * a character that is not itself a selector. One pass; printable ASCII costs one comparison
 * per character. @internal
 */
export function unicodeCharProblem(text: string): UnicodeCharProblem | undefined {
  // What came before: nothing, a character a variation selector may follow, or a selector.
  let before: 'start' | 'base' | 'selector' = 'start';
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code >= 0x20 && code < 0x7f) {
      before = 'base';
      continue;
    }
    // Past printable ASCII, everything up to U+009F is C0, DEL or C1.
    if (code <= 0x9f) return problem('text_control_char', code, 'a control character');
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) {
        return problem('text_lone_surrogate', code, 'a lone surrogate');
      }
      code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
      i++;
    }
    if ((code >= 0xfdd0 && code <= 0xfdef) || (code & 0xfffe) === 0xfffe) {
      return problem('text_noncharacter', code, 'a noncharacter');
    }
    if (code === 0x2028 || code === 0x2029) {
      return problem(
        'text_line_separator',
        code,
        code === 0x2028 ? 'a line separator' : 'a paragraph separator',
      );
    }
    if (code === 0xfeff) return problem('text_bom', code, 'a byte order mark');
    const kind = ignorableKind(code);
    if (kind === BIDI) return problem('text_bidi_control', code, 'a bidirectional control');
    if (kind === INVISIBLE) return problem('text_invisible', code, 'an invisible character');
    if (kind === VARIATION_SELECTOR) {
      if (before !== 'base') {
        return problem(
          'text_invisible',
          code,
          before === 'start'
            ? 'a variation selector with no character before it'
            : 'a variation selector after another one',
        );
      }
      before = 'selector';
      continue;
    }
    before = 'base';
  }
  return undefined;
}
