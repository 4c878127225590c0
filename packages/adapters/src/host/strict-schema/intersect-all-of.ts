import { isRecord } from '@plankit/core/internal-unstable';
import { definitionsOnly, isObjectType, merge } from './merge-schemas.ts';
import { copy, equalJson, joinPath, type Node, quoted, refuse, setOwn } from './schema-node.ts';
import { isAnnotation, OBJECT_KEYWORDS } from './strict-keywords.ts';

/** A branch of an `allOf` with its own `allOf`s merged and its alias `$ref`s followed. */
export type FlattenBranch = (branch: Node, path: string) => Node;

const isMetadata = (key: string): boolean =>
  isAnnotation(key) || key === '$schema' || key === '$id';

/**
 * Intersects the branches of an `allOf` with the keywords beside it (`rest`), exactly or not
 * at all. Object branches merge as openai-node merges them: properties side by side (a
 * property in two branches must have the same schema there, key order aside), `required`
 * united, closed branches' property sets intersected (an optional property another closed
 * branch excludes is dropped; a required one is refused). An object beside one union branch
 * distributes into its alternatives. Other branches are put side by side keyword by keyword.
 */
export function intersectAllOf(
  rest: Node,
  allOf: readonly unknown[],
  path: string,
  flatten: FlattenBranch,
): Node {
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
      const node = flatten(branch, paths.get(branch) as string);
      paths.set(node, paths.get(branch) as string);
      return node;
    });
  const objectShaped = (node: Node) =>
    node['type'] === undefined
      ? OBJECT_KEYWORDS.some((key) => Object.hasOwn(node, key))
      : isObjectType(node['type']);
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
  return mergeObjects(rest, flat, path, paths, objectShaped);
}

/** Object branches (and the keywords beside them) merged into one object schema. */
function mergeObjects(
  rest: Node,
  flat: readonly Node[],
  path: string,
  paths: ReadonlyMap<Node, string>,
  objectShaped: (node: Node) => boolean,
): Node {
  const neutral = (node: Node) => Object.keys(node).every(isMetadata);
  const objects = [rest, ...flat].filter(objectShaped);
  const out: Node = {};
  // Annotations: the first wins, the keywords beside the `allOf` before its branches.
  for (const node of [rest, ...flat])
    for (const key of Object.keys(node))
      if (isMetadata(key) && !Object.hasOwn(out, key)) setOwn(out, key, node[key]);
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
      if (isMetadata(key)) continue;
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
            joinPath(path, key),
            `an 'allOf' whose branches give the property '${quoted(key)}' different schemas`,
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
        joinPath(path, excluded),
        `an 'allOf' whose closed branch excludes the required property '${quoted(excluded)}'`,
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
