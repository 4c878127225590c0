import type { ToolSuccess } from '../tool-result.ts';

// `ok` mirrors `success` but is not enumerable, so a result serialises, compares and is stored
// exactly as the reference's `{ success, message, value }`.
function withOk<T extends { readonly success: boolean }>(
  fields: T,
): Readonly<T> & { readonly ok: T['success'] } {
  const result = { ...fields };
  Object.defineProperty(result, 'ok', { value: fields.success, enumerable: false });
  return Object.freeze(result) as Readonly<T> & { readonly ok: T['success'] };
}

/** A frozen successful tool result carrying both `ok` and the reference's `success`. */
export function toolSuccess<R>(message: string, value: R): ToolSuccess<R> {
  return withOk({ success: true as const, message, value });
}

/** A frozen failed tool result carrying both `ok` and the reference's `success`. */
export function toolFailure<T extends { readonly success: false }>(
  fields: T,
): Readonly<T> & { readonly ok: false } {
  return withOk(fields);
}
