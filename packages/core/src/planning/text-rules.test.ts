import { describe, expect, it } from 'vitest';
import { optionalText, requiredText, stepIdText, trimText } from './text-rules.ts';

describe('text rules', () => {
  it('trims in linear time with the reference whitespace set', () => {
    expect(trimText('\u001f\u0085 a b \u2028\u3000')).toBe('a b');
    expect(trimText('\ufeffa')).toBe('\ufeffa');
    expect(trimText('')).toBe('');
  });

  it('normalises required, optional and id text', () => {
    expect(requiredText('  x ', 'f', 'Title', 1)).toBe('x');
    expect(optionalText(null, 'f', 'Details', 5)).toBeNull();
    expect(optionalText('  ', 'f', 'Details', 5)).toBeNull();
    expect(() => optionalText('  ', 'f', 'Note', 5, true)).toThrow(
      'Note must not be empty when provided.',
    );
    expect(stepIdText(' S001 ')).toBe('S001');
  });

  it('counts a lone surrogate as one code point', () => {
    expect(requiredText('a'.repeat(4), 'f', 'Title', 4)).toHaveLength(4);
    expect(() => requiredText('\ud800'.repeat(5), 'f', 'Title', 4)).toThrow(
      'Title must be <= 4 characters.',
    );
    expect(() => requiredText('\ud800'.repeat(4), 'f', 'Title', 4)).toThrow('Title must be ASCII.');
    expect(() => requiredText('\ud83d\ude00'.repeat(4), 'f', 'Title', 4)).toThrow(
      'Title must be ASCII.',
    );
  });
});
