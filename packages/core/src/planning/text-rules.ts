import { stringProblem } from '../internal/storable-problem.ts';
import { ToolValidationError } from '../tool-validation-error.ts';

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
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    if (++count > max) return true;
  }
  return false;
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

// After the reference's checks (so its messages win), plankit refuses control characters:
// a line break would forge lines in rendered plans, and U+0000 cannot be stored.
function checkLengthAndAscii(text: string, field: string, label: string, max: number): string {
  if (longerThan(text, max)) {
    throw new ToolValidationError(`${label} must be <= ${max} characters.`, {
      code: 'text_too_long',
      field,
    });
  }
  if (!isAscii(text))
    throw new ToolValidationError(`${label} must be ASCII.`, { code: 'text_not_ascii', field });
  if (hasControl(text)) throw controlError(field, label);
  return text;
}

/** Required text: trimmed, then not empty, then at most `max` code points, then ASCII. */
export function requiredText(value: string, field: string, label: string, max: number): string {
  const text = trimText(value);
  if (text === '')
    throw new ToolValidationError(`${label} must not be empty.`, { code: 'text_empty', field });
  return checkLengthAndAscii(text, field, label, max);
}

/**
 * Optional text: `null` stays `null`; blank becomes `null`, or is refused when `requireContent`
 * (notes); otherwise length then ASCII.
 */
export function optionalText(
  value: string | null,
  field: string,
  label: string,
  max: number,
  requireContent = false,
): string | null {
  if (value === null) return null;
  const text = trimText(value);
  if (text === '') {
    if (!requireContent) return null;
    throw new ToolValidationError(`${label} must not be empty when provided.`, {
      code: 'text_empty',
      field,
    });
  }
  return checkLengthAndAscii(text, field, label, max);
}

/** A step id as given: trimmed, not blank, ASCII, no control characters. */
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

/**
 * Refuses text a reducer is about to write into a plan when no store could hold it (U+0000,
 * lone surrogates): the tools never let such text through, but a hand-dispatched command
 * could. Linear, and free for the tools' own (checked) text.
 */
export function ensureStorableText(text: string, field: string, label: string): void {
  const rule = stringProblem(text);
  if (rule !== undefined) {
    throw new ToolValidationError(`${label} ${rule}.`, { code: 'arguments_unstorable', field });
  }
}
