import { deepFreeze, isRecord } from '@plankit/core/internal-unstable';
import type { JsonSchema } from '../../tool-json-schema.ts';
import { copy, refuse } from './schema-node.ts';
import { StrictConverter } from './strict-converter.ts';
import { strictSchemaProblem } from './strict-schema-problem.ts';

/** A schema rewritten for OpenAI strict mode, and the way back for the arguments. @public */
export interface StrictJsonSchema {
  /** Every property required, optional ones nullable, every object closed. */
  readonly schema: JsonSchema;
  /**
   * Reads strict-mode arguments back: a `null` the model sent for a field that was optional
   * (and does not accept `null` itself) becomes absent again, at every depth: inside `$defs`,
   * `anyOf` branches (the branch the value matches) and array items. Never throws; a value
   * that does not have the strict shape comes back unchanged.
   */
  restore(args: unknown): unknown;
}

/**
 * Rewrites a tool's JSON Schema for OpenAI strict mode, so that every schema it accepts keeps
 * strict mode's documented rules (checked before returning): an object root without `anyOf`;
 * every object closed (`additionalProperties: false`) with every property required, optional
 * ones made nullable (`{ anyOf: [schema, { type: 'null' }] }`, as openai-agents-js writes
 * them); only supported keywords and formats; `$ref` only to the root (`#`) or to a root
 * definition (`$defs`, `definitions`), the only references OpenAI resolves; at most 10 levels
 * of object nesting, 5,000 properties, 1,000 enum values and 120,000 characters of names and
 * values. Linear in the size of the schema.
 *
 * Exact rewrites, as openai-node makes them: `allOf` merged (object branches side by side,
 * closed property sets intersected, through `$ref` chains; other branches keyword by keyword),
 * and distributed over a union branch; the root's `$defs` and `definitions` kept, every entry
 * converted (aliases too) and referenced as written; any other local JSON Pointer `$ref`
 * (nested `$defs`, `#/properties/x`, an `anyOf` branch) followed and its target put in the
 * root's `$defs` (`__openai_strict_ref_N`), definitions maps below the root left out; a root
 * `$ref` inlined; a redundant `object` or `array` type around an `anyOf` of such branches
 * dropped, other keywords beside `anyOf` distributed into each branch; a `oneOf` whose
 * branches a required literal property tells apart becomes `anyOf`; `false` branches and
 * optional `false` properties are dropped; a `propertyNames` enum closes a record; keywords
 * whose value is `undefined` are absent; `title`, `description`, `$comment` and `examples` are
 * kept, and the root's `$schema` and `$id`; `default`, `deprecated`, `readOnly` and
 * `writeOnly` are dropped. The mapping is reversed by {@link StrictJsonSchema.restore}.
 *
 * @throws AdapterError `schema_unsupported` naming the keyword and the path (`a.b[]`,
 *   `a.anyOf[1]`, `$defs.Name.c`) of anything strict mode cannot express exactly: `not`,
 *   `if`/`then`/`else`, conflicting `allOf` branches (or one property given two schemas),
 *   overlapping `oneOf`, maps and open objects, tuples and `additionalItems`, `true` or untyped
 *   schemas (they accept anything), a root without `type: 'object'`, a `required` key without a
 *   property, keywords beside a `$ref` other than annotations (Draft 7 ignores them, later
 *   drafts apply them), object or array keywords around an `anyOf` that would bind every
 *   branch, external references, cycles of bare references, nesting over 100 levels (each
 *   `$ref` hop one, as openai-agents-js counts), unsupported formats, and schemas over the
 *   limits.
 * @public
 */
export function toStrictJsonSchema(schema: JsonSchema): StrictJsonSchema {
  if (!isRecord(schema)) refuse('', 'a root that is not an object schema');
  const converter = new StrictConverter(schema);
  const root = copy(schema, (key) => key === '$defs' || key === 'definitions');
  converter.root = converter.visit(root, '', 1, true);
  const { schema: converted, restore } = converter.root;
  if (converted['type'] !== 'object') {
    if (Array.isArray(converted['anyOf']))
      refuse('', "'anyOf' at the root (an object with alternatives)");
    refuse('', "a root that is not type 'object'");
  }
  const strict = converter.finish(converted);
  const problem = strictSchemaProblem(strict);
  if (problem !== undefined) refuse(problem.path === '<root>' ? '' : problem.path, problem.message);
  const safeRestore = (args: unknown): unknown => {
    try {
      return restore(args);
    } catch {
      // Only input far deeper than any strict value (a stack overflow) gets here: leave it to
      // validation, which refuses it.
      return args;
    }
  };
  return Object.freeze({ schema: deepFreeze(strict), restore: safeRestore });
}
