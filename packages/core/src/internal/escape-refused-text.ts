import { unicodeCharProblem } from '../planning/unicode-text-rules.ts';
import { escapeControl } from './refusal-text.ts';

const escaped = (char: string): string => {
  let text = '';
  for (let i = 0; i < char.length; i++)
    text += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return text;
};

// The Unicode rules refuse a variation selector alone and allow it after a letter: that is
// what tells a selector, with no table of its own here.
const isSelector = (char: string): boolean =>
  unicodeCharProblem(char) !== undefined && unicodeCharProblem(`a${char}`) === undefined;

/**
 * `text` with every character the Unicode text mode refuses written as a visible escape:
 * control characters as `escapeControl` writes them (`\n`, `\u0000`), and bidirectional
 * controls, invisible characters, lone surrogates, noncharacters, a byte order mark and a
 * variation selector that follows no character as `\uXXXX` (each UTF-16 code unit). The rest
 * keeps its bytes, so text in any language stays readable and can neither reorder, hide nor
 * add lines where it is shown. Not normalised. Linear; returns `text` itself when it holds
 * nothing to escape.
 */
export function escapeRefusedText(text: string): string {
  const visible = escapeControl(text);
  if (unicodeCharProblem(visible) === undefined) return visible;
  let out = '';
  // Whether the last character written may carry a variation selector.
  let base = false;
  for (const char of visible) {
    if (unicodeCharProblem(char) === undefined) {
      out += char;
      base = true;
    } else if (base && isSelector(char)) {
      out += char;
      base = false;
    } else {
      out += escaped(char);
      base = true;
    }
  }
  return out;
}
