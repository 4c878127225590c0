import { type Draft, freeze, produce } from 'immer';

/**
 * The one place plankit touches immer: a copy-on-write update that shares every untouched
 * part of `base` and returns a deeply frozen result.
 */
export function update<T>(base: T, recipe: (draft: Draft<T>) => void): T {
  return produce(base, recipe);
}

/** Deeply freezes a value in place; frozen subtrees are skipped, so shared parts cost nothing. */
export function deepFreeze<T>(value: T): T {
  return freeze(value, true);
}
