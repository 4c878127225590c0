/**
 * True for a non-null object that is not an array: what a JSON object arrives as. Keeps the
 * declared type's properties, so a narrowed value still reads as what it was.
 */
export function isRecord<T>(value: T): value is T & Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
