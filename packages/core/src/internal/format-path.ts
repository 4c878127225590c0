import { clipText } from './refusal-text.ts';

const MAX_KEY_LENGTH = 200;

/** Formats a path the way a model would write it: `initial_steps[0].title`; keys are clipped. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else {
      const key = clipText(String(part), MAX_KEY_LENGTH);
      out += out === '' ? key : `.${key}`;
    }
  }
  return out;
}
