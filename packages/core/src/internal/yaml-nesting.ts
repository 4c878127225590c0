/** The deepest flow nesting, and the most block indicators on one line, a document may have. */
export const NESTING_LIMIT = 64;
/** The widest indentation a document may have, in spaces. */
export const INDENT_LIMIT = 256;

const BLANK = new Set([' ', '\t', '\n', '\r']);

/**
 * Why `text` nests too deeply to be parsed safely, if it does. The `yaml` package parses
 * recursively: past a few thousand levels it overflows the stack, and a regular expression
 * compiled near the limit can abort the whole process. A todos document or a phase archive
 * needs a handful of levels, so this conservative scan refuses flow collections nested deeper
 * than `NESTING_LIMIT`, more block indicators (`- `, `? `) than that on one line, and
 * indentation wider than `INDENT_LIMIT` spaces, before the parser sees the text.
 */
export function yamlNestingProblem(text: string): string | null {
  let line = 1;
  let atLineStart = true;
  let indent = 0;
  let indicators = 0;
  let flow = 0;
  let quote: string | null = null;
  let comment = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\n') {
      line++;
      atLineStart = true;
      indent = 0;
      indicators = 0;
      comment = false;
      continue;
    }
    if (comment) continue;
    if (quote !== null) {
      if (quote === '"' && c === '\\') i++;
      else if (c === quote) {
        if (quote === "'" && text[i + 1] === "'") i++;
        else quote = null;
      }
      continue;
    }
    const before = i === 0 ? '\n' : (text[i - 1] as string);
    if (atLineStart) {
      if (c === ' ' || c === '\t') {
        if (++indent > INDENT_LIMIT)
          return `line ${line} is indented more than ${INDENT_LIMIT} spaces`;
        continue;
      }
      if ((c === '-' || c === '?') && BLANK.has(text[i + 1] ?? '\n')) {
        if (++indicators > NESTING_LIMIT)
          return `line ${line} nests more than ${NESTING_LIMIT} levels`;
        continue;
      }
      atLineStart = false;
    }
    if (c === '#' && BLANK.has(before)) comment = true;
    else if ((c === '"' || c === "'") && (BLANK.has(before) || '[{,:-?'.includes(before)))
      quote = c;
    else if (c === '[' || c === '{') {
      if (++flow > NESTING_LIMIT) return `line ${line} nests more than ${NESTING_LIMIT} levels`;
    } else if ((c === ']' || c === '}') && flow > 0) flow--;
  }
  return null;
}
