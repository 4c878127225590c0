import type { Clock } from '@plankit/core';
import { type ArgumentError, invalidArgument } from '@plankit/core/internal-unstable';

/** A host adapter's time source: `clock`, or `now`, its deprecated name. */
export interface ClockOptions {
  readonly clock?: Clock | undefined;
  readonly now?: Clock | undefined;
}

/**
 * The clock a host adapter reads once per call: `options.clock`, else the deprecated
 * `options.now`, else `undefined` (the session's clock decides). Both at once is refused rather
 * than one silently winning, and so is a clock that is not a function, at build time, before
 * any call could fail on it.
 */
export function clockOption(
  where: string,
  options: ClockOptions,
  error: ArgumentError = invalidArgument,
): Clock | undefined {
  const { clock, now } = options;
  if (clock !== undefined && now !== undefined)
    throw error(where, 'options.now', 'is the old name of options.clock; pass only clock');
  const source = clock ?? now;
  if (source !== undefined && typeof source !== 'function')
    throw error(
      where,
      clock === undefined ? 'options.now' : 'options.clock',
      'must be a function returning epoch milliseconds',
    );
  return source;
}
