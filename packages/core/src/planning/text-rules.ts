import { ToolValidationError } from '../tool-validation-error.ts';
import type { TextMode } from './text-mode.ts';
import { type UnicodeCharCode, unicodeCharProblem } from './unicode-text-rules.ts';

/** Length limits, in code points after trimming. @public */
export const PLANNING_LIMITS: PlanningLimits = {
  objective: 240,
  title: 160,
  details: 512,
  note: 512,
};

/** The shape of {@link PLANNING_LIMITS}. @public */
export interface PlanningLimits {
  /** Longest objective. */
  readonly objective: 240;
  /** Longest step title. */
  readonly title: 160;
  /** Longest step details. */
  readonly details: 512;
  /** Longest note. */
  readonly note: 512;
}

// The reference trims what Python's str.strip() trims: its whitespace set differs from
// String#trim (it includes U+001C-U+001F and U+0085, and excludes U+FEFF).
function isSpace(code: number): boolean {
  return (
    (code >= 0x09 && code <= 0x0d) ||
    (code >= 0x1c && code <= 0x20) ||
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** Trims leading and trailing whitespace in linear time (no regex backtracking on huge input). */
export function trimText(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

/** True when `text` has more than `max` code points; a character outside the BMP counts once. */
function longerThan(text: string, max: number): boolean {
  if (text.length <= max) return false;
  if (text.length > 2 * max) return true;
  // At most 2 * max code units here: spreading by code points is cheap, and counts a lone
  // surrogate once, as a character of its own.
  return [...text].length > max;
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** True when `text` holds a C0 control character (U+0000-U+001F) or DEL (U+007F). */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function controlError(field: string, label: string): ToolValidationError {
  return new ToolValidationError(`${label} must not contain control characters.`, {
    code: 'text_control_char',
    field,
  });
}

/** A text rule a value breaks: the stable code and the rule, as a sentence fragment. @internal */
export interface TextProblem {
  /**
   * `text_empty`, `text_too_long`, `text_not_ascii`, `text_control_char`, `text_untrimmed`,
   * `text_not_nfc`, or one of the Unicode character rules: `text_bidi_control`,
   * `text_lone_surrogate`, `text_noncharacter`, `text_line_separator`, `text_bom`,
   * `text_invisible`.
   */
  readonly code:
    | 'text_empty'
    | 'text_too_long'
    | 'text_not_ascii'
    | 'text_untrimmed'
    | 'text_not_nfc'
    | UnicodeCharCode;
  /** The rule, such as `must be <= 160 characters`. */
  readonly rule: string;
}

// The ascii-mode tools' checks after trimming, in the reference's order (length, then ASCII),
// then plankit's own: no control characters (a line break would forge lines in rendered plans,
// and U+0000 cannot be stored).
function asciiTextProblem(text: string, max: number): TextProblem | undefined {
  if (longerThan(text, max)) return { code: 'text_too_long', rule: `must be <= ${max} characters` };
  if (!isAscii(text)) return { code: 'text_not_ascii', rule: 'must be ASCII' };
  if (hasControl(text))
    return { code: 'text_control_char', rule: 'must not contain control characters' };
  return undefined;
}

// The unicode-mode tools' checks after normalising and trimming: the same length limit, in
// code points, then the character rules (unicode-text-rules.ts).
function unicodeTextProblem(text: string, max: number): TextProblem | undefined {
  if (longerThan(text, max)) return { code: 'text_too_long', rule: `must be <= ${max} characters` };
  return unicodeCharProblem(text);
}

function trimmedTextProblem(text: string, max: number, mode: TextMode): TextProblem | undefined {
  return mode === 'ascii' ? asciiTextProblem(text, max) : unicodeTextProblem(text, max);
}

function checkTrimmed(
  text: string,
  field: string,
  label: string,
  max: number,
  mode: TextMode,
): string {
  const problem = trimmedTextProblem(text, max, mode);
  if (problem !== undefined) {
    throw new ToolValidationError(`${label} ${problem.rule}.`, { code: problem.code, field });
  }
  return text;
}

/**
 * What the tools of `mode` check: the text as sent (ascii) or in NFC (unicode), trimmed.
 * Printable ASCII is its own NFC, so it skips the normaliser.
 */
function inputText(value: string, mode: TextMode): string {
  return trimText(mode === 'unicode' && !isAscii(value) ? value.normalize('NFC') : value);
}

// Printable ASCII, not starting or ending with a space: text the tools of both modes store.
const STORED_TEXT = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * Why `text` is not text the planning tools could have stored in a field of at most `max`
 * code points, or undefined when it is: the tools' own rules plus what their normalising and
 * trimming guarantee (NFC, no leading or trailing whitespace). With `mode`, the rules of the
 * tools of that mode; without, the plan model's: text the tools of EITHER mode could have
 * stored (ASCII text is held to the ascii rules, so their messages are the ones named; other
 * text to the Unicode rules). Every path a value enters by (a restored plan, a hand-dispatched
 * command, a LangGraph update, a store load) applies it, so a plan holds the same text
 * whichever way it was built. Linear; one regex test for printable ASCII that passes.
 * @internal
 */
export function storedTextProblem(
  text: string,
  max: number,
  mode?: TextMode,
): TextProblem | undefined {
  if (text.length <= max && STORED_TEXT.test(text)) return undefined;
  // The tools' checks run on the trimmed text, so the rule named is the one they would name.
  const trimmed = trimText(text);
  if (trimmed === '') return { code: 'text_empty', rule: 'must not be empty' };
  const rules = mode ?? (isAscii(trimmed) ? 'ascii' : 'unicode');
  const problem = trimmedTextProblem(trimmed, max, rules);
  if (problem !== undefined) return problem;
  if (rules === 'unicode' && trimmed.normalize('NFC') !== trimmed) {
    return { code: 'text_not_nfc', rule: 'must be in Unicode normalization form C (NFC)' };
  }
  return trimmed.length === text.length
    ? undefined
    : { code: 'text_untrimmed', rule: 'must not start or end with whitespace' };
}

/**
 * Refuses text a reducer is about to write into a plan unless the tools of either mode could
 * have stored it ({@link storedTextProblem}): the tools hand reducers checked text, but a
 * hand-dispatched command, a LangGraph plan edit or a replayed store event may not have been
 * checked.
 */
export function ensurePlanText(text: string, field: string, label: string, max: number): void {
  const problem = storedTextProblem(text, max);
  if (problem !== undefined) {
    throw new ToolValidationError(`${label} ${problem.rule}.`, { code: problem.code, field });
  }
}

/**
 * Required text as the tools of `mode` take it: normalised to NFC (unicode), trimmed, then not
 * empty, then at most `max` code points, then ASCII (ascii) or the Unicode character rules.
 */
export function requiredText(
  value: string,
  field: string,
  label: string,
  max: number,
  mode: TextMode,
): string {
  const text = inputText(value, mode);
  if (text === '')
    throw new ToolValidationError(`${label} must not be empty.`, { code: 'text_empty', field });
  return checkTrimmed(text, field, label, max, mode);
}

/**
 * Optional text as the tools of `mode` take it: `null` stays `null`; blank becomes `null`, or
 * is refused when `requireContent` (notes); otherwise as {@link requiredText}.
 */
export function optionalText(
  value: string | null,
  field: string,
  label: string,
  max: number,
  mode: TextMode,
  requireContent = false,
): string | null {
  if (value === null) return null;
  const text = inputText(value, mode);
  if (text === '') {
    if (!requireContent) return null;
    throw new ToolValidationError(`${label} must not be empty when provided.`, {
      code: 'text_empty',
      field,
    });
  }
  return checkTrimmed(text, field, label, max, mode);
}

/**
 * A step id as given: trimmed, not blank, ASCII, no control characters. Ids are plankit's
 * `S###` in both text modes, so they stay ASCII in both.
 */
export function stepIdText(value: string): string {
  const id = trimText(value);
  if (id === '')
    throw new ToolValidationError('Step ID must be provided.', {
      code: 'text_empty',
      field: 'step_id',
    });
  if (!isAscii(id))
    throw new ToolValidationError('Step_Id must be ASCII.', {
      code: 'text_not_ascii',
      field: 'step_id',
    });
  if (hasControl(id)) throw controlError('step_id', 'Step_Id');
  return id;
}
