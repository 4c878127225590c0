/**
 * The tokens of a local JSON Pointer `$ref` (`#`, `#/$defs/a~1b`, `#/properties/x/anyOf/0`):
 * the whole fragment percent-decoded first, then split and `~1`/`~0` unescaped, as the peers
 * read it. `undefined` for an external or malformed reference.
 */
export function pointerTokens(ref: string): string[] | undefined {
  if (!ref.startsWith('#')) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (fragment === '') return [];
  if (!fragment.startsWith('/')) return undefined;
  const tokens = fragment.slice(1).split('/');
  if (tokens.some((token) => /~(?![01])/.test(token))) return undefined;
  return tokens.map(decodePointerToken);
}

/** The value a local `$ref` reaches in `document` by plain JSON Pointer steps, or `undefined`. */
export function resolvePointer(document: unknown, ref: string): unknown {
  const tokens = pointerTokens(ref);
  if (tokens === undefined) return undefined;
  let node = document;
  for (const token of tokens) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (typeof node === 'object' && node !== null && Object.hasOwn(node, token))
      node = (node as Record<string, unknown>)[token];
    else return undefined;
  }
  return node;
}

/** Decodes one JSON Pointer token (`~1` is `/`, `~0` is `~`). */
export function decodePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Encodes a name as one JSON Pointer token. */
export function encodePointerToken(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * A pointer's canonical key (`/$defs/a~1b`, `/properties/x`, `''` for the root): one spelling
 * for every way a `$ref` may write the same place (percent-encoded or not).
 */
export function pointerKey(tokens: readonly string[]): string {
  return tokens.map((token) => `/${encodePointerToken(token)}`).join('');
}

/** The tokens of a canonical key, decoded: the inverse of {@link pointerKey}. */
export function keyTokens(key: string): string[] {
  return key.split('/').slice(1).map(decodePointerToken);
}
