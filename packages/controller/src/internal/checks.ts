import { clipText, unknownOption } from '@plankit/core/internal-unstable';
import { ControllerError } from '../controller-error.ts';

const PLAIN_KEY = /^[A-Za-z0-9_$-]{1,64}$/;

/**
 * A key as a refusal names it: as it is when plain, else quoted, escaped and clipped, so a key
 * of any length or content keeps the message short and on one line.
 */
export function keyText(key: string): string {
  return PLAIN_KEY.test(key) ? key : JSON.stringify(clipText(key, 64));
}

/** The first own key of `value` not in `allowed`, if any, as {@link keyText} names it. */
export function unknownKey(value: object, allowed: ReadonlySet<string>): string | undefined {
  const key = unknownOption(value, allowed);
  return key === undefined ? undefined : keyText(key);
}

/** `argument_invalid` as a {@link ControllerError}, for core's `checkOptionKeys`. */
export function controllerArgument(where: string, field: string, rule: string): ControllerError {
  return new ControllerError('argument_invalid', `${where}: ${field} ${rule}.`, { field });
}

/** A non-negative safe integer. */
export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** The most milliseconds a `Date` holds either side of 1970. */
export const MAX_TIME = 8.64e15;

/** What {@link isTime} asks of a `now`, for error messages. */
export const TIME_RULE = 'must be a finite number of epoch milliseconds within +-8.64e15';

/**
 * Epoch milliseconds a `Date` can hold (for `now`): beyond them a day has no date, and time
 * spans no longer fit a finite number.
 */
export function isTime(value: unknown): value is number {
  return typeof value === 'number' && value >= -MAX_TIME && value <= MAX_TIME;
}

/** A number in [0, 1]. */
export function isUnit(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value <= 1;
}

/** A string of 1 to `max` characters. */
export function isText(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= max;
}

/** A short, safe rendering of a value for an error message. */
export function show(value: unknown): string {
  if (typeof value === 'string') {
    return JSON.stringify(clipText(value, 40));
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
    return String(value);
  }
  if (value === undefined) return 'undefined';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/** Names: letters, digits and `_`, starting with a letter; safe as JSON keys and Mermaid ids. */
export const NAME: RegExp = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
