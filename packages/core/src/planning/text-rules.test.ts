import { describe, expect, it } from 'vitest';
import {
  ensurePlanText,
  optionalText,
  requiredText,
  stepIdText,
  storedTextProblem,
  trimText,
} from './text-rules.ts';

describe('text rules', () => {
  it('trims in linear time with the reference whitespace set', () => {
    expect(trimText('\u001f\u0085 a b \u2028\u3000')).toBe('a b');
    expect(trimText('\ufeffa')).toBe('\ufeffa');
    expect(trimText('')).toBe('');
  });

  it('normalises required, optional and id text', () => {
    expect(requiredText('  x ', 'f', 'Title', 1, 'ascii')).toBe('x');
    expect(optionalText(null, 'f', 'Details', 5, 'ascii')).toBeNull();
    expect(optionalText('  ', 'f', 'Details', 5, 'ascii')).toBeNull();
    expect(() => optionalText('  ', 'f', 'Note', 5, 'ascii', true)).toThrow(
      'Note must not be empty when provided.',
    );
    expect(stepIdText(' S001 ')).toBe('S001');
  });

  it('counts a lone surrogate as one code point', () => {
    expect(requiredText('a'.repeat(4), 'f', 'Title', 4, 'ascii')).toHaveLength(4);
    expect(() => requiredText('\ud800'.repeat(5), 'f', 'Title', 4, 'ascii')).toThrow(
      'Title must be <= 4 characters.',
    );
    expect(() => requiredText('\ud800'.repeat(4), 'f', 'Title', 4, 'ascii')).toThrow(
      'Title must be ASCII.',
    );
    expect(() => requiredText('\ud83d\ude00'.repeat(4), 'f', 'Title', 4, 'ascii')).toThrow(
      'Title must be ASCII.',
    );
  });

  it('accepts as stored text exactly what the ascii-mode tools store', () => {
    const cases: [string, string | undefined][] = [
      ['ok text', undefined],
      ['x'.repeat(8), undefined],
      ['', 'text_empty'],
      ['   ', 'text_empty'],
      ['x'.repeat(9), 'text_too_long'],
      ['caf\u00e9', 'text_not_ascii'],
      ['a\nb', 'text_control_char'],
      ['\u001b[2J', 'text_control_char'],
      ['a\u0000', 'text_control_char'],
      [' a', 'text_untrimmed'],
      ['a ', 'text_untrimmed'],
      // The rule the tools would name: they trim first, so this fits the limit.
      [` ${'x'.repeat(8)}`, 'text_untrimmed'],
      ['a\n', 'text_untrimmed'],
    ];
    for (const [text, code] of cases) {
      expect(storedTextProblem(text, 8, 'ascii')?.code, JSON.stringify(text)).toBe(code);
      // The tools' verdict: refused, or stored as something else, exactly when it is a problem.
      let stored: string | undefined;
      try {
        stored = requiredText(text, 'f', 'Title', 8, 'ascii');
      } catch {
        stored = undefined;
      }
      expect(stored === text, JSON.stringify(text)).toBe(code === undefined);
    }
    expect(() => ensurePlanText('a\nb', 'steps[0].title', 'Title', 160)).toThrow(
      expect.objectContaining({
        code: 'text_control_char',
        field: 'steps[0].title',
        message: 'Title must not contain control characters.',
      }),
    );
  });
});
