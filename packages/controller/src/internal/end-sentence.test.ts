import { describe, expect, it } from 'vitest';
import { endSentence } from './end-sentence.ts';

describe('endSentence', () => {
  it('adds a full stop to text that has none', () => {
    expect(endSentence('Ship the fix')).toBe('Ship the fix.');
  });

  it('keeps the end a sentence already has, in any script', () => {
    for (const text of [
      'Ship it.',
      'Ship it!',
      'Ship it?',
      'Ship it\u2026',
      '修正する。',
      '本当？',
    ])
      expect(endSentence(text)).toBe(text);
  });

  it('adds one after a clipped quote that ends in an ellipsis of dots', () => {
    // clipText's marker is three dots, which already end the sentence.
    expect(endSentence('A long objective...')).toBe('A long objective...');
  });
});
