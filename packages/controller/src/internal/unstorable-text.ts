import {
  clipText,
  refusalText,
  type StorableProblem,
  stringProblem,
} from '@plankit/core/internal-unstable';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function keyPath(path: string, key: string): string {
  const safe = clipText(key, 80);
  if (!IDENTIFIER.test(safe)) return `${path}[${JSON.stringify(safe)}]`;
  return path === '' ? safe : `${path}.${safe}`;
}

/**
 * The first string (or object key) in `value` that no store can hold exactly, by core's rule
 * (`stringProblem`: U+0000 or a lone surrogate; other control characters are storable and stay,
 * and renderers escape them), with its path under `root` (`input.entries[2].content`).
 * Undefined when every string is storable.
 *
 * Only text is judged: types, sizes and depth are each function's own checks, which run first.
 * Iterative, and each object is visited once, so deep, shared or cyclic input costs time linear
 * in its size and never overflows the stack.
 */
export function unstorableText(value: unknown, root: string): StorableProblem | undefined {
  // Storable text is the rule, so a walk that builds no paths decides; only a refusal pays
  // for naming the field.
  return allStorable(value) ? undefined : locate(value, root);
}

/** A refusal of unstorable text: the message and the field it names (its path, clipped). */
export interface UnstorableRefusal {
  readonly message: string;
  readonly field: string;
}

/**
 * The `input_invalid` refusal for text in `value` that no store can hold, naming its path
 * under `root`: `${where}: <path> <rule>, so no store could hold it.`. Undefined when all of
 * it is storable. The engine and the workflows wrap it in their own error.
 */
export function unstorableRefusal(
  where: string,
  value: unknown,
  root: string,
): UnstorableRefusal | undefined {
  const problem = unstorableText(value, root);
  if (problem === undefined) return undefined;
  const field = clipText(problem.path, 400);
  return {
    message: refusalText(`${where}: ${field} ${problem.rule}, so no store could hold it.`),
    field,
  };
}

function allStorable(value: unknown): boolean {
  if (typeof value === 'string') return stringProblem(value) === undefined;
  if (typeof value !== 'object' || value === null) return true;
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
    if (typeof current === 'string') {
      if (stringProblem(current) !== undefined) return false;
      continue;
    }
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    if (Array.isArray(current)) {
      for (const item of current) stack.push(item);
      continue;
    }
    const proto = Object.getPrototypeOf(current);
    if (proto !== Object.prototype && proto !== null) continue;
    for (const key in current) {
      if (!Object.hasOwn(current, key)) continue;
      if (stringProblem(key) !== undefined) return false;
      stack.push((current as Record<string, unknown>)[key]);
    }
  }
  return true;
}

function locate(value: unknown, root: string): StorableProblem | undefined {
  const seen = new Set<object>();
  const stack: { value: unknown; path: string }[] = [{ value, path: root }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value: current, path } = item;
    if (typeof current === 'string') {
      const rule = stringProblem(current);
      if (rule !== undefined) return { path, rule };
      continue;
    }
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--)
        stack.push({ value: current[i], path: `${path}[${i}]` });
      continue;
    }
    const proto = Object.getPrototypeOf(current);
    if (proto !== Object.prototype && proto !== null) continue;
    const keys = Object.keys(current);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      const rule = stringProblem(key);
      if (rule !== undefined) return { path: keyPath(path, key), rule: `key ${rule}` };
      stack.push({ value: (current as Record<string, unknown>)[key], path: keyPath(path, key) });
    }
  }
  return undefined;
}
