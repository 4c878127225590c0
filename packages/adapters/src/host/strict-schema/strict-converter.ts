import { isRecord } from '@plankit/core/internal-unstable';
import { keyTokens, pointerKey } from './json-pointer.ts';
import { matchesStrictSchema } from './matches-strict-schema.ts';
import { definitionsOnly } from './merge-schemas.ts';
import { SchemaNormaliser } from './normalise-schema.ts';
import {
  type Converted,
  identity,
  joinPath,
  jsonCopy,
  type Node,
  quoted,
  type Restore,
  refuse,
  setOwn,
} from './schema-node.ts';
import { definitionRef, SchemaReferences } from './schema-references.ts';
import {
  ARRAY_KEYWORDS,
  DEFINITION_KEYWORDS,
  isAnnotation,
  MAX_DEPTH,
  NUMBER_KEYWORDS,
  OBJECT_KEYWORDS,
  ROOT_METADATA,
  STRING_KEYWORDS,
  TEXT_ANNOTATIONS,
  TYPE_KEYWORDS,
  TYPES,
} from './strict-keywords.ts';
import { STRICT_FORMATS, STRICT_LIMITS } from './strict-schema-problem.ts';

/**
 * One conversion of a schema to its strict form: each schema converted once (a definition at
 * the depth of its first reference), with the restore that reads its strict values back.
 */
export class StrictConverter {
  private readonly references: SchemaReferences;
  private readonly normaliser: SchemaNormaliser;
  private readonly done = new Map<string, Converted>();
  private readonly pending = new Set<string>();
  private readonly order: string[] = [];
  private properties = 0;
  // The deepest level the conversion reached, and how far below its reference each converted
  // definition reaches: to check a reused definition against its new depth.
  private deepest = 0;
  private readonly heights = new Map<string, number>();
  private readonly converting = (key: string): boolean => this.pending.has(key);

  /** The converted root, once it is: what `#` refers to. */
  root: Converted | undefined;
  private readonly rootRestore: Restore = (value) => (this.root?.restore ?? identity)(value);

  constructor(document: Node) {
    this.references = new SchemaReferences(document);
    this.normaliser = new SchemaNormaliser(this.references);
  }

  /**
   * The output: the converted root beside the root's `$defs` and `definitions`, every entry
   * converted (referenced or not, as openai-node converts them) under its own name, and every
   * other schema a `$ref` reached hoisted into `$defs` under the name its references carry:
   * OpenAI resolves a `$ref` only to `#` or to a definition at the top level.
   */
  finish(root: Node): Node {
    const refs = this.references;
    for (const key of refs.rootDefinitions) {
      const source = refs.source(key);
      // A container of nested definitions only is no schema of its own: left out, unless a
      // `$ref` names it (then it is refused as the schema without a type it is).
      if (this.done.has(key) || (isRecord(source) && definitionsOnly(source))) continue;
      this.definition(key, 2, keyTokens(key).join('.'));
    }
    const out: Node = { ...root };
    for (const keyword of DEFINITION_KEYWORDS) {
      const defs = refs.document[keyword];
      if (!isRecord(defs)) continue;
      const converted: Node = {};
      for (const name of Object.keys(defs)) {
        const done = this.done.get(pointerKey([keyword, name]));
        if (done !== undefined) setOwn(converted, name, done.schema);
      }
      setOwn(out, keyword, converted);
    }
    for (const key of this.order) {
      if (refs.rootDefinitions.has(key)) continue;
      if (!isRecord(out['$defs'])) out['$defs'] = {};
      setOwn(out['$defs'] as Node, refs.hoistedName(key), this.done.get(key)?.schema);
    }
    return out;
  }

  /**
   * The converted schema a `$ref` of the output reaches, for matching: the root, or the
   * definition the table of output definitions names (converted so far).
   */
  readonly lookup = (ref: string): unknown => {
    if (ref === '#') return this.root?.schema;
    const key = this.references.outputTarget(ref);
    return key === undefined ? undefined : this.done.get(key)?.schema;
  };

  /**
   * Converts a referenced schema once, at the depth of its first reference; a later reference
   * from deeper down is checked against the depth the definition's own content reaches.
   */
  private definition(key: string, depth: number, path: string): void {
    const height = this.heights.get(key);
    if (height !== undefined && depth + height > MAX_DEPTH)
      refuse(path, `a schema nested more than ${MAX_DEPTH} levels deep`);
    if (this.done.has(key) || this.pending.has(key)) return;
    this.pending.add(key);
    this.order.push(key);
    const outer = this.deepest;
    this.deepest = depth;
    const at = keyTokens(key).join('.');
    this.done.set(key, this.visit(this.references.source(key), at, depth, false));
    this.heights.set(key, this.deepest - depth);
    this.deepest = Math.max(outer, this.deepest);
    this.pending.delete(key);
  }

  private acceptsNull(schema: Node): boolean {
    return matchesStrictSchema(schema, null, this.lookup);
  }

  /**
   * Converts a schema. The definitions maps it holds (not the root's) are left out: they
   * constrain nothing, and a `$ref` into them reaches a schema hoisted into the root's `$defs`.
   */
  visit(source: unknown, path: string, depth: number, root: boolean): Converted {
    if (depth > MAX_DEPTH) refuse(path, `a schema nested more than ${MAX_DEPTH} levels deep`);
    if (depth > this.deepest) this.deepest = depth;
    if (source === true) refuse(path, "a schema that accepts anything ('true')");
    if (source === false) refuse(path, "a schema that accepts nothing ('false')");
    if (!isRecord(source)) refuse(path, 'a schema that is not an object');
    const node = this.normaliser.normalise(source, path, root);
    const out: Node = {};
    if (root)
      for (const key of ROOT_METADATA) if (typeof node[key] === 'string') out[key] = node[key];
    for (const key of TEXT_ANNOTATIONS) if (typeof node[key] === 'string') out[key] = node[key];
    if (Array.isArray(node['examples'])) out['examples'] = jsonCopy(node['examples'], path);
    if (Object.hasOwn(node, '$ref')) return this.reference(node, out, path, depth);
    if (Array.isArray(node['anyOf'])) return this.union(node['anyOf'], out, path, depth);

    for (const key of Object.keys(node)) {
      if (isAnnotation(key) || key === '$schema' || key === '$id') continue;
      if (
        !TYPE_KEYWORDS.has(key) &&
        !['type', 'enum', 'const', '$defs', 'definitions'].includes(key)
      )
        refuse(path, `'${key}'`);
    }
    let type = node['type'];
    const hasAny = (keys: readonly string[]) => keys.some((key) => Object.hasOwn(node, key));
    const literal = Object.hasOwn(node, 'enum') || Object.hasOwn(node, 'const');
    // The root names its type, as openai-node asks; a nested object may leave it out.
    if (root && type === undefined) refuse(path, "a root that is not type 'object'");
    if (type === undefined) {
      const kinds = [
        hasAny(OBJECT_KEYWORDS),
        hasAny(ARRAY_KEYWORDS),
        hasAny(STRING_KEYWORDS),
        hasAny(NUMBER_KEYWORDS),
      ].filter(Boolean).length;
      if (literal) {
        if (kinds > 0) refuse(path, "type-specific keywords beside an untyped 'enum' or 'const'");
      } else if (kinds === 1 && hasAny(OBJECT_KEYWORDS)) type = 'object';
      else if (kinds === 1 && hasAny(ARRAY_KEYWORDS)) type = 'array';
      else refuse(path, "a schema without a 'type' (it accepts values of any type)");
    }
    const types = type === undefined ? [] : Array.isArray(type) ? type : [type];
    for (const item of types)
      if (typeof item !== 'string' || !TYPES.has(item))
        refuse(path, `the type ${JSON.stringify(item)}`);
    if (type !== undefined) out['type'] = Array.isArray(type) ? [...type] : type;
    if (literal) this.literal(node, out, path);
    const applies = (kind: string) => types.includes(kind);
    if (applies('string'))
      for (const key of STRING_KEYWORDS) if (Object.hasOwn(node, key)) out[key] = node[key];
    if (applies('number') || applies('integer'))
      for (const key of NUMBER_KEYWORDS) if (Object.hasOwn(node, key)) out[key] = node[key];
    const format = out['format'];
    if (format !== undefined && !STRICT_FORMATS.has(format as string))
      refuse(path, `the format ${JSON.stringify(format)}`);

    let restore: Restore = identity;
    if (applies('object')) restore = this.object(node, out, path, depth);
    if (applies('array')) {
      const items = this.array(node, out, path, depth);
      if (items !== identity) restore = items;
    }
    return { schema: out, restore };
  }

  /** A `$ref`: to the root, a root definition, or a schema hoisted into `$defs`. */
  private reference(node: Node, out: Node, path: string, depth: number): Converted {
    const refs = this.references;
    const first = refs.refName(node['$ref'], path);
    // Follows the alias chain to refuse a cycle or a chain over the depth limit.
    const target = refs.aliasTarget(first, path, depth + 1, this.converting);
    if (refs.rootDefinitions.has(first)) {
      // A root definition stays where it is, an alias too: the reference as written.
      out['$ref'] = node['$ref'];
      this.definition(first, depth + 1, path);
      const restore: Restore = (value) => (this.done.get(first)?.restore ?? identity)(value);
      return { schema: out, restore };
    }
    const key = target.key;
    if (key === '') {
      // Recursion into the root: strict mode's own `#`, not a copy of the root in `$defs`.
      out['$ref'] = '#';
      return { schema: out, restore: (value) => this.rootRestore(value) };
    }
    // Any other place: its schema hoisted into the root's `$defs`, where OpenAI resolves it.
    out['$ref'] = refs.rootDefinitions.has(key)
      ? definitionRef(key)
      : definitionRef(pointerKey(['$defs', refs.hoistedName(key)]));
    this.definition(key, target.depth, path);
    const restore: Restore = (value) => (this.done.get(key)?.restore ?? identity)(value);
    return { schema: out, restore };
  }

  /** An `anyOf`: each branch converted; a value restores through the branch it matches. */
  private union(anyOf: readonly unknown[], out: Node, path: string, depth: number): Converted {
    const branches = anyOf.map((branch, index) =>
      this.visit(branch, `${path}.anyOf[${index}]`, depth + 1, false),
    );
    out['anyOf'] = branches.map((branch) => branch.schema);
    const restore: Restore = branches.every((branch) => branch.restore === identity)
      ? identity
      : (value) => {
          const match = branches.find((branch) =>
            matchesStrictSchema(branch.schema, value, this.lookup),
          );
          return match === undefined ? value : match.restore(value);
        };
    return { schema: out, restore };
  }

  /** An `enum` or `const` of scalar values, copied. */
  private literal(node: Node, out: Node, path: string): void {
    if (Object.hasOwn(node, 'enum')) {
      const values = node['enum'];
      if (!Array.isArray(values) || values.length === 0) refuse(path, "an empty 'enum'");
      if (values.some((value) => typeof value === 'object' && value !== null))
        refuse(path, "an 'enum' with object or array values");
      out['enum'] = [...values];
    }
    if (Object.hasOwn(node, 'const')) {
      const value = node['const'];
      if (typeof value === 'object' && value !== null) refuse(path, "a 'const' object or array");
      out['const'] = value;
    }
  }

  /** An array: one `items` schema, its bounds kept. */
  private array(node: Node, out: Node, path: string, depth: number): Restore {
    const items = node['items'];
    if (Array.isArray(items)) refuse(path, "tuple 'items' (and 'additionalItems')");
    if (items === undefined) refuse(path, "an array without 'items'");
    for (const key of ['minItems', 'maxItems']) if (Object.hasOwn(node, key)) out[key] = node[key];
    const converted = this.visit(items, `${path}[]`, depth + 1, false);
    out['items'] = converted.schema;
    if (converted.restore === identity) return identity;
    return (value) => (Array.isArray(value) ? value.map(converted.restore) : value);
  }

  /** A closed object: every property required, the optional ones nullable. */
  private object(node: Node, out: Node, path: string, depth: number): Restore {
    const extra = node['additionalProperties'];
    if (extra !== undefined && extra !== false)
      refuse(path, "'additionalProperties' other than false (a map or an open object)");
    const props = node['properties'] ?? {};
    if (!isRecord(props)) refuse(path, "'properties' that is not an object");
    // Refused before anything walks them, so an oversized schema costs one key listing.
    const keys = Object.keys(props);
    this.properties += keys.length;
    if (this.properties > STRICT_LIMITS.properties)
      refuse(path, `more than ${STRICT_LIMITS.properties} object properties`);
    const requiredList = node['required'] ?? [];
    if (!Array.isArray(requiredList) || requiredList.some((key) => typeof key !== 'string'))
      refuse(path, "'required' that is not a list of names");
    const required = new Set(requiredList as string[]);
    for (const key of required)
      if (props[key] === undefined || !Object.hasOwn(props, key))
        refuse(
          joinPath(path, key),
          `'required' naming '${quoted(key)}', which 'properties' does not define`,
        );
    const properties: Node = {};
    const children = new Map<string, Restore>();
    const stripNull = new Set<string>();
    for (const key of keys) {
      const child = props[key];
      const childPath = joinPath(path, key);
      if (child === undefined && !required.has(key)) continue;
      if (child === false) {
        if (required.has(key)) refuse(childPath, "a required property whose schema is 'false'");
        continue; // optional and never valid: the closed object leaves it out
      }
      const converted = this.visit(child, childPath, depth + 1, false);
      if (required.has(key) || this.acceptsNull(converted.schema))
        setOwn(properties, key, converted.schema);
      else {
        stripNull.add(key);
        setOwn(properties, key, nullable(converted.schema));
      }
      if (converted.restore !== identity) children.set(key, converted.restore);
    }
    out['properties'] = properties;
    out['required'] = Object.keys(properties);
    out['additionalProperties'] = false;
    if (stripNull.size === 0 && children.size === 0) return identity;
    return (value) => {
      if (!isRecord(value)) return value;
      const restored: Node = {};
      for (const key of Object.keys(value)) {
        const item = value[key];
        if (item === null && stripNull.has(key)) continue;
        const inner = item === null ? undefined : children.get(key);
        setOwn(restored, key, inner === undefined ? item : inner(item));
      }
      return restored;
    };
  }
}

// The schema or null, written as openai-agents-js writes it: the schema as a branch beside
// `{ type: 'null' }`, its description repeated on the wrapper for the model to read.
function nullable(schema: Node): Node {
  const union = { anyOf: [schema, { type: 'null' }] };
  return typeof schema['description'] === 'string'
    ? { description: schema['description'], ...union }
    : union;
}
