import { describe, expect, it } from 'vitest';
import { ensurePlanText, optionalText, requiredText, storedTextProblem } from './text-rules.ts';
import { codePointName, ignorableKind, unicodeCharProblem } from './unicode-text-rules.ts';

/** The refusal the unicode-mode tools give `text` as a title, or `undefined` when they take it. */
function titleRefusal(text: string): { code: unknown; message: string } | undefined {
  try {
    requiredText(text, 'title', 'Title', 160, 'unicode');
    return undefined;
  } catch (error) {
    const { code, message } = error as { code: unknown; message: string };
    return { code, message };
  }
}

describe('the Unicode character rules', () => {
  it('names code points as U+XXXX, at least four digits', () => {
    expect(codePointName(0x7)).toBe('U+0007');
    expect(codePointName(0x202e)).toBe('U+202E');
    expect(codePointName(0xe0041)).toBe('U+E0041');
  });

  it.each([
    ['a\u0007b', 'text_control_char', 'U+0007 (a control character)'],
    ['a\u0000', 'text_control_char', 'U+0000 (a control character)'],
    ['a\u007fb', 'text_control_char', 'U+007F (a control character)'],
    ['a\u0085b', 'text_control_char', 'U+0085 (a control character)'],
    ['a\u009fb', 'text_control_char', 'U+009F (a control character)'],
    ['a\nb', 'text_control_char', 'U+000A (a control character)'],
    ['abc\u202edef', 'text_bidi_control', 'U+202E (a bidirectional control)'],
    ['a\u202ab', 'text_bidi_control', 'U+202A (a bidirectional control)'],
    ['a\u2066b\u2069', 'text_bidi_control', 'U+2066 (a bidirectional control)'],
    ['a\u2069b', 'text_bidi_control', 'U+2069 (a bidirectional control)'],
    ['a\u200eb', 'text_bidi_control', 'U+200E (a bidirectional control)'],
    ['a\u200fb', 'text_bidi_control', 'U+200F (a bidirectional control)'],
    ['a\u061cb', 'text_bidi_control', 'U+061C (a bidirectional control)'],
    ['a\ud800b', 'text_lone_surrogate', 'U+D800 (a lone surrogate)'],
    ['a\udc00b', 'text_lone_surrogate', 'U+DC00 (a lone surrogate)'],
    ['a\udbff', 'text_lone_surrogate', 'U+DBFF (a lone surrogate)'],
    ['a\ufdd0b', 'text_noncharacter', 'U+FDD0 (a noncharacter)'],
    ['a\ufdefb', 'text_noncharacter', 'U+FDEF (a noncharacter)'],
    ['a\ufffeb', 'text_noncharacter', 'U+FFFE (a noncharacter)'],
    ['a\uffffb', 'text_noncharacter', 'U+FFFF (a noncharacter)'],
    ['a\u{1fffe}b', 'text_noncharacter', 'U+1FFFE (a noncharacter)'],
    ['a\u{10ffff}b', 'text_noncharacter', 'U+10FFFF (a noncharacter)'],
    ['a\u2028b', 'text_line_separator', 'U+2028 (a line separator)'],
    ['a\u2029b', 'text_line_separator', 'U+2029 (a paragraph separator)'],
    ['\ufeffab', 'text_bom', 'U+FEFF (a byte order mark)'],
    ['a\ufeffb', 'text_bom', 'U+FEFF (a byte order mark)'],
    ['soft\u00adhyphen', 'text_invisible', 'U+00AD (an invisible character)'],
    ['a\u034fb', 'text_invisible', 'U+034F (an invisible character)'],
    ['\u115fa', 'text_invisible', 'U+115F (an invisible character)'],
    ['a\u1160', 'text_invisible', 'U+1160 (an invisible character)'],
    ['a\u17b4', 'text_invisible', 'U+17B4 (an invisible character)'],
    ['a\u180eb', 'text_invisible', 'U+180E (an invisible character)'],
    ['zero\u200bwidth', 'text_invisible', 'U+200B (an invisible character)'],
    ['a\u2060b', 'text_invisible', 'U+2060 (an invisible character)'],
    ['a\u2064b', 'text_invisible', 'U+2064 (an invisible character)'],
    ['a\u206fb', 'text_invisible', 'U+206F (an invisible character)'],
    ['a\u3164b', 'text_invisible', 'U+3164 (an invisible character)'],
    ['a\uffa0b', 'text_invisible', 'U+FFA0 (an invisible character)'],
    ['a\ufff0b', 'text_invisible', 'U+FFF0 (an invisible character)'],
    ['a\u{1bca0}b', 'text_invisible', 'U+1BCA0 (an invisible character)'],
    ['a\u{1d173}b', 'text_invisible', 'U+1D173 (an invisible character)'],
    // ASCII smuggling: tag characters spell "HI" where no one sees it.
    ['ok\u{e0048}\u{e0049}', 'text_invisible', 'U+E0048 (an invisible character)'],
    ['a\u{e0001}', 'text_invisible', 'U+E0001 (an invisible character)'],
    ['a\u{e007f}', 'text_invisible', 'U+E007F (an invisible character)'],
    ['a\u{e0fff}', 'text_invisible', 'U+E0FFF (an invisible character)'],
    // Emoji smuggling: a run of variation selectors carries hidden bytes.
    ['\ufe0fa', 'text_invisible', 'U+FE0F (a variation selector with no character before it)'],
    ['a\ufe0f\ufe0e', 'text_invisible', 'U+FE0E (a variation selector after another one)'],
    ['a\u{e0100}\u{e0101}', 'text_invisible', 'U+E0101 (a variation selector after another one)'],
    ['\u180ba', 'text_invisible', 'U+180B (a variation selector with no character before it)'],
  ])('refuses %j as %s, naming the code point', (text, code, what) => {
    expect(unicodeCharProblem(text)).toEqual({ code, rule: `must not contain ${what}` });
    expect(titleRefusal(text)).toEqual({ code, message: `Title must not contain ${what}.` });
  });

  it("holds exactly Unicode's Default_Ignorable_Code_Point set (U+FEFF by its own rule)", () => {
    // The rules never ask the regex engine (its answer follows Node's ICU); this test does, to
    // catch a typo in the fixed table. The set is the same from Unicode 14 (every supported
    // Node) to 17.
    const ignorable = /^\p{Default_Ignorable_Code_Point}$/u;
    const differ: string[] = [];
    for (let code = 0; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const inTable = ignorableKind(code) !== 0 || code === 0xfeff;
      if (inTable !== ignorable.test(String.fromCodePoint(code))) differ.push(codePointName(code));
    }
    expect(differ).toEqual([]);
  });

  it('names the first offending code point only', () => {
    expect(unicodeCharProblem('a\u200bb\u202ec')?.rule).toBe(
      'must not contain U+200B (an invisible character)',
    );
  });

  it.each([
    ['Caf\u00e9 menu'],
    ['\u7ffb\u8a33\u3092\u78ba\u8a8d\u3059\u308b'],
    ['Ship v2 \u{1f680}'],
    // ZWJ joins an emoji sequence; ZWNJ shapes Persian.
    ['family \u{1f468}\u200d\u{1f469}\u200d\u{1f467}'],
    ['\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645'],
    // One variation selector after a character: emoji presentation, an ideographic variant.
    ['heart \u2764\ufe0f'],
    ['\u845b\u{e0100}'],
    ['\u1820\u180b'],
    // Private use, combining marks and unassigned code points are not refused.
    ['\ue000 logo'],
    ['a\u0301\u0302\u0303'],
    ['\u{50000}'],
    // Format characters that do not hide text.
    ['a\u00a0b'],
  ])('accepts %j', (text) => {
    expect(unicodeCharProblem(text)).toBeUndefined();
    expect(titleRefusal(text)).toBeUndefined();
  });
});

describe('the tools in unicode mode', () => {
  it('normalises to NFC before trimming and counting', () => {
    expect(requiredText(' cafe\u0301 ', 'title', 'Title', 160, 'unicode')).toBe('caf\u00e9');
    // Decomposed, "e" + U+0301 is five code points; in NFC it fits four.
    expect(requiredText('cafe\u0301', 'title', 'Title', 4, 'unicode')).toBe('caf\u00e9');
    expect(() => requiredText('cafe\u0301', 'title', 'Title', 4, 'ascii')).toThrow(
      'Title must be <= 4 characters.',
    );
    // Trimming happens after normalising: U+2000 is NFC U+2002, both spaces.
    expect(requiredText('\u2000a\u2001', 'title', 'Title', 160, 'unicode')).toBe('a');
    expect(optionalText(' \u3000 ', 'details', 'Details', 512, 'unicode')).toBeNull();
  });

  it('trims line separators at the ends and refuses them inside', () => {
    expect(requiredText('\u2028a\u2029', 'title', 'Title', 160, 'unicode')).toBe('a');
    expect(titleRefusal('a\u2028b')?.code).toBe('text_line_separator');
  });

  it('counts code points against the same limits', () => {
    expect(requiredText('\u{1f680}'.repeat(160), 'title', 'Title', 160, 'unicode')).toHaveLength(
      320,
    );
    expect(titleRefusal('\u{1f680}'.repeat(161))).toEqual({
      code: 'text_too_long',
      message: 'Title must be <= 160 characters.',
    });
  });

  it('keeps the ascii messages in ascii mode', () => {
    expect(() => requiredText('a\u202eb', 'title', 'Title', 160, 'ascii')).toThrow(
      'Title must be ASCII.',
    );
    expect(() => requiredText('a\u0007b', 'title', 'Title', 160, 'ascii')).toThrow(
      'Title must not contain control characters.',
    );
  });
});

describe('stored text: what the tools of either mode could have stored', () => {
  it.each([
    ['ok', undefined, undefined, undefined],
    ['caf\u00e9', undefined, 'text_not_ascii', undefined],
    ['cafe\u0301', 'text_not_nfc', 'text_not_ascii', 'text_not_nfc'],
    [' caf\u00e9', 'text_untrimmed', 'text_not_ascii', 'text_untrimmed'],
    ['caf\u00e9\u2028', 'text_untrimmed', 'text_not_ascii', 'text_untrimmed'],
    ['a\u202eb', 'text_bidi_control', 'text_not_ascii', 'text_bidi_control'],
    ['a\u0085b', 'text_control_char', 'text_not_ascii', 'text_control_char'],
    ['\u{1f680}'.repeat(6), 'text_too_long', 'text_too_long', 'text_too_long'],
    ['a\u0007b', 'text_control_char', 'text_control_char', 'text_control_char'],
  ])(
    '%j: %s in the model, %s for ascii tools, %s for unicode tools',
    (text, model, ascii, unicode) => {
      expect(storedTextProblem(text, 5)?.code).toBe(model);
      expect(storedTextProblem(text, 5, 'ascii')?.code).toBe(ascii);
      expect(storedTextProblem(text, 5, 'unicode')?.code).toBe(unicode);
    },
  );

  it('words NFC and control refusals for the field', () => {
    expect(() => ensurePlanText('cafe\u0301', 'steps[0].title', 'Title', 160)).toThrow(
      expect.objectContaining({
        code: 'text_not_nfc',
        field: 'steps[0].title',
        message: 'Title must be in Unicode normalization form C (NFC).',
      }),
    );
    // ASCII text keeps the message it has always had; other text names the code point.
    expect(() => ensurePlanText('a\u0007', 'title', 'Title', 160)).toThrow(
      'Title must not contain control characters.',
    );
    expect(() => ensurePlanText('\u00e9\u0007', 'title', 'Title', 160)).toThrow(
      'Title must not contain U+0007 (a control character).',
    );
  });
});
