import { clipText, escapeControl, trimText } from '@plankit/core/internal-unstable';

/**
 * `text` made into text the planning tools could store in a field of at most `max` code
 * points, for plans built from other text (a phase's todos): control characters written as
 * escapes (`\n`), other non-ASCII characters as `\uXXXX`, trimmed, clipped with `...`; `-` when
 * nothing is left. Text that already follows the tools' rules comes back unchanged. Linear.
 */
export function toPlanText(text: string, max: number): string {
  let ascii = '';
  for (const char of escapeControl(text)) {
    if (char.length === 1 && char.charCodeAt(0) < 0x7f) ascii += char;
    else
      for (let i = 0; i < char.length; i++)
        ascii += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  }
  const trimmed = trimText(clipText(trimText(ascii), max));
  return trimmed === '' ? '-' : trimmed;
}
