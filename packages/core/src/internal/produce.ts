import { type Draft, produce } from 'immer';

/**
 * The one place plankit touches immer: a copy-on-write update that shares every untouched
 * part of `base` and returns a deeply frozen result. The hottest reducers copy by hand
 * instead (see planning-reducers.ts), because immer's copies are slow on frozen arrays.
 */
export function update<T>(base: T, recipe: (draft: Draft<T>) => void): T {
  return produce(base, recipe);
}

export { deepFreeze } from './deep-freeze.ts';
