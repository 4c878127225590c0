import * as z from 'zod';
import { clipText } from './internal/refusal-text.ts';
import { PlankitError } from './plankit-error.ts';

/**
 * A named zod schema. Sessions key their slices and route dispatched values by data type; the
 * name is the slice's key in JSON snapshots, so keep it stable once data is stored.
 *
 * @public
 */
export type DataType<T = unknown> = z.ZodType<T, unknown>;

const names = z.registry<{ plankitName: string }>();
const NAME = /^[A-Za-z][A-Za-z0-9_.:-]{0,127}$/;
const known = new WeakMap<object, string>();

/**
 * Names a zod schema so sessions can store and route values of that type.
 *
 * @param name - stable name, 1-128 characters `[A-Za-z0-9_.:-]` starting with a letter
 * @param schema - the schema values of this type satisfy
 * @returns the same schema, now usable as a {@link DataType}
 * @example
 * ```ts
 * const Note = defineDataType('app.Note', z.strictObject({ text: z.string() }));
 * session.register(Note, append);
 * ```
 * @public
 */
export function defineDataType<S extends z.ZodType>(name: string, schema: S): S {
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new PlankitError(
      'data_type_invalid',
      `defineDataType: name must match ${NAME.source}, got ${clipText(JSON.stringify(String(name)), 80)}.`,
      { field: 'name' },
    );
  }
  if (!(schema instanceof z.ZodType)) {
    throw new PlankitError('data_type_invalid', 'defineDataType: schema must be a zod schema.', {
      field: 'schema',
    });
  }
  const existing = names.get(schema)?.plankitName;
  if (existing !== undefined && existing !== name) {
    throw new PlankitError(
      'data_type_invalid',
      `defineDataType: this schema is already named ${existing}; derive a new schema to name it ${name}.`,
      { field: 'schema' },
    );
  }
  names.add(schema, { plankitName: name });
  return schema;
}

/**
 * The name given to a data type by {@link defineDataType}.
 *
 * @throws PlankitError `data_type_invalid` when the schema was never named
 * @public
 */
export function dataTypeName(dataType: DataType<unknown>): string {
  // Cached: a name never changes once given, and zod's registry lookup allocates for derived
  // schemas (it merges the parents' metadata); this runs several times per tool call.
  let name = known.get(dataType);
  if (name !== undefined) return name;
  name = dataType instanceof z.ZodType ? names.get(dataType)?.plankitName : undefined;
  if (name !== undefined) known.set(dataType, name);
  if (name === undefined) {
    throw new PlankitError(
      'data_type_invalid',
      'Expected a data type; name the schema with defineDataType(name, schema) first.',
      { field: 'dataType' },
    );
  }
  return name;
}
