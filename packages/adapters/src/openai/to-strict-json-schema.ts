import { AdapterError } from '../adapter-error.ts';
import type { JsonSchema } from '../tool-json-schema.ts';
import {
  decodePointerToken,
  encodePointerToken,
  matchesStrictSchema,
} from './matches-strict-schema.ts';
import { STRICT_FORMATS, STRICT_LIMITS, strictSchemaProblem } from './strict-schema-problem.ts';

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

type Node = Record<string, unknown>;
type Restore = (value: unknown) => unknown;
interface Converted {
  readonly schema: Node;
  readonly restore: Restore;
}

const identity: Restore = (value) => value;
const MAX_DEPTH = 64;

// Annotations strict mode keeps, and annotations that are dropped (they constrain nothing).
const KEPT_ANNOTATIONS = new Set(['description', 'title']);
const DROPPED_ANNOTATIONS = new Set([
  'default',
  'examples',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
]);
const isAnnotation = (key: string) => KEPT_ANNOTATIONS.has(key) || DROPPED_ANNOTATIONS.has(key);

const STRING_KEYWORDS = ['minLength', 'maxLength', 'pattern', 'format'];
const NUMBER_KEYWORDS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
];
const ARRAY_KEYWORDS = ['items', 'minItems', 'maxItems'];
const OBJECT_KEYWORDS = ['properties', 'required', 'additionalProperties'];
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);
// Keywords that only make sense with a sibling: merged schemas that split them change meaning.
const COUPLED: readonly (readonly [string, string])[] = [
  ['properties', 'additionalProperties'],
  ['items', 'additionalItems'],
];

function refuse(path: string, message: string): never {
  throw new AdapterError(
    'schema_unsupported',
    `OpenAI strict mode cannot express ${message} at ${path || '<root>'}.`,
    { field: path },
  );
}

const isRecord = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function setOwn(target: Node, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

// A keyword whose value is `undefined` is absent, as in the JSON the schema stands for.
function copy(source: Node, skip?: (key: string) => boolean): Node {
  const out: Node = {};
  for (const key of Object.keys(source))
    if (source[key] !== undefined && !skip?.(key)) setOwn(out, key, source[key]);
  return out;
}

function equalJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/**
 * Intersects two schemas by putting their keywords side by side, which is exact when no
 * keyword appears in both with different values and no coupled pair is split between them.
 * Annotations of `overlay` win.
 */
function merge(base: Node, overlay: Node, path: string, keyword: string): Node {
  const out = copy(base);
  for (const key of Object.keys(overlay)) {
    if (overlay[key] === undefined) continue;
    if (isAnnotation(key) || !Object.hasOwn(out, key)) setOwn(out, key, overlay[key]);
    else if (!equalJson(out[key], overlay[key]))
      refuse(path, `'${keyword}' beside a conflicting '${key}'`);
  }
  for (const [a, b] of COUPLED) {
    const split =
      (Object.hasOwn(base, a) && Object.hasOwn(overlay, b) && !Object.hasOwn(base, b)) ||
      (Object.hasOwn(base, b) && Object.hasOwn(overlay, a) && !Object.hasOwn(overlay, b));
    if (split) refuse(path, `'${keyword}' with '${a}' and '${b}' on different sides`);
  }
  return out;
}

// A oneOf is an anyOf when one required property tells its object branches apart.
function isDiscriminated(branches: readonly unknown[]): boolean {
  if (branches.length < 2) return true;
  const first = branches[0];
  if (!isRecord(first) || !Array.isArray(first['required'])) return false;
  const literals = (branch: unknown, key: string): unknown[] | undefined => {
    if (!isRecord(branch) || !Array.isArray(branch['required'])) return undefined;
    if (!branch['required'].includes(key)) return undefined;
    const property = isRecord(branch['properties']) ? branch['properties'][key] : undefined;
    if (!isRecord(property)) return undefined;
    if (Object.hasOwn(property, 'const')) return [property['const']];
    return Array.isArray(property['enum']) ? property['enum'] : undefined;
  };
  return first['required'].some((key) => {
    if (typeof key !== 'string') return false;
    const seen = new Set<string>();
    for (const branch of branches) {
      const values = literals(branch, key);
      if (values === undefined) return false;
      for (const value of values) {
        const text = JSON.stringify(value);
        if (seen.has(text)) return false;
        seen.add(text);
      }
    }
    return true;
  });
}

const REF = /^#\/(\$defs|definitions)\/([^/]+)$/;

class Converter {
  private readonly sources = new Map<string, unknown>();
  private readonly done = new Map<string, Converted>();
  private readonly pending = new Set<string>();
  private readonly order: string[] = [];
  private properties = 0;

  constructor(root: Node) {
    for (const keyword of ['$defs', 'definitions'] as const) {
      const defs = root[keyword];
      if (defs === undefined) continue;
      if (!isRecord(defs)) refuse(keyword, `a '${keyword}' that is not an object`);
      for (const name of Object.keys(defs)) {
        if (defs[name] === undefined) continue;
        if (this.sources.has(name) && !equalJson(this.sources.get(name), defs[name]))
          refuse(`${keyword}.${name}`, `two different definitions named '${name}'`);
        this.sources.set(name, defs[name]);
      }
    }
  }

  /** The converted definitions that were referenced, in first-reference order. */
  definitions(): Node | undefined {
    if (this.order.length === 0) return undefined;
    const out: Node = {};
    for (const name of this.order) setOwn(out, name, this.done.get(name)?.schema);
    return out;
  }

  /** The converted schema of a definition, for matching; `undefined` while it is converted. */
  readonly lookup = (name: string): unknown => this.done.get(name)?.schema;

  private refName(ref: unknown, path: string): string {
    if (typeof ref !== 'string') refuse(path, `a '$ref' that is not a string`);
    let fragment: string;
    try {
      fragment = decodeURIComponent(ref);
    } catch {
      refuse(path, `the malformed '$ref' ${JSON.stringify(ref.slice(0, 80))}`);
    }
    const match = REF.exec(fragment);
    const name = match?.[2] === undefined ? undefined : decodePointerToken(match[2]);
    if (name === undefined)
      refuse(
        path,
        `a '$ref' that does not point into '$defs' (${JSON.stringify(ref.slice(0, 80))})`,
      );
    if (!this.sources.has(name))
      refuse(path, `a '$ref' to a missing definition ${JSON.stringify(name.slice(0, 80))}`);
    return name;
  }

  // Follows definitions that are only a `$ref` (aliases) to the one that has content.
  private aliasTarget(start: string, path: string): string {
    let name = start;
    const seen = new Set<string>([name]);
    for (;;) {
      const target = this.sources.get(name);
      if (!isRecord(target) || !Object.hasOwn(target, '$ref')) return name;
      if (Object.keys(target).some((key) => key !== '$ref' && !isAnnotation(key))) return name;
      name = this.refName(target['$ref'], path);
      if (seen.has(name)) refuse(path, `a cyclic '$ref' to '${name}'`);
      seen.add(name);
    }
  }

  private resolve(ref: unknown, path: string): Node {
    const target = this.sources.get(this.refName(ref, path));
    if (typeof target === 'boolean')
      refuse(path, `a '$ref' to the boolean schema '${String(target)}'`);
    if (!isRecord(target)) refuse(path, "a '$ref' to a value that is not a schema");
    return target;
  }

  private definition(name: string, depth: number): void {
    if (this.done.has(name) || this.pending.has(name)) return;
    this.pending.add(name);
    this.order.push(name);
    this.done.set(name, this.visit(this.sources.get(name), `$defs.${name}`, depth + 1, false));
    this.pending.delete(name);
  }

  private acceptsNull(schema: Node): boolean {
    return matchesStrictSchema(schema, null, this.lookup);
  }

  /** Rewrites a node until it is a `$ref`, an `anyOf`, or a plain typed schema. */
  private normalise(source: Node, path: string, root: boolean): Node {
    let node = copy(source);
    const inlined = new Set<string>();
    for (let round = 0; ; round++) {
      if (round > MAX_DEPTH) refuse(path, 'a chain of references or intersections this long');
      if (node['$id'] !== undefined && !root) refuse(path, "a nested '$id' (a separate resource)");
      for (const keyword of ['$defs', 'definitions'])
        if (node[keyword] !== undefined && !root) refuse(path, `a nested '${keyword}'`);
      if (Object.hasOwn(node, '$ref')) {
        const siblings = Object.keys(node).filter(
          (key) => key !== '$ref' && !isAnnotation(key) && key !== '$schema' && key !== '$id',
        );
        if (root || siblings.length > 0) {
          const name = this.refName(node['$ref'], path);
          if (inlined.has(name)) refuse(path, `a cyclic '$ref' to '${name}'`);
          inlined.add(name);
          const { $ref: _ref, ...rest } = node;
          node = merge(this.resolve(node['$ref'], path), rest, path, '$ref');
          continue;
        }
        return node;
      }
      if (Object.hasOwn(node, 'allOf')) {
        const allOf = node['allOf'];
        if (!Array.isArray(allOf)) refuse(path, "an 'allOf' that is not a list");
        if (allOf.includes(false))
          refuse(path, "an 'allOf' with a 'false' branch (accepts nothing)");
        const branches = allOf.filter((branch) => branch !== true);
        if (branches.length > 1) refuse(path, "'allOf' with more than one branch");
        const { allOf: _allOf, ...rest } = node;
        const [only] = branches;
        if (only !== undefined && !isRecord(only))
          refuse(path, "an 'allOf' branch that is not a schema");
        node = only === undefined ? rest : merge(only, rest, path, 'allOf');
        continue;
      }
      if (Object.hasOwn(node, 'oneOf')) {
        const oneOf = node['oneOf'];
        if (!Array.isArray(oneOf) || oneOf.length === 0) refuse(path, "an empty 'oneOf'");
        if (Object.hasOwn(node, 'anyOf')) refuse(path, "'oneOf' beside 'anyOf'");
        if (!isDiscriminated(oneOf))
          refuse(path, "'oneOf' whose branches no required literal property tells apart");
        const { oneOf: _oneOf, ...rest } = node;
        node = copy(rest);
        setOwn(node, 'anyOf', oneOf);
        continue;
      }
      const type = node['type'];
      if (Array.isArray(type)) {
        if (type.length === 0) refuse(path, 'an empty type list');
        if (type.length === 1) {
          node['type'] = type[0];
          continue;
        }
        const structured = type.filter((item) => item === 'object' || item === 'array');
        if (structured.length > 0) {
          if (type.length !== 2 || !type.includes('null'))
            refuse(path, `the type list ${JSON.stringify(type)}`);
          if (Object.hasOwn(node, 'anyOf')) refuse(path, "a nullable type list beside 'anyOf'");
          const inner = copy(node, (key) => KEPT_ANNOTATIONS.has(key));
          inner['type'] = structured[0];
          const outer = copy(node, (key) => !KEPT_ANNOTATIONS.has(key));
          outer['anyOf'] = [inner, { type: 'null' }];
          node = outer;
          continue;
        }
      }
      const anyOf = node['anyOf'];
      if (anyOf !== undefined) {
        if (!Array.isArray(anyOf)) refuse(path, "an 'anyOf' that is not a list");
        const rest = copy(node, (key) => key === 'anyOf' || isAnnotation(key) || key === '$schema');
        const hasConstraints = Object.keys(rest).length > 0;
        const branches: unknown[] = [];
        for (const branch of anyOf) {
          if (branch === false) continue;
          if (branch === true) {
            if (!hasConstraints) refuse(path, "an 'anyOf' branch that accepts anything ('true')");
            branches.push(rest);
          } else if (!isRecord(branch)) refuse(path, "an 'anyOf' branch that is not a schema");
          else branches.push(hasConstraints ? merge(branch, rest, path, 'anyOf') : branch);
        }
        if (branches.length === 0) refuse(path, "an 'anyOf' with no branch that accepts anything");
        const outer = copy(node, (key) => !isAnnotation(key) && key !== '$schema' && key !== '$id');
        if (branches.length === 1) {
          node = merge(branches[0] as Node, outer, path, 'anyOf');
          continue;
        }
        setOwn(outer, 'anyOf', branches);
        return outer;
      }
      return node;
    }
  }

  visit(source: unknown, path: string, depth: number, root: boolean): Converted {
    if (depth > MAX_DEPTH) refuse(path, `a schema nested more than ${MAX_DEPTH} levels deep`);
    if (source === true) refuse(path, "a schema that accepts anything ('true')");
    if (source === false) refuse(path, "a schema that accepts nothing ('false')");
    if (!isRecord(source)) refuse(path, 'a schema that is not an object');
    const node = this.normalise(source, path, root);
    const out: Node = {};
    for (const key of KEPT_ANNOTATIONS) if (typeof node[key] === 'string') out[key] = node[key];

    if (Object.hasOwn(node, '$ref')) {
      const name = this.aliasTarget(this.refName(node['$ref'], path), path);
      this.definition(name, depth);
      out['$ref'] = `#/$defs/${encodePointerToken(name)}`;
      const restore: Restore = (value) => (this.done.get(name)?.restore ?? identity)(value);
      return { schema: out, restore };
    }

    const anyOf = node['anyOf'];
    if (Array.isArray(anyOf)) {
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

    for (const key of Object.keys(node)) {
      if (isAnnotation(key) || key === '$schema' || key === '$id' || key === 'additionalItems')
        continue;
      if (
        !TYPE_KEYWORDS.has(key) &&
        !['type', 'enum', 'const', '$defs', 'definitions'].includes(key)
      )
        refuse(path, `'${key}'`);
    }
    let type = node['type'];
    const hasAny = (keys: readonly string[]) => keys.some((key) => Object.hasOwn(node, key));
    const literal = Object.hasOwn(node, 'enum') || Object.hasOwn(node, 'const');
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
    if (literal) {
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
      const items = node['items'];
      if (Array.isArray(items)) refuse(path, "tuple 'items' (and 'additionalItems')");
      if (items === undefined) refuse(path, "an array without 'items'");
      for (const key of ['minItems', 'maxItems'])
        if (Object.hasOwn(node, key)) out[key] = node[key];
      // Beside a single `items` schema, `additionalItems` has no effect (draft 7), so it is dropped.
      const converted = this.visit(items, `${path}[]`, depth + 1, false);
      out['items'] = converted.schema;
      if (converted.restore !== identity)
        restore = (value) => (Array.isArray(value) ? value.map(converted.restore) : value);
    }
    return { schema: out, restore };
  }

  private object(node: Node, out: Node, path: string, depth: number): Restore {
    const extra = node['additionalProperties'];
    if (extra !== undefined && extra !== false)
      refuse(path, "'additionalProperties' other than false (a map or an open object)");
    const props = node['properties'] ?? {};
    if (!isRecord(props)) refuse(path, "'properties' that is not an object");
    const requiredList = node['required'] ?? [];
    if (!Array.isArray(requiredList) || requiredList.some((key) => typeof key !== 'string'))
      refuse(path, "'required' that is not a list of names");
    const required = new Set(requiredList as string[]);
    for (const key of required)
      if (props[key] === undefined || !Object.hasOwn(props, key))
        refuse(
          join(path, key),
          `'required' naming '${key.slice(0, 80)}', which 'properties' does not define`,
        );
    // Refused before the walk, so an oversized schema costs no more than the limit.
    const keys = Object.keys(props);
    this.properties += keys.length;
    if (this.properties > STRICT_LIMITS.properties)
      refuse(path, `more than ${STRICT_LIMITS.properties} object properties`);
    const properties: Node = {};
    const children = new Map<string, Restore>();
    const stripNull = new Set<string>();
    for (const key of keys) {
      const child = props[key];
      const childPath = join(path, key);
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

const TYPE_KEYWORDS = new Set([
  ...STRING_KEYWORDS,
  ...NUMBER_KEYWORDS,
  ...ARRAY_KEYWORDS,
  ...OBJECT_KEYWORDS,
]);

function nullable(schema: Node): Node {
  const type = schema['type'];
  const literal = Object.hasOwn(schema, 'enum') || Object.hasOwn(schema, 'const');
  const scalar = (item: unknown) => item !== 'object' && item !== 'array';
  // Scalars take a type union; objects, arrays, literals and unions take anyOf with null.
  if (!literal && typeof type === 'string' && scalar(type))
    return { ...schema, type: [type, 'null'] };
  if (!literal && Array.isArray(type) && type.every(scalar))
    return { ...schema, type: [...type, 'null'] };
  const { description, ...rest } = schema;
  if (
    Array.isArray(rest['anyOf']) &&
    Object.keys(rest).every((key) => key === 'anyOf' || key === 'title')
  )
    return { ...schema, anyOf: [...rest['anyOf'], { type: 'null' }] };
  return description === undefined
    ? { anyOf: [rest, { type: 'null' }] }
    : { description, anyOf: [rest, { type: 'null' }] };
}

/**
 * Rewrites a tool's JSON Schema for OpenAI strict mode, so that every schema it accepts keeps
 * strict mode's documented rules (checked before returning): an object root without `anyOf`;
 * every object closed (`additionalProperties: false`) with every property required, optional
 * ones made nullable; only supported keywords and formats; `$ref` only into the root's `$defs`
 * (`definitions` are moved there, unreferenced ones dropped); at most 10 levels of object
 * nesting, 5,000 properties, 1,000 enum values and 120,000 characters of names and values.
 *
 * Exact rewrites: a one-element `allOf` is flattened; a `$ref` with sibling keywords (and a
 * root `$ref`) is inlined; an object with `anyOf` has its keywords distributed into each
 * branch; a `oneOf` whose branches a required literal property tells apart becomes `anyOf`;
 * `false` branches and optional `false` properties are dropped; `["object", "null"]` becomes
 * `anyOf`; `default`, `examples` and `$comment` are dropped. The mapping is reversed by
 * {@link StrictJsonSchema.restore}.
 *
 * @throws AdapterError `schema_unsupported` naming the keyword and the path (`a.b[]`,
 *   `a.anyOf[1]`, `$defs.Name.c`) of anything strict mode cannot express exactly: `not`,
 *   `if`/`then`/`else`, multi-branch `allOf`, overlapping `oneOf`, maps and open objects,
 *   tuples, `true` or untyped schemas (they accept anything), a `required` key without a
 *   property, conflicting `$ref` siblings, external or cyclic-only references, unsupported
 *   formats, and schemas over the limits.
 * @public
 */
export function toStrictJsonSchema(schema: JsonSchema): StrictJsonSchema {
  if (!isRecord(schema)) refuse('', 'a root that is not an object schema');
  const converter = new Converter(schema);
  const root = copy(schema, (key) => key === '$defs' || key === 'definitions');
  const { schema: converted, restore } = converter.visit(root, '', 0, true);
  if (converted['type'] !== 'object') {
    if (Array.isArray(converted['anyOf']))
      refuse('', "'anyOf' at the root (an object with alternatives)");
    refuse('', "a root that is not type 'object'");
  }
  const defs = converter.definitions();
  const strict = defs === undefined ? converted : { ...converted, $defs: defs };
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

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
