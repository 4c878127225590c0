/** The node predicates of the `yaml` package (`isMap`, `isPair`, `isScalar`, `isSeq`). */
export interface YamlNodeTests {
  isMap(node: unknown): boolean;
  isSeq(node: unknown): boolean;
  isPair(node: unknown): boolean;
  isScalar(node: unknown): boolean;
}

/** A key repeated in one mapping: the message the `yaml` parser gives, and where the key starts. */
export interface YamlDuplicateKey {
  readonly message: string;
  readonly offset: number;
}

interface Node {
  readonly items?: readonly unknown[];
  readonly key?: unknown;
  readonly value?: unknown;
  readonly range?: readonly number[] | null;
}

/**
 * The first scalar key repeated within one mapping of a parsed document, if any: what
 * `parseDocument(text, { uniqueKeys: true })` refuses, in linear time rather than the
 * parser's quadratic one (it compares each key with every earlier one). Keys are equal as the
 * parser's default test has it: scalars whose values are `===` (so `1` and `1.0` are equal,
 * `"1"` and `1` are not); collections as keys never are. Parse with `uniqueKeys: false`, then
 * call this on `document.contents`. Iterative: no depth of nesting overflows the stack.
 */
export function yamlDuplicateKey(root: unknown, yaml: YamlNodeTests): YamlDuplicateKey | null {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node | null | undefined;
    if (node === null || node === undefined || typeof node !== 'object') continue;
    if (yaml.isPair(node)) {
      stack.push(node.value, node.key);
      continue;
    }
    const isMap = yaml.isMap(node);
    if (!isMap && !yaml.isSeq(node)) continue;
    const items = node.items ?? [];
    const seen = isMap ? new Set<unknown>() : null;
    for (let i = items.length - 1; i >= 0; i--) stack.push(items[i]);
    if (seen === null) continue;
    for (const item of items) {
      const key = (item as Node | null)?.key as Node | undefined;
      if (!yaml.isScalar(key)) continue;
      const value = (key as Node).value;
      // The parser compares with ===, under which NaN never repeats.
      if (typeof value === 'number' && Number.isNaN(value)) continue;
      if (seen.has(value)) {
        return { message: 'Map keys must be unique', offset: (key as Node).range?.[0] ?? 0 };
      }
      seen.add(value);
    }
  }
  return null;
}
