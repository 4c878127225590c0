import type { ToolSuccess } from '../tool-result.ts';

// `ok` mirrors `success` but is not enumerable, so a result serialises, compares and is stored
// exactly as the reference's `{ success, message, value }`. The descriptors are shared and the
// result is built as a literal, not copied: this runs on every tool call.
const OK_TRUE: PropertyDescriptor = Object.freeze({ value: true, enumerable: false });
const OK_FALSE: PropertyDescriptor = Object.freeze({ value: false, enumerable: false });

function withOk<T extends { readonly success: boolean }>(
  result: T,
): Readonly<T> & { readonly ok: T['success'] } {
  Object.defineProperty(result, 'ok', result.success ? OK_TRUE : OK_FALSE);
  return Object.freeze(result) as Readonly<T> & { readonly ok: T['success'] };
}

/** A frozen successful tool result carrying both `ok` and the reference's `success`. */
export function toolSuccess<R>(message: string, value: R): ToolSuccess<R> {
  return withOk({ success: true as const, message, value });
}

/**
 * A frozen failed tool result carrying both `ok` and the reference's `success`. `fields`
 * becomes the result: pass a fresh object.
 */
export function toolFailure<T extends { readonly success: false }>(
  fields: T,
): Readonly<T> & { readonly ok: false } {
  return withOk(fields);
}
