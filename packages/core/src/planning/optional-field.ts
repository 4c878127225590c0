import * as z from 'zod';

// Strict hosts send null for every field a call leaves out; others leave it out. Both read as
// absent, so a field's JSON Schema states its type alone: no `["string", "null"]` union and no
// `default`, which the model would pay for on every request.
const unset = (value: unknown): unknown => (value === null ? undefined : value);

/**
 * An optional parameter a model may leave out or send as `null`: either reads as absent
 * (`undefined`). Its JSON Schema is `schema`'s own, not required. @internal
 */
export function optionalField<T extends z.ZodType>(
  schema: T,
): z.ZodType<z.output<T> | undefined, z.input<T> | null | undefined> {
  return z.preprocess(unset, schema.optional()) as z.ZodType<
    z.output<T> | undefined,
    z.input<T> | null | undefined
  >;
}

/**
 * An optional parameter a model may leave out or send as `null`: either reads as `null`
 * ("keep" or "none"). Its JSON Schema is `schema`'s own, not required. @internal
 */
export function nullField<T extends z.ZodType>(
  schema: T,
): z.ZodType<z.output<T> | null, z.input<T> | null | undefined> {
  return optionalField(schema).transform((value) => value ?? null);
}
