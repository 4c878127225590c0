import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unicodeCharProblem } from '../planning/unicode-text-rules.ts';
import { escapeRefusedText } from './escape-refused-text.ts';

describe('escapeRefusedText', () => {
  it('keeps text in any language and returns it itself when nothing needs escaping', () => {
    for (const text of ['Ship v2', '翻訳を確認する', 'Café', '❤️ 👩‍💻', 'نص', 'e\u0301'])
      expect(escapeRefusedText(text)).toBe(text);
  });

  it('writes controls, bidirectional controls, invisibles and stray selectors as escapes', () => {
    expect(escapeRefusedText('a\nb\u0000')).toBe('a\\nb\\u0000');
    expect(escapeRefusedText('abc\u202edef\u2066')).toBe('abc\\u202edef\\u2066');
    expect(escapeRefusedText('a\u200bb\u00adc\ufeff')).toBe('a\\u200bb\\u00adc\\ufeff');
    expect(escapeRefusedText('\ufe0f\u2764\ufe0f\ufe0f')).toBe('\\ufe0f\u2764\ufe0f\\ufe0f');
    expect(escapeRefusedText('x\udbff y\udc00')).toBe('x\\udbff y\\udc00');
    expect(escapeRefusedText('tag\u{e0041}\u{e0042}')).toBe('tag\\udb40\\udc41\\udb40\\udc42');
    expect(escapeRefusedText('\u2028\ufdd0')).toBe('\\u2028\\ufdd0');
  });

  it('leaves nothing the Unicode rules refuse, and keeps text they accept (property)', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.string({ unit: 'grapheme', maxLength: 60 }),
      fc.string({
        unit: fc.constantFrom('a', ' ', '\ufe0f', '\u{e0100}', '\u202e', '\ud800', '\u200d', '\n'),
        maxLength: 30,
      }),
    );
    fc.assert(
      fc.property(text, (input) => {
        expect(unicodeCharProblem(escapeRefusedText(input))).toBeUndefined();
        if (unicodeCharProblem(input) === undefined) expect(escapeRefusedText(input)).toBe(input);
      }),
      { numRuns: 500 },
    );
  });
});
