import { checkPlan } from '@plankit/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toPlanText } from './to-plan-text.ts';

const storable = (text: string): boolean =>
  checkPlan({ objective: text, status: 'active', steps: [] }).ok;

/** What the unicode-mode tools could store: the objective of a plan `checkPlan` accepts in that mode. */
const storableUnicode = (text: string): boolean =>
  checkPlan({ objective: text, status: 'active', steps: [] }, { text: 'unicode' }).ok;

describe('toPlanText', () => {
  it('makes any text into text the planning tools could store', () => {
    expect(toPlanText('Ship it', 160)).toBe('Ship it');
    expect(toPlanText(' two\nlines\t', 160)).toBe('two\\nlines\\t');
    expect(toPlanText('caf\u00e9 \ud83d\ude00', 160)).toBe('caf\\u00e9 \\ud83d\\ude00');
    expect(toPlanText('x'.repeat(500), 160)).toBe(`${'x'.repeat(157)}...`);
    expect(toPlanText('  ', 160)).toBe('-');
    for (const text of ['a\u0000b', '\u2028', 'x '.repeat(300), '\ud800', '\u001b[2J', 'ok'])
      expect(storable(toPlanText(text, 160)), JSON.stringify(text)).toBe(true);
    expect(toPlanText('caf\u00e9', 160, 'ascii')).toBe(toPlanText('caf\u00e9', 160));
  });

  it('keeps text in any language in unicode mode, composed, escaping only what that mode refuses', () => {
    for (const text of [
      '翻訳を確認する',
      'Café menu',
      'Ship v2 🚀',
      '❤️ 👩‍💻',
      'Don’t forget tests',
    ])
      expect(toPlanText(text, 160, 'unicode')).toBe(text);
    expect(toPlanText('Cafe\u0301', 160, 'unicode')).toBe('Caf\u00e9');
    expect(toPlanText(' two\nlines\t', 160, 'unicode')).toBe('two\\nlines\\t');
    expect(toPlanText('abc\u202edef', 160, 'unicode')).toBe('abc\\u202edef');
    expect(toPlanText('a\u200bb\ufeffc', 160, 'unicode')).toBe('a\\u200bb\\ufeffc');
    expect(toPlanText('\ufe0fok\ufe0f\ufe0f', 160, 'unicode')).toBe('\\ufe0fok\ufe0f\\ufe0f');
    expect(toPlanText('x\udbff', 160, 'unicode')).toBe('x\\udbff');
    // An escape's letter composes with a combining mark after it, as the tools would store it.
    expect(toPlanText('a\n\u0301', 160, 'unicode')).toBe('a\\\u0144');
    expect(toPlanText('語'.repeat(200), 160, 'unicode')).toBe(`${'語'.repeat(157)}...`);
    expect(toPlanText('😀'.repeat(160), 160, 'unicode')).toBe('😀'.repeat(160));
    expect(toPlanText('😀'.repeat(200), 160, 'unicode')).toBe(`${'😀'.repeat(157)}...`);
  });

  it('gives text the unicode-mode tools could store for any input, and keeps such text (property)', () => {
    const text = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 60 }),
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.string({ unit: 'grapheme-composite', maxLength: 60 }),
      fc.string({
        unit: fc.constantFrom(
          'e',
          '\u0301',
          '\n',
          '\ufe0f',
          '\u200d',
          '\u202e',
          ' ',
          '😀',
          '\ud800',
        ),
        maxLength: 30,
      }),
    );
    fc.assert(
      fc.property(text, (input) => {
        const output = toPlanText(input, 160, 'unicode');
        expect(storableUnicode(output), JSON.stringify(output)).toBe(true);
        expect([...output].length).toBeLessThanOrEqual(160);
        if (storableUnicode(input) && [...input].length <= 160) expect(output).toBe(input);
        expect(storable(toPlanText(input, 160)), JSON.stringify(input)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
