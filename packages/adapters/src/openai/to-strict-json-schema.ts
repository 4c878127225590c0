import { AdapterError } from '../adapter-error.ts';
import type { JsonSchema } from '../tool-json-schema.ts';
import {
  decodePointerToken,
  encodePointerToken,
  matchesStrictSchema,
  pointerTokens,
  resolvePointer,
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
// Levels of nesting, counted as openai-agents-js counts them: the root is level 1, and each
// property, item, branch and `$ref` hop is one more. Deeper is refused, as there.
const MAX_DEPTH = 100;

// Annotations: the text ones and `examples` are kept, as openai-node keeps them; the others are
// dropped (they constrain nothing, and a `default` would read as a value the model may omit).
const TEXT_ANNOTATIONS = ['description', 'title', '$comment'];
const ANNOTATIONS = new Set([
  ...TEXT_ANNOTATIONS,
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
]);
// What a root keeps of a JSON Schema resource: its dialect and its base URI, as openai-node.
const ROOT_METADATA = ['$schema', '$id'];
const isAnnotation = (key: string) => ANNOTATIONS.has(key);

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

// Names and paths come from the schema: each is cut so the whole text stays under 2,000
// characters, however long the property names.
const cut = (text: string, limit: number) =>
  text.length > limit ? `${text.slice(0, limit)}...` : text;

function refuse(path: string, message: string): never {
  throw new AdapterError(
    'schema_unsupported',
    `OpenAI strict mode cannot express ${cut(message, 900)} at ${cut(path, 900) || '<root>'}.`,
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

/**
 * A copy of `value` when it is JSON data (null, booleans, finite numbers, strings, arrays and
 * plain objects, at most 64 levels deep); refused, naming the path, otherwise. For annotation
 * values (`examples`) the output carries.
 */
function jsonCopy(value: unknown, path: string, depth = 0): unknown {
  if (depth > 64) refuse(path, "'examples' nested more than 64 levels deep");
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (Array.isArray(value)) return value.map((item) => jsonCopy(item, path, depth + 1));
  if (isRecord(value) && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Node = {};
    for (const key of Object.keys(value))
      if (value[key] !== undefined) setOwn(out, key, jsonCopy(value[key], path, depth + 1));
    return out;
  }
  return refuse(path, "'examples' that are not JSON data");
}

// JSON with object keys sorted: equal for schemas that differ only in key order.
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    isRecord(item)
      ? Object.fromEntries(
          Object.keys(item)
            .sort()
            .map((key) => [key, item[key]]),
        )
      : item,
  );
}

const equalJson = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

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
    else if (key === 'type') {
      // Two types intersect: `['object', 'null']` beside `'object'` is `'object'`.
      const type = intersectTypes(out[key], overlay[key]);
      if (type === undefined) refuse(path, `'${keyword}' beside a conflicting 'type'`);
      out[key] = type;
    } else if (key === 'enum' && Array.isArray(out[key]) && Array.isArray(overlay[key])) {
      const base = out[key] as unknown[];
      const both = (overlay[key] as unknown[]).filter((value) =>
        base.some((item) => equalJson(item, value)),
      );
      if (both.length === 0) refuse(path, `'${keyword}' beside a conflicting 'enum'`);
      out[key] = both;
    } else if (key === 'required' && Array.isArray(out[key]) && Array.isArray(overlay[key])) {
      out[key] = [...new Set([...(out[key] as unknown[]), ...(overlay[key] as unknown[])])];
    } else if (
      BOUNDS.has(key) &&
      typeof out[key] === 'number' &&
      typeof overlay[key] === 'number'
    ) {
      // Two bounds of one kind: the tighter holds for both.
      const pick = BOUNDS.get(key) === 'min' ? Math.max : Math.min;
      out[key] = pick(out[key] as number, overlay[key] as number);
    } else if (!equalJson(out[key], overlay[key]))
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

// A branch of only annotations and definitions constrains nothing; a `$ref` into its
// definitions cannot be resolved (only the root's are), so dropping them changes nothing.
function definitionsOnly(node: Node): boolean {
  return Object.keys(node).every(
    (key) =>
      isAnnotation(key) || ((key === '$defs' || key === 'definitions') && isRecord(node[key])),
  );
}

const BOUNDS = new Map<string, 'min' | 'max'>([
  ['minimum', 'min'],
  ['exclusiveMinimum', 'min'],
  ['minLength', 'min'],
  ['minItems', 'min'],
  ['maximum', 'max'],
  ['exclusiveMaximum', 'max'],
  ['maxLength', 'max'],
  ['maxItems', 'max'],
]);

// The names a `propertyNames` of only a string `enum` or `const` allows, else `undefined`.
function literalNames(schema: unknown): string[] | undefined {
  if (!isRecord(schema)) return undefined;
  for (const key of Object.keys(schema))
    if (!['enum', 'const', 'type'].includes(key) && !isAnnotation(key)) return undefined;
  if (schema['type'] !== undefined && schema['type'] !== 'string') return undefined;
  const values = Object.hasOwn(schema, 'const') ? [schema['const']] : schema['enum'];
  if (!Array.isArray(values) || !values.every((value) => typeof value === 'string'))
    return undefined;
  return values as string[];
}

/**
 * A record over a closed set of keys (zod's `z.record(z.enum([...]), value)`) as the object it
 * is: each allowed name a property (its own schema, or `additionalProperties`), nothing else.
 */
function closedRecord(node: Node, names: readonly string[], path: string): Node {
  const { propertyNames: _names, additionalProperties: extra, properties, ...rest } = node;
  const own = isRecord(properties) ? properties : {};
  const allowed = new Set(names);
  const required = Array.isArray(node['required']) ? node['required'] : [];
  for (const key of required)
    if (typeof key === 'string' && !allowed.has(key))
      refuse(join(path, key), `a required property '${key.slice(0, 80)}' 'propertyNames' excludes`);
  const merged: Node = {};
  for (const name of allowed) {
    const schema = Object.hasOwn(own, name) ? own[name] : (extra ?? true);
    if (schema !== false) setOwn(merged, name, schema);
  }
  return {
    ...rest,
    type: rest['type'] ?? 'object',
    properties: merged,
    additionalProperties: false,
  };
}

/** The types two `type` keywords both allow, or `undefined` when no value has both. */
function intersectTypes(a: unknown, b: unknown): unknown {
  const left = Array.isArray(a) ? a : [a];
  const right = Array.isArray(b) ? b : [b];
  const both: unknown[] = [];
  const add = (type: unknown) => {
    if (!both.includes(type)) both.push(type);
  };
  for (const type of left) {
    if (right.includes(type)) add(type);
    else if (type === 'integer' && right.includes('number')) add('integer');
    else if (type === 'number' && right.includes('integer')) add('integer');
  }
  if (both.length === 0) return undefined;
  return both.length === 1 ? both[0] : both;
}

const hasAnyKey = (node: Node, keys: readonly string[]) =>
  keys.some((key) => Object.hasOwn(node, key));

// Two `type` lists with the same members.
const sameTypes = (type: unknown, expected: readonly string[]) =>
  Array.isArray(type) &&
  type.length === expected.length &&
  expected.every((item) => type.includes(item));

const OBJECT_TYPE = (type: unknown) =>
  type === 'object' ||
  (Array.isArray(type) && type.length === 2 && type.includes('object') && type.includes('null'));

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

// Keywords whose values are schemas, by shape: a `$ref` may point through these and no other
// (not into `default`, `enum` or other literal payloads).
const SCHEMA_MAPS = new Set([
  '$defs',
  'definitions',
  'properties',
  'patternProperties',
  'dependencies',
]);
const SCHEMA_LISTS = new Set(['anyOf', 'allOf', 'oneOf', 'items', 'prefixItems']);
const SCHEMA_SINGLES = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
]);

// The schema a pointer reaches through schema-valued keywords only, or `undefined`.
function walkPointer(root: Node, tokens: readonly string[]): unknown {
  let node: unknown = root;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] as string;
    if (!isRecord(node)) return undefined;
    const value = node[token];
    const next = tokens[index + 1];
    if (SCHEMA_MAPS.has(token) && isRecord(value) && next !== undefined) {
      if (!Object.hasOwn(value, next)) return undefined;
      node = value[next];
      index++;
    } else if (SCHEMA_LISTS.has(token) && Array.isArray(value) && next !== undefined) {
      if (!/^(0|[1-9][0-9]*)$/.test(next) || Number(next) >= value.length) return undefined;
      node = value[Number(next)];
      index++;
    } else if (SCHEMA_SINGLES.has(token) && !Array.isArray(value)) node = value;
    else return undefined;
  }
  return isRecord(node) || typeof node === 'boolean' ? node : undefined;
}

/**
 * A definition's canonical pointer (`/$defs/a~1b`) as a `$ref`: each token percent-encoded
 * (`$` kept).
 */
function definitionRef(key: string): string {
  const tokens = key.split('/').slice(1);
  return `#/${tokens.map((token) => encodeURIComponent(token).replace(/%24/g, '$')).join('/')}`;
}

class Converter {
  // Every schema a `$ref` reached, by its canonical pointer (`/$defs/A`, `/properties/x`).
  private readonly sources = new Map<string, unknown>();
  private readonly done = new Map<string, Converted>();
  private readonly pending = new Set<string>();
  private readonly order: string[] = [];
  // The name each referenced schema takes in the output's `$defs`, and back.
  private readonly names = new Map<string, string>();
  private readonly byName = new Map<string, string>();
  private readonly reserved = new Set<string>();
  private properties = 0;
  // The deepest level the conversion reached, and how far below its reference each converted
  // definition reaches: to check a reused definition against its new depth.
  private deepest = 0;
  private readonly heights = new Map<string, number>();
  // Definitions being followed by an `allOf` merge, to refuse a cycle through them.
  private readonly intersecting = new Set<string>();

  private readonly document: Node;
  // The root's own definitions (`/$defs/A`, `/definitions/B`): kept where they are, by name.
  private readonly rootDefinitions = new Set<string>();

  constructor(document: Node) {
    this.document = document;
    // Definition names count toward strict mode's character limit: checked before any entry
    // is converted, so a schema of very many definitions is refused at the cost of its names.
    let characters = 0;
    for (const keyword of ['$defs', 'definitions'] as const) {
      const defs = document[keyword];
      if (defs === undefined) continue;
      if (!isRecord(defs)) refuse(keyword, `a '${keyword}' that is not an object`);
      for (const name of Object.keys(defs)) {
        characters += name.length;
        if (characters > STRICT_LIMITS.characters)
          refuse(keyword, `more than ${STRICT_LIMITS.characters} characters of definition names`);
        this.reserved.add(name);
        if (defs[name] === undefined) continue;
        const key = `/${keyword}/${encodePointerToken(name)}`;
        this.rootDefinitions.add(key);
        this.sources.set(key, defs[name]);
      }
    }
  }

  /**
   * The output: the converted root beside the root's `$defs` and `definitions`, every entry
   * converted (referenced or not, as openai-node converts them) under its own name. A `$ref`
   * to any other place keeps its pointer where the output there is the schema it reached
   * (the layout unchanged); else its target is hoisted into `$defs`.
   */
  finish(root: Node): Node {
    for (const key of this.rootDefinitions) {
      const source = this.sources.get(key);
      // A container of nested definitions only is no schema of its own: left out, unless a
      // `$ref` names it (then it is refused as the schema without a type it is).
      if (this.done.has(key) || (isRecord(source) && definitionsOnly(source))) continue;
      this.definition(key, 2, key.split('/').slice(1).map(decodePointerToken).join('.'));
    }
    const out: Node = { ...root };
    for (const keyword of ['$defs', 'definitions'] as const) {
      const defs = this.document[keyword];
      if (!isRecord(defs)) continue;
      const converted: Node = {};
      for (const name of Object.keys(defs)) {
        const done = this.done.get(`/${keyword}/${encodePointerToken(name)}`);
        if (done !== undefined) setOwn(converted, name, done.schema);
      }
      setOwn(out, keyword, converted);
    }
    // Decided first and applied after, so no decision sees another's result.
    const keep = new Map<string, boolean>();
    const canonical = new Map<string, string>();
    for (const { key, written } of this.pointers) {
      if (keep.has(written)) continue;
      const at = resolvePointer(out, written);
      let target = canonical.get(key);
      if (target === undefined) {
        target = canonicalJson(this.done.get(key)?.schema);
        canonical.set(key, target);
      }
      keep.set(written, at !== undefined && canonicalJson(at) === target);
    }
    const hoisted = new Set<string>();
    for (const { node, key, written } of this.pointers)
      if (keep.get(written) === true) node['$ref'] = written;
      else hoisted.add(key);
    for (const key of this.order) {
      if (!hoisted.has(key)) continue;
      if (!isRecord(out['$defs'])) out['$defs'] = {};
      setOwn(out['$defs'] as Node, this.names.get(key) as string, this.done.get(key)?.schema);
    }
    this.output = out;
    return out;
  }

  // `$ref`s to places other than the root and its definitions, to keep or hoist at the end.
  private readonly pointers: { node: Node; key: string; written: string }[] = [];
  private output: Node | undefined;

  /** The converted root, once it is: what `#` refers to. */
  root: Converted | undefined;
  private readonly rootRestore: Restore = (value) => (this.root?.restore ?? identity)(value);

  /**
   * The converted schema a `$ref` of the output reaches, for matching: through the finished
   * output once it is built, before that through the definitions converted so far.
   */
  readonly lookup = (ref: string): unknown => {
    if (ref === '#') return this.root?.schema;
    if (this.output !== undefined) return resolvePointer(this.output, ref);
    // Before: a root definition, or a name hoisted into `$defs` (never a root definition's).
    const tokens = pointerTokens(ref) ?? [];
    const key =
      this.byName.get(tokens[1] ?? '') ??
      tokens.map((token) => `/${encodePointerToken(token)}`).join('');
    return this.done.get(key)?.schema;
  };

  // A reference as people read it: the definition's name, or the pointer.
  private label(key: string): string {
    const tokens = key.split('/').slice(1).map(decodePointerToken);
    if (tokens.length === 2 && (tokens[0] === '$defs' || tokens[0] === 'definitions'))
      return (tokens[1] as string).slice(0, 80);
    return `#${key}`.slice(0, 80);
  }

  /** The canonical pointer a `$ref` names, after checking it reaches a schema. */
  private refName(ref: unknown, path: string): string {
    if (typeof ref !== 'string') refuse(path, `a '$ref' that is not a string`);
    const tokens = pointerTokens(ref);
    if (tokens === undefined)
      refuse(
        path,
        `a '$ref' that is not a local JSON Pointer (${JSON.stringify(ref.slice(0, 80))})`,
      );
    const key = tokens.map((token) => `/${encodePointerToken(token)}`).join('');
    if (this.sources.has(key)) return key;
    let target = walkPointer(this.document, tokens);
    if (target === undefined) {
      const [keyword, name] = tokens;
      if (tokens.length === 2 && (keyword === '$defs' || keyword === 'definitions'))
        refuse(path, `a '$ref' to a missing definition ${JSON.stringify(name?.slice(0, 80))}`);
      refuse(path, `a '$ref' that reaches no schema (${JSON.stringify(ref.slice(0, 80))})`);
    }
    // The document root, as a definition of its own: without the keywords of a resource.
    if (tokens.length === 0) target = copy(this.document, (k) => k === '$id' || k === '$schema');
    this.sources.set(key, target);
    return key;
  }

  // Follows definitions that are only a `$ref` (aliases) to the one that has content.
  // Each hop is a level of depth: a chain longer than the depth left is refused.
  private aliasTarget(start: string, path: string, depth: number): { key: string; depth: number } {
    let key = start;
    // A reference back into a schema being converted (the root, a recursive definition) is
    // recursion, not a level deeper.
    let at = key === '' || this.pending.has(key) ? depth - 1 : depth;
    const seen = new Set<string>([key]);
    for (;;) {
      if (at > MAX_DEPTH) refuse(path, `a schema nested more than ${MAX_DEPTH} levels deep`);
      const target = this.sources.get(key);
      if (!isRecord(target) || !Object.hasOwn(target, '$ref')) return { key, depth: at };
      if (Object.keys(target).some((k) => k !== '$ref' && !isAnnotation(k)))
        return { key, depth: at };
      key = this.refName(target['$ref'], path);
      if (seen.has(key)) refuse(path, `a cyclic '$ref' to '${this.label(key)}'`);
      seen.add(key);
      // A hop back into a schema being converted (the root, a recursive definition) is
      // recursion, not a level deeper.
      if (key !== '' && !this.pending.has(key)) at++;
    }
  }

  private resolve(ref: unknown, path: string): Node {
    const key = this.refName(ref, path);
    const target = this.sources.get(key);
    if (typeof target === 'boolean')
      refuse(path, `a '$ref' to the boolean schema '${String(target)}'`);
    if (!isRecord(target)) refuse(path, "a '$ref' to a value that is not a schema");
    // Inlined, a target's own resource scope would rebind its references.
    if (key !== '' && target['$id'] !== undefined)
      refuse(path, `a '$ref' to '${this.label(key)}', a separate resource ('$id')`);
    return target;
  }

  // The `$defs` name of a schema a pointer other than a root definition reaches: a fresh
  // `__openai_strict_ref_N`, the peers' name for it, that no root definition has.
  private nameOf(key: string): string {
    const known = this.names.get(key);
    if (known !== undefined) return known;
    const tokens = key.split('/').slice(1).map(decodePointerToken);
    const prefix = tokens.includes('allOf') ? '__openai_strict_allOf_ref_' : '__openai_strict_ref_';
    let name: string | undefined;
    for (let n = 0; name === undefined || this.byName.has(name); n++) {
      name = `${prefix}${n}`;
      if (this.reserved.has(name)) name = undefined;
    }
    this.names.set(key, name);
    this.byName.set(name, key);
    return name;
  }

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
    const at = key.split('/').slice(1).map(decodePointerToken).join('.');
    this.done.set(key, this.visit(this.sources.get(key), at, depth, false));
    this.heights.set(key, this.deepest - depth);
    this.deepest = Math.max(outer, this.deepest);
    this.pending.delete(key);
  }

  private acceptsNull(schema: Node): boolean {
    return matchesStrictSchema(schema, null, this.lookup);
  }

  /** Whether a union branch (through `$ref` aliases) accepts only values of one type. */
  private onlyOfType(branch: unknown, kind: string, path: string): boolean {
    let node = branch;
    // Through `$ref` aliases and one-branch `allOf`s, as openai-node looks through them.
    for (let hops = 0; isRecord(node) && hops <= MAX_DEPTH; hops++) {
      const keyword = Object.hasOwn(node, '$ref') ? '$ref' : 'allOf';
      if (!Object.hasOwn(node, keyword)) break;
      if (Object.keys(node).some((key) => key !== keyword && !isAnnotation(key))) return false;
      const value = node[keyword];
      if (keyword === '$ref') node = this.sources.get(this.refName(value, path));
      else if (Array.isArray(value) && value.length === 1) node = value[0];
      else return false;
    }
    if (!isRecord(node)) return false;
    const type =
      Array.isArray(node['type']) && node['type'].length === 1 ? node['type'][0] : node['type'];
    return type === kind;
  }

  /** Rewrites a node until it is a `$ref`, an `anyOf`, or a plain typed schema. */
  private normalise(source: Node, path: string, root: boolean): Node {
    let node = copy(source);
    const inlined = new Set<string>();
    for (let round = 0; ; round++) {
      if (round > MAX_DEPTH) refuse(path, 'a chain of references or intersections this long');
      if (node['$id'] !== undefined && !root) refuse(path, "a nested '$id' (a separate resource)");
      // Nested definitions constrain nothing themselves; a `$ref` into them is resolved by its
      // pointer like any other.
      for (const keyword of ['$defs', 'definitions']) {
        if (node[keyword] === undefined) continue;
        if (!isRecord(node[keyword])) refuse(path, `a '${keyword}' that is not an object`);
        delete node[keyword];
      }
      if (Object.hasOwn(node, '$ref')) {
        const siblings = Object.keys(node).filter(
          (key) => key !== '$ref' && !isAnnotation(key) && key !== '$schema' && key !== '$id',
        );
        // Draft 7 ignores keywords beside `$ref` and later drafts apply them: either reading
        // may be the author's, so they are refused, as openai-node refuses them.
        if (siblings.length > 0)
          refuse(path, `'$ref' beside '${siblings[0]?.slice(0, 80)}' (keywords Draft 7 ignores)`);
        if (root) {
          const name = this.refName(node['$ref'], path);
          if (inlined.has(name)) refuse(path, `a cyclic '$ref' to '${this.label(name)}'`);
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
        const { allOf: _allOf, ...rest } = node;
        node = this.intersect(rest, allOf, path);
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
      if (Object.hasOwn(node, 'propertyNames')) {
        const names = literalNames(node['propertyNames']);
        if (names === undefined) return node; // refused with the keyword named
        node = closedRecord(node, names, path);
        continue;
      }
      const type = node['type'];
      if (Array.isArray(type)) {
        if (type.length === 0) refuse(path, 'an empty type list');
        if (type.length === 1) {
          node['type'] = type[0];
          continue;
        }
        // `['object', 'null']` and `['array', 'null']` are strict mode as they are (and what
        // the peers emit); an object or array beside any other type is not.
        const structured = type.filter((item) => item === 'object' || item === 'array');
        if (structured.length > 0 && (type.length !== 2 || !type.includes('null')))
          refuse(path, `the type list ${JSON.stringify(type)}`);
      }
      const anyOf = node['anyOf'];
      if (anyOf !== undefined) {
        if (!Array.isArray(anyOf)) refuse(path, "an 'anyOf' that is not a list");
        const rest = copy(node, (key) => key === 'anyOf' || isAnnotation(key) || key === '$schema');
        // Empty object keywords constrain nothing; a wrapper `type` every branch already has
        // is redundant. Other object or array keywords on the wrapper are refused, as
        // openai-node refuses them: they would bind every branch.
        if (isRecord(rest['properties']) && Object.keys(rest['properties']).length === 0)
          delete rest['properties'];
        if (Array.isArray(rest['required']) && rest['required'].length === 0)
          delete rest['required'];
        for (const kind of ['object', 'array'] as const) {
          const shaped =
            rest['type'] === undefined
              ? hasAnyKey(rest, kind === 'object' ? OBJECT_KEYWORDS : ARRAY_KEYWORDS)
              : (Array.isArray(rest['type']) ? rest['type'] : [rest['type']]).includes(kind);
          if (!shaped) continue;
          const redundant =
            Object.keys(rest).length === 1 &&
            (rest['type'] === kind || sameTypes(rest['type'], [kind, 'null'])) &&
            anyOf.every((branch) => branch === false || this.onlyOfType(branch, kind, path));
          if (!redundant) refuse(path, `${kind} keywords around 'anyOf' (they bind every branch)`);
          delete rest['type'];
        }
        const hasConstraints = Object.keys(rest).length > 0;
        const branches: unknown[] = [];
        for (const branch of anyOf) {
          if (branch === false) continue;
          if (branch === true) {
            if (!hasConstraints || root)
              refuse(path, "an 'anyOf' branch that accepts anything ('true')");
            branches.push(rest);
          } else if (!isRecord(branch)) refuse(path, "an 'anyOf' branch that is not a schema");
          else if (!hasConstraints) branches.push(branch);
          // A branch whose type the wrapper's excludes accepts nothing here: it is dropped, so
          // `type: ['object', 'null']` around object branches only is redundant, not a conflict.
          else if (
            branch['type'] === undefined ||
            rest['type'] === undefined ||
            intersectTypes(branch['type'], rest['type']) !== undefined
          )
            branches.push(merge(branch, rest, path, 'anyOf'));
        }
        if (branches.length === 0) refuse(path, "an 'anyOf' with no branch that accepts anything");
        const outer = copy(node, (key) => !isAnnotation(key) && key !== '$schema' && key !== '$id');
        // One branch left stays a one-branch `anyOf`, as the peers leave it, unless keywords
        // beside it must merge into it or it is the root (which strict mode wants an object).
        if (branches.length === 1 && (hasConstraints || root)) {
          node = merge(branches[0] as Node, outer, path, 'anyOf');
          continue;
        }
        setOwn(outer, 'anyOf', branches);
        return outer;
      }
      return node;
    }
  }

  /**
   * Intersects the branches of an `allOf` with the keywords beside it, exactly or not at all.
   * Object branches merge as openai-node merges them: properties side by side (a property in
   * two branches must have the same schema there, key order aside), `required` united, closed
   * branches' property sets
   * intersected (an optional property another closed branch excludes is dropped; a required
   * one is refused). Other branches are put side by side keyword by keyword.
   */
  private intersect(rest: Node, allOf: readonly unknown[], path: string): Node {
    const unique: Node[] = [];
    const paths = new Map<Node, string>();
    for (const [index, branch] of allOf.entries()) {
      if (branch === true) continue; // the identity of an intersection
      const at = `${path}.allOf[${index}]`;
      if (!isRecord(branch)) refuse(at, "an 'allOf' branch that is not a schema");
      // Merged into its parent, a branch's own resource scope would rebind its references.
      if (branch['$id'] !== undefined) refuse(at, "a nested '$id' (a separate resource)");
      if (unique.some((seen) => equalJson(seen, branch))) continue;
      unique.push(branch);
      paths.set(branch, at);
    }
    const [only] = unique;
    if (only === undefined) return rest;
    const ownObjectKeywords = OBJECT_KEYWORDS.some((key) => Object.hasOwn(rest, key));
    if (unique.length === 1 && !ownObjectKeywords) return merge(only, rest, path, 'allOf');
    const flat = unique
      .filter((branch) => !definitionsOnly(branch))
      .map((branch) => {
        const node = this.flatBranch(branch, paths.get(branch) as string);
        paths.set(node, paths.get(branch) as string);
        return node;
      });
    const objectShaped = (node: Node) =>
      node['type'] === undefined
        ? OBJECT_KEYWORDS.some((key) => Object.hasOwn(node, key))
        : OBJECT_TYPE(node['type']);
    const neutral = (node: Node) =>
      Object.keys(node).every((key) => isAnnotation(key) || key === '$schema' || key === '$id');
    // An intersection with a union is the union of the intersections: (A ∧ (B ∨ C)) is
    // (A ∧ B) ∨ (A ∧ C), so an object beside a (discriminated) union merges into each branch.
    const union = flat.findIndex((node) => Array.isArray(node['anyOf']));
    if (union >= 0 && (flat.some(objectShaped) || objectShaped(rest))) {
      // One union only: distributing over several multiplies their branches.
      const second = flat.findIndex((node, index) => index > union && Array.isArray(node['anyOf']));
      if (second >= 0)
        refuse(
          paths.get(flat[second] as Node) ?? path,
          "an object 'allOf' with a second union branch",
        );
      const { anyOf: alternatives, ...own } = flat[union] as Node;
      const others = flat.filter((_, index) => index !== union);
      const constraints = copy(rest, (key) => isAnnotation(key) || key === '$schema');
      const out = copy(rest, (key) => !isAnnotation(key));
      out['anyOf'] = (alternatives as unknown[]).map((alternative) => ({
        allOf: [constraints, own, ...others, alternative],
      }));
      return out;
    }
    if (!flat.some(objectShaped) && !objectShaped(rest)) {
      let out = rest;
      for (const branch of flat) out = merge(branch, out, path, 'allOf');
      return out;
    }
    const objects = [rest, ...flat].filter(objectShaped);
    const out: Node = {};
    // Annotations: the first wins, the keywords beside the `allOf` before its branches.
    for (const node of [rest, ...flat])
      for (const key of Object.keys(node))
        if ((isAnnotation(key) || key === '$schema' || key === '$id') && !Object.hasOwn(out, key))
          setOwn(out, key, node[key]);
    const properties = new Map<string, unknown>();
    const required = new Set<string>();
    let closed: Set<string> | undefined;
    let sawProperties = false;
    let sawRequired = false;
    let object = false;
    let nullable = false;
    for (const node of [rest, ...flat]) {
      if (node !== rest && neutral(node)) continue;
      const at = node === rest ? path : (paths.get(node) ?? path);
      if (!objects.includes(node)) {
        if (node === rest && neutral(node)) continue;
        const keys = Object.keys(node).filter((key) => !isAnnotation(key) && key !== '$schema');
        refuse(at, `an 'allOf' branch with '${keys[0]}' beside object branches`);
      }
      for (const key of Object.keys(node)) {
        if (isAnnotation(key) || key === '$schema' || key === '$id') continue;
        if (key !== 'type' && !OBJECT_KEYWORDS.includes(key))
          refuse(at, `'${key}' in an object 'allOf' (it cannot be merged exactly)`);
      }
      if (node['type'] === 'object') object = true;
      else if (node['type'] !== undefined) nullable = true;
      const props = node['properties'];
      if (props !== undefined) {
        if (!isRecord(props)) refuse(at, "'properties' that is not an object");
        sawProperties = true;
        for (const key of Object.keys(props)) {
          if (props[key] === undefined) continue;
          // openai-node merges one property only where the branches give it the same schema
          // (key order aside); a pair of different schemas is refused as it refuses it.
          if (!properties.has(key)) properties.set(key, props[key]);
          else if (!equalJson(properties.get(key), props[key]))
            refuse(
              join(path, key),
              `an 'allOf' whose branches give the property '${key.slice(0, 80)}' different schemas`,
            );
        }
      }
      const names = node['required'];
      if (names !== undefined) {
        if (!Array.isArray(names) || names.some((key) => typeof key !== 'string'))
          refuse(at, "'required' that is not a list of names");
        sawRequired = true;
        for (const key of names as string[]) required.add(key);
      }
      const extra = node['additionalProperties'];
      if (extra === false) {
        const own = new Set(isRecord(props) ? Object.keys(props) : []);
        closed = closed === undefined ? own : new Set([...closed].filter((key) => own.has(key)));
      } else if (extra !== undefined && extra !== true)
        refuse(at, "an 'allOf' branch whose 'additionalProperties' is a schema (a map)");
    }
    if (closed !== undefined) {
      const allowed = closed;
      const excluded = [...required].find((key) => !allowed.has(key));
      if (excluded !== undefined) {
        // Object keywords do not constrain null: a nullable-only intersection is null.
        if (nullable && !object) return { ...out, type: 'null' };
        refuse(
          join(path, excluded),
          `an 'allOf' whose closed branch excludes the required property '${excluded.slice(0, 80)}'`,
        );
      }
    }
    if (object || nullable) out['type'] = object ? 'object' : ['object', 'null'];
    if (sawProperties) {
      const merged: Node = {};
      for (const [key, schema] of properties) {
        if (closed !== undefined && !closed.has(key)) continue;
        setOwn(merged, key, schema);
      }
      out['properties'] = merged;
    }
    if (sawRequired) out['required'] = [...required];
    if (closed !== undefined) out['additionalProperties'] = false;
    return out;
  }

  /** A branch of an `allOf` with its own `allOf`s merged and its alias `$ref`s followed. */
  private flatBranch(branch: Node, path: string): Node {
    const followed: string[] = [];
    try {
      let node = branch;
      for (;;) {
        node = this.normalise(node, path, false);
        if (!Object.hasOwn(node, '$ref')) return node;
        const name = this.refName(node['$ref'], path);
        if (this.intersecting.has(name))
          refuse(path, `a cyclic '$ref' to '${this.label(name)}' through 'allOf'`);
        this.intersecting.add(name);
        followed.push(name);
        const { $ref: _ref, ...annotations } = node;
        node = merge(this.resolve(node['$ref'], path), annotations, path, '$ref');
      }
    } finally {
      for (const name of followed) this.intersecting.delete(name);
    }
  }

  /**
   * Converts a schema; the definitions maps it holds (not the root's) stay in it, each entry
   * converted, as openai-node keeps them at their own place.
   */
  visit(source: unknown, path: string, depth: number, root: boolean): Converted {
    const converted = this.convert(source, path, depth, root);
    if (root || !isRecord(source)) return converted;
    for (const keyword of ['$defs', 'definitions'] as const) {
      const defs = source[keyword];
      if (!isRecord(defs)) continue;
      const map: Node = {};
      for (const name of Object.keys(defs))
        if (defs[name] !== undefined)
          setOwn(
            map,
            name,
            this.visit(defs[name], join(path, `${keyword}.${name}`), depth + 1, false).schema,
          );
      setOwn(converted.schema, keyword, map);
    }
    return converted;
  }

  private convert(source: unknown, path: string, depth: number, root: boolean): Converted {
    if (depth > MAX_DEPTH) refuse(path, `a schema nested more than ${MAX_DEPTH} levels deep`);
    if (depth > this.deepest) this.deepest = depth;
    if (source === true) refuse(path, "a schema that accepts anything ('true')");
    if (source === false) refuse(path, "a schema that accepts nothing ('false')");
    if (!isRecord(source)) refuse(path, 'a schema that is not an object');
    const node = this.normalise(source, path, root);
    const out: Node = {};
    if (root)
      for (const key of ROOT_METADATA) if (typeof node[key] === 'string') out[key] = node[key];
    for (const key of TEXT_ANNOTATIONS) if (typeof node[key] === 'string') out[key] = node[key];
    if (Array.isArray(node['examples'])) out['examples'] = jsonCopy(node['examples'], path);

    if (Object.hasOwn(node, '$ref')) {
      const first = this.refName(node['$ref'], path);
      // Follows the alias chain to refuse a cycle or a chain over the depth limit.
      const target = this.aliasTarget(first, path, depth + 1);
      if (this.rootDefinitions.has(first)) {
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
      if (this.rootDefinitions.has(key)) out['$ref'] = definitionRef(key);
      else {
        out['$ref'] = definitionRef(`/$defs/${encodePointerToken(this.nameOf(key))}`);
        this.pointers.push({ node: out, key, written: node['$ref'] as string });
      }
      this.definition(key, target.depth, path);
      const restore: Restore = (value) => (this.done.get(key)?.restore ?? identity)(value);
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
          join(path, key),
          `'required' naming '${key.slice(0, 80)}', which 'properties' does not define`,
        );
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

// The schema or null, written as openai-agents-js writes it: the schema as a branch beside
// `{ type: 'null' }`, its description repeated on the wrapper for the model to read.
function nullable(schema: Node): Node {
  const union = { anyOf: [schema, { type: 'null' }] };
  return typeof schema['description'] === 'string'
    ? { description: schema['description'], ...union }
    : union;
}

/**
 * Rewrites a tool's JSON Schema for OpenAI strict mode, so that every schema it accepts keeps
 * strict mode's documented rules (checked before returning): an object root without `anyOf`;
 * every object closed (`additionalProperties: false`) with every property required, optional
 * ones made nullable (`{ anyOf: [schema, { type: 'null' }] }`, as openai-agents-js writes
 * them); only supported keywords and formats; `$ref` only to a schema of the output itself
 * (`#`, the root's `$defs` or `definitions`, any other local pointer); at most 10
 * levels of object nesting, 5,000 properties, 1,000 enum values and 120,000 characters of names
 * and values. Linear in the size of the schema.
 *
 * Exact rewrites, as openai-node makes them: `allOf` merged (object branches side by side,
 * closed property sets intersected, through `$ref` chains; other branches keyword by keyword),
 * and distributed over a union branch; `$defs` and `definitions` maps kept where they are,
 * every entry converted (aliases too); a local JSON Pointer `$ref` kept as written where the
 * output at that place is the schema it reached, else its target put in `$defs`
 * (`__openai_strict_ref_N`); a root `$ref` inlined; a redundant `object` or `array` type around an `anyOf` of such branches dropped,
 * other keywords beside `anyOf` distributed into each branch; a `oneOf` whose branches a
 * required literal property tells apart becomes `anyOf`; `false` branches and optional `false`
 * properties are dropped; a `propertyNames` enum closes a record; keywords whose value is
 * `undefined` are absent; `title`, `description`, `$comment` and `examples` are kept, and the
 * root's `$schema` and `$id`; `default`, `deprecated`, `readOnly` and `writeOnly` are dropped. The mapping is
 * reversed by {@link StrictJsonSchema.restore}.
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
  const converter = new Converter(schema);
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

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
