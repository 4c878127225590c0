/** The deepest flow nesting, and the most block indicators on one line, a document may have. */
export const NESTING_LIMIT = 64;
/** The widest indentation a document may have, in spaces. */
export const INDENT_LIMIT = 256;

const SCALAR = '\x1f';

/** A space, a tab, a line break, or past the end of the text. */
function isBlank(code: number): boolean {
  return Number.isNaN(code) || code === 32 || code === 9 || code === 10 || code === 13;
}

function newlines(token: string): number {
  let count = 0;
  for (let at = token.indexOf('\n'); at !== -1; at = token.indexOf('\n', at + 1)) count++;
  return count;
}

/**
 * Why `text` nests too deeply to be parsed safely, if it does. The `yaml` package composes
 * documents recursively: past a few thousand levels it overflows the stack, and a regular
 * expression compiled near the limit can abort the whole process. A todos document or a phase
 * archive needs a handful of levels, so this refuses, before the parser composes anything:
 *
 * - flow collections nested deeper than `NESTING_LIMIT`, counted on the tokens of the `yaml`
 *   lexer itself (iterative, linear), so a quote, a comment or a block scalar never hides a
 *   bracket from the count and a bracket inside a string is never counted;
 * - more indicators (`-`, `?`, `:`) than `NESTING_LIMIT` on one
 *   line of block context or between two commas of a flow collection, counted on the same
 *   tokens whatever precedes them (a tag, an anchor);
 * - indentation wider than `INDENT_LIMIT` spaces, counted on every line whatever it holds (a
 *   line inside a multi-line string is counted too: refusing such a rare string is the safe
 *   side). With at most that many columns and indicators per line, block nesting stays
 *   shallow.
 *
 * Linear in the length of `text`; it stops at the first problem.
 */
export function yamlNestingProblem(
  text: string,
  // `new Lexer()` from `yaml`, passed in so that this package does not depend on `yaml`; a flow
  // indicator is a token of its own.
  lexer: { lex(source: string): Iterable<string> },
): string | null {
  let line = 1;
  let indent = 0;
  let indicators = 0;
  let atLineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      indent = 0;
      indicators = 0;
      atLineStart = true;
    } else if (atLineStart && (c === 32 || c === 9)) {
      if (++indent > INDENT_LIMIT)
        return `line ${line} is indented more than ${INDENT_LIMIT} spaces`;
    } else if (atLineStart && (c === 45 || c === 63) && isBlank(text.charCodeAt(i + 1))) {
      // Spaces after leading `- ` and `? ` indicators indent the nodes after them too.
      if (++indicators > NESTING_LIMIT)
        return `line ${line} nests more than ${NESTING_LIMIT} levels`;
    } else atLineStart = false;
  }
  line = 1;
  indicators = 0;
  let depth = 0;
  let scalar = false;
  for (const token of lexer.lex(text)) {
    // The lexer marks a scalar with a token of its own; the next token is the scalar's source.
    if (scalar) {
      scalar = false;
    } else if (token === SCALAR) {
      scalar = true;
      continue;
    } else if (token === '[' || token === '{') {
      if (++depth > NESTING_LIMIT) return `line ${line} nests more than ${NESTING_LIMIT} levels`;
      continue;
    } else if (token === ']' || token === '}') {
      if (depth > 0) depth--;
      continue;
    } else if (token === '-' || token === '?' || token === ':') {
      // Indicators that can each open a collection nested in the one before, until a line
      // break ends them in block context or a comma in a flow collection.
      if (++indicators > NESTING_LIMIT)
        return `line ${line} nests more than ${NESTING_LIMIT} levels`;
      continue;
    } else if (token === ',' && depth > 0) {
      indicators = 0;
      continue;
    }
    const breaks = newlines(token);
    if (breaks > 0) {
      line += breaks;
      if (depth === 0) indicators = 0;
    }
  }
  return null;
}
