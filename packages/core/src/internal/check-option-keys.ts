import { invalidArgument } from './invalid-argument.ts';

/** Builds the error for one bad argument; {@link invalidArgument} is the default. */
export type ArgumentError = (where: string, field: string, rule: string) => Error;

/** The first own key of `options` not in `declared`, if any. */
export function unknownOption(options: object, declared: ReadonlySet<string>): string | undefined {
  // for-in allocates no key array; the own-key test keeps it to what Object.keys would give.
  for (const key in options) if (!declared.has(key) && Object.hasOwn(options, key)) return key;
  return undefined;
}

/**
 * Throws `${where}: ${prefix}${key} is not an option.` for the first key of `options` not in
 * `declared`, so every function words an unknown option the same way.
 *
 * @param prefix - how the message names the object, `options.` unless the site names keys bare
 * @param error - the package's own error for the message; a `PlankitError` by default
 */
export function checkOptionKeys(
  where: string,
  options: object,
  declared: ReadonlySet<string>,
  prefix = 'options.',
  error: ArgumentError = invalidArgument,
): void {
  const key = unknownOption(options, declared);
  if (key !== undefined) throw error(where, `${prefix}${key}`, 'is not an option');
}
