import type { DataType } from '../define-data-type.ts';
import { type Brand, brand } from './brand.ts';
import { deepFreeze } from './produce.ts';

// Values a built-in tool handler built, field by field, from parameters its schema had already
// parsed and from the plankit text rules (trimmed printable ASCII, or in the unicode text mode
// trimmed NFC text with no control character, lone surrogate or noncharacter; a known status):
// parsing them with the data type again returns an equal value, and every store can hold them.
const trusted: Brand<DataType> = brand();

/**
 * Marks `value` (a fresh object its handler built) as one `dataType` accepts unchanged, then
 * deeply freezes it, so nothing can change it between the handler and the commit. Only for
 * values whose every field is proven by the code that builds them; the session skips the
 * second schema parse of a tool result so marked.
 */
export function trustedValue<T extends object>(dataType: DataType<T>, value: T): T {
  trusted.set(value, dataType);
  return deepFreeze(value);
}

/** True when `value` was marked by {@link trustedValue} for exactly this data type. */
export function isTrustedAs(value: unknown, dataType: DataType): boolean {
  return trusted.get(value) === dataType;
}
