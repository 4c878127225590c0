import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMap, isPair, isScalar, isSeq, Lexer, parseDocument } from 'yaml';
import { INDENT_LIMIT, NESTING_LIMIT, yamlNestingProblem } from './yaml-nesting.ts';
import { yamlDuplicateKey } from './yaml-nesting-keys.ts';

const check = (text: string): string | null => yamlNestingProblem(text, new Lexer());
const NODES = { isMap, isPair, isScalar, isSeq };

/** Parses and converts the way the readers do; throws what the parser throws. */
function parse(text: string): void {
  const document = parseDocument(text, { uniqueKeys: false, logLevel: 'silent' });
  yamlDuplicateKey(document.contents, NODES);
  try {
    document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    // Conversion errors (alias limits, bad documents) are refusals; only stack overflows are not.
    if (error instanceof RangeError) throw error;
  }
}

const deep = `[${'['.repeat(20_000)}`;

describe('yamlNestingProblem', () => {
  it('accepts ordinary documents', () => {
    expect(check('todos:\n  - id: 1\n    content: "a [b] {c}"\n')).toBeNull();
    expect(check(`x: ${'['.repeat(NESTING_LIMIT)}${']'.repeat(NESTING_LIMIT)}`)).toBeNull();
    expect(check(`x: "${'['.repeat(10_000)}"\ny: '${'{'.repeat(10_000)}'\n`)).toBeNull();
    expect(check(`x: |\n  ${'['.repeat(10_000)}\n# ${'['.repeat(10_000)}\n`)).toBeNull();
  });

  it('refuses deep flow nesting, stacked block indicators and wide indentation before any parser runs', () => {
    expect(check(`x: ${'['.repeat(100_000)}`)).toMatch(/nest/i);
    expect(check(`${'- '.repeat(NESTING_LIMIT + 1)}x`)).not.toBeNull();
    expect(check(`a:\n${' '.repeat(INDENT_LIMIT + 1)}b: 1`)).not.toBeNull();
  });

  // Each of these hides deep flow nesting from a character-by-character scanner.
  it.each([
    ['a quote inside a plain scalar', `a: x "\nb: ${deep}\n`],
    ['a quote inside a flow plain scalar', `a: [x "y, ${deep}\n`],
    ['a quote inside a block scalar', `a: |\n  "\nb: ${deep}\n`],
    ['a single quote inside a plain scalar', `a: it 's\nb: ${deep}\n`],
    ['a closing bracket inside strings', `x: ${'[ "]", '.repeat(5000)}\n`],
    ['a tag before compact sequences', `!t ${'- '.repeat(5000)}x\n`],
  ])('is not bypassed by %s', (_, text) => {
    expect(check(text)).toMatch(/nests more than/);
  });

  it('passes only documents the real parser reads without a stack overflow', () => {
    const piece = fc.constantFrom(
      '[',
      ']',
      '{',
      '}',
      '"',
      "'",
      '\\',
      '#',
      '|',
      '>',
      ',',
      ':',
      ' ',
      '  ',
      '\n',
      '- ',
      '? ',
      'a',
      'b: ',
      '&x ',
      '*x',
      '!t ',
      '\t',
      '\r\n',
      '---\n',
      '%YAML 1.2\n',
    );
    const text = fc.oneof(
      fc.array(piece, { maxLength: 200 }).map((parts) => parts.join('')),
      fc
        .tuple(
          fc.array(piece, { maxLength: 20 }),
          fc.constantFrom(
            '[',
            '{',
            '- ',
            '? ',
            '[a, ',
            '!t - ',
            '&a ? ',
            'a: ',
            '"a": ',
            '- {',
            '[- ',
            '? [',
            '-\n ',
          ),
          fc.integer({ min: 60, max: 3000 }),
          fc.array(piece, { maxLength: 20 }),
        )
        .map(([head, unit, n, tail]) => `${head.join('')}${unit.repeat(n)}${tail.join('')}`),
    );
    fc.assert(
      fc.property(text, (source) => {
        if (check(source) === null) parse(source);
      }),
      { numRuns: 400 },
    );
  });
});

describe('yamlDuplicateKey', () => {
  const refusedByParser = (text: string): boolean =>
    parseDocument(text, { uniqueKeys: true, logLevel: 'silent' }).errors.some(
      (error) => error.code === 'DUPLICATE_KEY',
    );
  const found = (text: string): boolean =>
    yamlDuplicateKey(parseDocument(text, { uniqueKeys: false }).contents, NODES) !== null;

  it('finds a key repeated in any mapping, as the parser does', () => {
    expect(found('a: 1\nb: 2\na: 3\n')).toBe(true);
    expect(found('x:\n  - {k: 1, k: 2}\n')).toBe(true);
    expect(found('1: a\n1.0: b\n')).toBe(refusedByParser('1: a\n1.0: b\n'));
    expect(found('"1": a\n1: b\n')).toBe(false);
    expect(found('a: {b: 1}\nc: {b: 1}\n')).toBe(false);
  });

  it('agrees with the parser on generated documents', () => {
    const key = fc.constantFrom(
      'a',
      'b',
      '1',
      '1.0',
      '"1"',
      "'a'",
      'null',
      '~',
      '.nan',
      'true',
      '[x]',
    );
    const map = fc
      .array(fc.tuple(key, fc.constantFrom('1', '[a, b]', '{a: 1, a: 2}', '{a: 1, b: 2}')), {
        maxLength: 6,
      })
      .map((pairs) => pairs.map(([k, v]) => `${k}: ${v}`).join('\n'));
    fc.assert(
      fc.property(map, (text) => {
        const parser = parseDocument(text, { uniqueKeys: true, logLevel: 'silent' });
        if (parser.errors.some((error) => error.code !== 'DUPLICATE_KEY')) return;
        expect(found(text)).toBe(refusedByParser(text));
      }),
      { numRuns: 500 },
    );
  });

  it('checks 20,000 keys in linear time, without the parser quadratic check', () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `k${i}: ${i}`).join('\n');
    expect(found(keys)).toBe(false);
    expect(found(`${keys}\nk7: again\n`)).toBe(true);
  });
});
