import { type Draft, produce } from 'immer';

/**
 * The one place plankit touches immer: a copy-on-write update that shares every untouched
 * part of `base` and returns a deeply frozen result. The hottest reducers copy by hand
 * instead (see planning-reducers.ts), because immer's copies are slow on frozen arrays.
 */
export function update<T>(base: T, recipe: (draft: Draft<T>) => void): T {
  return produce(base, recipe);
}

/**
 * Deeply freezes plain data in place. A frozen object is taken as already deeply frozen (every
 * plankit value is frozen bottom-up), so shared parts of a new snapshot cost nothing.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  // Typed arrays cannot be frozen; they stay as they are.
  if (ArrayBuffer.isView(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
  } else {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
