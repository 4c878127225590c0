import { describe, expect, it } from 'vitest';
import { clipText, escapeControl } from './refusal-text.ts';

describe('escapeControl', () => {
  it('writes line breaks, tabs and other C0/C1 controls as escapes', () => {
    expect(escapeControl('a\nb\tc\u0000d\u0085e')).toBe('a\\nb\\tc\\u0000d\\u0085e');
  });

  it('writes the line and paragraph separators as escapes', () => {
    expect(escapeControl('a\u2028b\u2029c')).toBe('a\\u2028b\\u2029c');
  });

  it('writes bidirectional controls as escapes, so a quoted name cannot reorder its message', () => {
    expect(escapeControl('planning_\u202emark\u202c')).toBe('planning_\\u202emark\\u202c');
    expect(escapeControl('\u2066x\u2069 \u200e\u200f\u061c')).toBe(
      '\\u2066x\\u2069 \\u200e\\u200f\\u061c',
    );
  });

  it('returns the text itself when there is nothing to escape, any language included', () => {
    const text = '翻訳を確認する Café 🚀 שלום';
    expect(escapeControl(text)).toBe(text);
  });
});

describe('clipText', () => {
  it('never splits a surrogate pair', () => {
    expect(clipText('ab🚀cdef', 6)).toBe('ab...');
    expect(clipText('abc🚀def', 6)).toBe('abc...');
  });
});
