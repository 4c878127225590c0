import { describe, expect, it } from 'vitest';
import { bidiIsolate } from './bidi-isolate.ts';

describe('bidiIsolate', () => {
  it('returns ASCII text as it is, the empty text included', () => {
    for (const text of ['', 'Draft the notes', '<b>1 + 2</b> ~ {x}'])
      expect(bidiIsolate(text)).toBe(text);
  });

  it('wraps any other text in a first-strong isolate', () => {
    expect(bidiIsolate('שלום 2')).toBe('\u2068שלום 2\u2069');
    expect(bidiIsolate('翻訳を確認する')).toBe('\u2068翻訳を確認する\u2069');
    expect(bidiIsolate('Ship v2 🚀')).toBe('\u2068Ship v2 🚀\u2069');
    expect(bidiIsolate('Caf\u00e9')).toBe('\u2068Caf\u00e9\u2069');
  });
});
