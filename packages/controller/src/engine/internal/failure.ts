import { isRecord, refusalText } from '@plankit/core/internal-unstable';
import { ControllerError } from '../../controller-error.ts';
import { unknownKey } from '../../internal/checks.ts';
import { unstorableRefusal } from '../../internal/unstorable-refusal.ts';

/** A failed result. */
export function failure(
  code: ControllerError['code'],
  message: string,
  field?: string,
  state?: string,
  cause?: unknown,
): { readonly ok: false; readonly error: ControllerError } {
  // Clipped here, so no refusal a model reads reaches 2,000 characters, however it was built.
  return {
    ok: false,
    error: new ControllerError(code, refusalText(message), { field, state, cause }),
  };
}

/** A failed `input_invalid` result: `${where}: ${field} ${rule}.`, naming the field. */
export function invalid(
  where: string,
  field: string,
  rule: string,
): { ok: false; error: ControllerError } {
  return failure('input_invalid', `${where}: ${field} ${rule}.`, field);
}

/**
 * The `input_invalid` result of an input that is not an object, or that holds a key outside
 * `keys`; null when it is neither.
 */
export function inputShapeFailure(
  where: string,
  input: unknown,
  keys: ReadonlySet<string>,
): { ok: false; error: ControllerError } | null {
  if (!isRecord(input)) return invalid(where, 'input', 'must be an object');
  const extra = unknownKey(input, keys);
  if (extra !== undefined) return invalid(where, `input.${extra}`, 'is not a key');
  return null;
}

/**
 * An `input_invalid` error for text in `value` (at `field`) that no store can hold: U+0000 or
 * a lone surrogate. Null when every string in it is storable.
 */
export function unstorableError(
  where: string,
  field: string,
  value: unknown,
): ControllerError | null {
  const refusal = unstorableRefusal(where, value, field);
  if (refusal === undefined) return null;
  return new ControllerError('input_invalid', refusal.message, { field: refusal.field });
}
