import { isRecord } from '@plankit/core/internal-unstable';
import { intersectAllOf } from './intersect-all-of.ts';
import {
  closedRecord,
  hasAnyKey,
  intersectTypes,
  isDiscriminated,
  literalNames,
  merge,
  sameTypes,
} from './merge-schemas.ts';
import { copy, type Node, quoted, refuse, setOwn } from './schema-node.ts';
import type { SchemaReferences } from './schema-references.ts';
import {
  ARRAY_KEYWORDS,
  DEFINITION_KEYWORDS,
  isAnnotation,
  MAX_DEPTH,
  OBJECT_KEYWORDS,
} from './strict-keywords.ts';

/**
 * Rewrites one schema, exactly, into the forms strict mode has: a `$ref`, an `anyOf`, or a
 * plain typed schema. `allOf` is merged, `oneOf` becomes `anyOf` where a literal property
 * tells its branches apart, a `propertyNames` enum closes a record, a root `$ref` is inlined,
 * and keywords beside an `anyOf` go into its branches.
 */
export class SchemaNormaliser {
  private readonly references: SchemaReferences;
  // Definitions being followed by an `allOf` merge, to refuse a cycle through them.
  private readonly intersecting = new Set<string>();

  constructor(references: SchemaReferences) {
    this.references = references;
  }

  /** Rewrites a node until it is a `$ref`, an `anyOf`, or a plain typed schema. */
  normalise(source: Node, path: string, root: boolean): Node {
    const refs = this.references;
    let node = copy(source);
    const inlined = new Set<string>();
    for (let round = 0; ; round++) {
      if (round > MAX_DEPTH) refuse(path, 'a chain of references or intersections this long');
      if (node['$id'] !== undefined && !root) refuse(path, "a nested '$id' (a separate resource)");
      // Nested definitions constrain nothing themselves; a `$ref` into them is resolved by its
      // pointer like any other.
      for (const keyword of DEFINITION_KEYWORDS) {
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
          refuse(path, `'$ref' beside '${quoted(siblings[0] ?? '')}' (keywords Draft 7 ignores)`);
        if (root) {
          const name = refs.refName(node['$ref'], path);
          if (inlined.has(name)) refuse(path, `a cyclic '$ref' to '${refs.label(name)}'`);
          inlined.add(name);
          const { $ref: _ref, ...rest } = node;
          node = merge(refs.resolve(node['$ref'], path), rest, path, '$ref');
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
        node = intersectAllOf(rest, allOf, path, (branch, at) => this.flatBranch(branch, at));
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
      if (node['anyOf'] !== undefined) {
        const union = this.union(node, path, root);
        if (union.done) return union.node;
        node = union.node;
        continue;
      }
      return node;
    }
  }

  /**
   * An `anyOf` with the keywords beside it: the union as strict mode writes it (`done`), or
   * the one branch left merged with them, to normalise again.
   */
  private union(node: Node, path: string, root: boolean): { node: Node; done: boolean } {
    const anyOf = node['anyOf'];
    if (!Array.isArray(anyOf)) refuse(path, "an 'anyOf' that is not a list");
    const rest = copy(node, (key) => key === 'anyOf' || isAnnotation(key) || key === '$schema');
    // Empty object keywords constrain nothing; a wrapper `type` every branch already has
    // is redundant. Other object or array keywords on the wrapper are refused, as
    // openai-node refuses them: they would bind every branch.
    if (isRecord(rest['properties']) && Object.keys(rest['properties']).length === 0)
      delete rest['properties'];
    if (Array.isArray(rest['required']) && rest['required'].length === 0) delete rest['required'];
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
      if (!redundant)
        refuse(path, `'anyOf' inside a wrapper of ${kind} keywords that would bind every branch`);
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
    if (branches.length === 1 && (hasConstraints || root))
      return { node: merge(branches[0] as Node, outer, path, 'anyOf'), done: false };
    setOwn(outer, 'anyOf', branches);
    return { node: outer, done: true };
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
      if (keyword === '$ref') node = this.references.source(this.references.refName(value, path));
      else if (Array.isArray(value) && value.length === 1) node = value[0];
      else return false;
    }
    if (!isRecord(node)) return false;
    const type =
      Array.isArray(node['type']) && node['type'].length === 1 ? node['type'][0] : node['type'];
    return type === kind;
  }

  /** A branch of an `allOf` with its own `allOf`s merged and its alias `$ref`s followed. */
  private flatBranch(branch: Node, path: string): Node {
    const refs = this.references;
    const followed: string[] = [];
    try {
      let node = branch;
      for (;;) {
        node = this.normalise(node, path, false);
        if (!Object.hasOwn(node, '$ref')) return node;
        const name = refs.refName(node['$ref'], path);
        if (this.intersecting.has(name))
          refuse(path, `a cyclic '$ref' to '${refs.label(name)}' through 'allOf'`);
        this.intersecting.add(name);
        followed.push(name);
        const { $ref: _ref, ...annotations } = node;
        node = merge(refs.resolve(node['$ref'], path), annotations, path, '$ref');
      }
    } finally {
      for (const name of followed) this.intersecting.delete(name);
    }
  }
}
