// U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE: the plain-text form of
// `<bdi>`, for plan text inside a label's string, where markup cannot go.
const FIRST_STRONG_ISOLATE = '\u2068';
const POP_DIRECTIONAL_ISOLATE = '\u2069';

/**
 * `text` wrapped in U+2068 ... U+2069 when it holds anything but ASCII, so a right-to-left
 * title inside a label (`Waiting on S001 (...)`) takes its direction from its own first strong
 * character and cannot pull the label's ids, commas or parentheses into its run. Plan text never
 * holds a bidirectional control (the text rules refuse them in both modes), so nothing inside
 * can close the isolate early. ASCII text has no right-to-left letters and is returned as it
 * is, so labels over ASCII plans read exactly as before.
 *
 * @internal
 */
export function bidiIsolate(text: string): string {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f)
      return `${FIRST_STRONG_ISOLATE}${text}${POP_DIRECTIONAL_ISOLATE}`;
  }
  return text;
}
