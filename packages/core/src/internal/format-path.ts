import { clipText } from './refusal-text.ts';

const MAX_KEY_LENGTH = 200;

/**
 * Formats a path the way a model would write it: `initial_steps[0].title`; keys are clipped.
 *
 * @param key - how a string key is written, for a package that quotes odd keys; clipped as is
 *   by default
 */
export function formatPath(path: readonly PropertyKey[], key?: (key: string) => string): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else {
      const text =
        key !== undefined && typeof part === 'string'
          ? key(part)
          : clipText(String(part), MAX_KEY_LENGTH);
      out += out === '' ? text : `.${text}`;
    }
  }
  return out;
}
