/**
 * Refusal text a model reads is shorter than this many characters (UTF-16 code units, which
 * never undercount code points). Every message plankit builds from input stays under it.
 */
export const REFUSAL_LIMIT = 2000;

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/**
 * `text` cut to at most `max` code units, ending in `...` when cut. Never splits a surrogate
 * pair, so the result is as storable as the input.
 */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 3);
  if (end > 0 && isHigh(text.charCodeAt(end - 1))) end--;
  return `${text.slice(0, end)}...`;
}

/** A whole refusal message, kept under {@link REFUSAL_LIMIT}. */
export function refusalText(text: string): string {
  return clipText(text, REFUSAL_LIMIT - 1);
}

// C0 controls, DEL, C1 controls, the Unicode line and paragraph separators, and the
// bidirectional controls (embeddings, overrides, isolates and the invisible marks): a quoted
// value can neither forge lines nor reorder the text around it where it is shown.
const CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `text` with every control character written as an escape (`\n`, `\t`, `\u0000`), bidirectional
 * controls included (`\u202e`), so one value renders on one line, in its own order, and cannot
 * forge or reorder the lines around it. Linear; returns `text`
 * itself when there is nothing to escape.
 */
export function escapeControl(text: string): string {
  CONTROL.lastIndex = 0;
  if (!CONTROL.test(text)) return text;
  CONTROL.lastIndex = 0;
  return text.replace(
    CONTROL,
    (char) => ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Why a snapshot with slice `name` cannot be restored on a session without it, and what to do:
 * the text `rollback` and `snapshotFromJSON` both give.
 */
export function unregisteredSliceText(name: string): string {
  return `Slice ${clipText(name, 200)} is not registered on this session: register it before restoring (createPlanningTools(session) or registerPlanningReducers(session) for the plan, session.register(type, reducer) for your own).`;
}
