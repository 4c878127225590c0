import { isRecord } from '@plankit/core/internal-unstable';
import { keyTokens, pointerKey, pointerTokens } from './json-pointer.ts';
import { copy, type Node, quoted, refuse } from './schema-node.ts';
import {
  DEFINITION_KEYWORDS,
  isAnnotation,
  MAX_DEPTH,
  SCHEMA_LISTS,
  SCHEMA_MAPS,
  SCHEMA_SINGLES,
} from './strict-keywords.ts';
import { STRICT_LIMITS } from './strict-schema-problem.ts';

/** Where an alias chain ends, and at what depth. */
export interface AliasTarget {
  readonly key: string;
  readonly depth: number;
}

/**
 * The `$ref`s of one schema being converted: what each pointer reaches in the original
 * document (by its canonical key, `/$defs/A`, `/properties/x`, `''` for the root), and the
 * name each definition has in the output.
 *
 * The output's definitions are one table, `/$defs/<name>` or `/definitions/<name>` to the
 * place its schema came from: the root's own definitions (to themselves) and the schemas
 * hoisted into `$defs` under a fresh name. A name is claimed once, so a hoisted name can
 * never take a root definition's, and a `$ref` of the output reads back through the same
 * table that wrote it.
 */
export class SchemaReferences {
  /** The document being converted. */
  readonly document: Node;
  /** The root's own definitions (`/$defs/A`, `/definitions/B`): kept where they are. */
  readonly rootDefinitions: ReadonlySet<string>;
  private readonly sources = new Map<string, unknown>();
  private readonly outputDefinitions = new Map<string, string>();
  private readonly hoisted = new Map<string, string>();

  constructor(document: Node) {
    this.document = document;
    const rootDefinitions = new Set<string>();
    // Definition names count toward strict mode's character limit: checked before any entry
    // is converted, so a schema of very many definitions is refused at the cost of its names.
    let characters = 0;
    for (const keyword of DEFINITION_KEYWORDS) {
      const defs = document[keyword];
      if (defs === undefined) continue;
      if (!isRecord(defs)) refuse(keyword, `a '${keyword}' that is not an object`);
      for (const name of Object.keys(defs)) {
        characters += name.length;
        if (characters > STRICT_LIMITS.characters)
          refuse(keyword, `more than ${STRICT_LIMITS.characters} characters of definition names`);
        const key = pointerKey([keyword, name]);
        // Claimed even when the entry is `undefined` (absent): no hoisted name takes it.
        this.claim(key, key);
        if (defs[name] === undefined) continue;
        rootDefinitions.add(key);
        this.sources.set(key, defs[name]);
      }
    }
    this.rootDefinitions = rootDefinitions;
  }

  /** Gives an output definition key to the schema from `source`; a key is given once. */
  private claim(key: string, source: string): void {
    if (this.outputDefinitions.has(key))
      throw new Error(`The output definition ${key} is already taken.`);
    this.outputDefinitions.set(key, source);
  }

  /** The original schema at a canonical key `refName` returned. */
  source(key: string): unknown {
    return this.sources.get(key);
  }

  /**
   * The place in the original document a `$ref` of the output names: `''` for `#`, a root
   * definition, or the place a hoisted definition came from; `undefined` for any other.
   */
  outputTarget(ref: string): string | undefined {
    if (ref === '#') return '';
    const tokens = pointerTokens(ref);
    return tokens === undefined ? undefined : this.outputDefinitions.get(pointerKey(tokens));
  }

  /**
   * The `$defs` name of a schema a pointer other than a root definition reaches: a fresh
   * `__openai_strict_ref_N` (`__openai_strict_allOf_ref_N` through an `allOf`), the peers' name
   * for it, claimed in both definition maps' names so no root definition has it.
   */
  hoistedName(key: string): string {
    const known = this.hoisted.get(key);
    if (known !== undefined) return known;
    const prefix = keyTokens(key).includes('allOf')
      ? '__openai_strict_allOf_ref_'
      : '__openai_strict_ref_';
    const taken = (name: string) =>
      DEFINITION_KEYWORDS.some((keyword) =>
        this.outputDefinitions.has(pointerKey([keyword, name])),
      );
    let n = 0;
    while (taken(`${prefix}${n}`)) n++;
    const name = `${prefix}${n}`;
    this.claim(pointerKey(['$defs', name]), key);
    this.hoisted.set(key, name);
    return name;
  }

  /** A reference as people read it: the definition's name, or the pointer. */
  label(key: string): string {
    const tokens = keyTokens(key);
    if (tokens.length === 2 && (tokens[0] === '$defs' || tokens[0] === 'definitions'))
      return quoted(tokens[1] as string);
    return quoted(`#${key}`);
  }

  /** The canonical key a `$ref` names, after checking it reaches a schema. */
  refName(ref: unknown, path: string): string {
    if (typeof ref !== 'string') refuse(path, `a '$ref' that is not a string`);
    const tokens = pointerTokens(ref);
    if (tokens === undefined)
      refuse(path, `a '$ref' that is not a local JSON Pointer (${JSON.stringify(quoted(ref))})`);
    const key = pointerKey(tokens);
    if (this.sources.has(key)) return key;
    let target = walkPointer(this.document, tokens);
    if (target === undefined) {
      const [keyword, name] = tokens;
      if (tokens.length === 2 && (keyword === '$defs' || keyword === 'definitions'))
        refuse(path, `a '$ref' to a missing definition ${JSON.stringify(quoted(name ?? ''))}`);
      refuse(path, `a '$ref' that reaches no schema (${JSON.stringify(quoted(ref))})`);
    }
    // The document root, as a definition of its own: without the keywords of a resource.
    if (tokens.length === 0) target = copy(this.document, (k) => k === '$id' || k === '$schema');
    this.sources.set(key, target);
    return key;
  }

  /** The schema a `$ref` reaches, to merge into the schema beside it. */
  resolve(ref: unknown, path: string): Node {
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

  /**
   * Follows definitions that are only a `$ref` (aliases) to the one that has content. Each hop
   * is a level of depth: a chain longer than the depth left is refused. A hop back into a
   * schema being converted (the root, a recursive definition: `converting`) is recursion, not
   * a level deeper.
   */
  aliasTarget(
    start: string,
    path: string,
    depth: number,
    converting: (key: string) => boolean,
  ): AliasTarget {
    let key = start;
    let at = key === '' || converting(key) ? depth - 1 : depth;
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
      if (key !== '' && !converting(key)) at++;
    }
  }
}

/** The schema a pointer reaches through schema-valued keywords only, or `undefined`. */
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
 * A definition's canonical key (`/$defs/a~1b`) as a `$ref`: each token percent-encoded
 * (`$` kept).
 */
export function definitionRef(key: string): string {
  const tokens = key.split('/').slice(1);
  return `#/${tokens.map((token) => encodeURIComponent(token).replace(/%24/g, '$')).join('/')}`;
}
