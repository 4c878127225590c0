import type { TextMode } from '@plankit/core';
import {
  clipText,
  escapeControl,
  escapeRefusedText,
  trimText,
} from '@plankit/core/internal-unstable';

// The tools' limits count code points, and in unicode mode a character outside the BMP is two
// code units, so clipping by code units would cut text the tools would have kept whole.
function clipCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  const points = [...text];
  return points.length <= max ? text : `${points.slice(0, max - 3).join('')}...`;
}

/**
 * `text` made into text the planning tools could store in a field of at most `max` code
 * points, for plans built from other text (a phase's todos): control characters written as
 * escapes (`\n`), trimmed, clipped with `...`; `-` when nothing is left. In `'ascii'` mode (the
 * default) other non-ASCII characters are written as `\uXXXX`; in `'unicode'` mode only the
 * characters the Unicode text mode refuses are (bidirectional controls, invisible characters,
 * lone surrogates, ...), and the text is NFC. Text that already follows that mode's rules
 * comes back unchanged. Linear.
 */
export function toPlanText(text: string, max: number, mode: TextMode = 'ascii'): string {
  let kept: string;
  if (mode === 'unicode') {
    // Trimmed before escaping, so a variation selector after a space cannot end up leading;
    // composed last, as the tools do on the way in, since an escape's letter can compose with
    // a combining mark after it (`\n` and U+0301 make `\ń`).
    const visible = escapeRefusedText(trimText(escapeControl(text))).normalize('NFC');
    kept = clipCodePoints(visible, max);
  } else {
    let ascii = '';
    for (const char of escapeControl(text)) {
      if (char.length === 1 && char.charCodeAt(0) < 0x7f) ascii += char;
      else
        for (let i = 0; i < char.length; i++)
          ascii += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
    }
    kept = clipText(trimText(ascii), max);
  }
  const trimmed = trimText(kept);
  return trimmed === '' ? '-' : trimmed;
}
