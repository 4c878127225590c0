import type { Err, TextMode } from '@plankit/core';
import { checkTextMode, isRecord, unknownOption } from '@plankit/core/internal-unstable';
import { isTime, keyText, show, TIME_RULE, unknownKey } from '../../internal/checks.ts';
import { unstorableRefusal } from '../../internal/unstorable-refusal.ts';
import { WorkflowError, type WorkflowErrorCode } from '../workflow-error.ts';

export { show };

/** A failed result carrying a {@link WorkflowError}. */
export function fail(
  code: WorkflowErrorCode,
  message: string,
  field?: string,
  cause?: unknown,
): Err<WorkflowError> {
  return { ok: false, error: new WorkflowError(code, message, { field, cause }) };
}

/** An `input_invalid` error: `where` got an input whose `field` breaks `rule`. */
export function inputError(where: string, field: string, rule: string): WorkflowError {
  return new WorkflowError('input_invalid', `${where}: ${field} ${rule}.`, { field });
}

/** A programmer error: `where` was called with an argument that breaks `rule`. */
export function argumentError(where: string, field: string, rule: string): WorkflowError {
  return new WorkflowError('argument_invalid', `${where}: ${field} ${rule}.`, { field });
}

/**
 * `value` when it is a core `TextMode`; otherwise core's refusal (`<where>: <field> must be one
 * of ascii, unicode.`) as the workflows' own `argument_invalid` error.
 */
export function workflowTextMode(where: string, value: unknown, field: string): TextMode {
  try {
    return checkTextMode(value, where, field);
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    throw new WorkflowError('argument_invalid', message, { field, cause });
  }
}

/**
 * An `input_invalid` error for text in `value` that no store can hold (U+0000, a lone
 * surrogate), naming its path under `root`; null when all of it is storable.
 */
export function unstorableProblem(
  where: string,
  value: unknown,
  root = 'input',
): WorkflowError | null {
  const refusal = unstorableRefusal(where, value, root);
  if (refusal === undefined) return null;
  return new WorkflowError('input_invalid', refusal.message, { field: refusal.field });
}

/**
 * The problem with a step's input, if any: it must be an object with only `keys`, a `now`
 * that is finite and not earlier than the state's last step, and no text a store cannot hold
 * (see {@link unstorableProblem}). Hosts pass what they read from a request, so nothing is
 * assumed about its shape.
 */
export function inputProblem(
  where: string,
  input: unknown,
  keys: ReadonlySet<string>,
  updatedAt: number,
): WorkflowError | null {
  if (!isRecord(input)) return inputError(where, 'input', 'must be an object');
  const extra = unknownKey(input, keys);
  if (extra !== undefined) return inputError(where, `input.${extra}`, 'is not a key');
  const now = input['now'];
  if (!isTime(now)) return inputError(where, 'input.now', `${TIME_RULE}, got ${show(now)}`);
  if (now < updatedAt) {
    return inputError(
      where,
      'input.now',
      `must not be earlier than the state's updatedAt (${updatedAt}), got ${now}`,
    );
  }
  return unstorableProblem(where, input);
}

/** The problem with optional text of at most `max` characters, if any. */
export function textProblem(
  where: string,
  field: string,
  value: unknown,
  max: number,
): WorkflowError | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > max) {
    return inputError(where, field, `must be null or a string of at most ${max} characters`);
  }
  return null;
}

/** Throws `argument_invalid` naming the field when `options` holds text no store can hold. */
export function checkStorableOptions(where: string, options: unknown): void {
  const problem = unstorableProblem(where, options, 'options');
  if (problem !== null)
    throw new WorkflowError('argument_invalid', problem.message, { field: problem.field });
}

/**
 * Throws unless `options` is an object with only `keys` (`name` is how messages call it), an
 * unknown key in core's words (`is not an option`).
 */
export function checkOptions(
  where: string,
  options: unknown,
  keys: ReadonlySet<string>,
  name = 'options',
): void {
  if (!isRecord(options)) throw argumentError(where, name, 'must be an object');
  // Core's words for an unknown option; the key quoted and clipped as every controller
  // refusal names one, so a key of any length keeps the message short.
  const key = unknownOption(options, keys);
  if (key !== undefined) throw argumentError(where, `${name}.${keyText(key)}`, 'is not an option');
}

/** An integer in `[min, max]`. */
export function isInteger(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max;
}
