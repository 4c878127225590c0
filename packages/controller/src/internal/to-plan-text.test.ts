import { checkPlan } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import { toPlanText } from './to-plan-text.ts';

const storable = (text: string): boolean =>
  checkPlan({ objective: text, status: 'active', steps: [] }).ok;

describe('toPlanText', () => {
  it('makes any text into text the planning tools could store', () => {
    expect(toPlanText('Ship it', 160)).toBe('Ship it');
    expect(toPlanText(' two\nlines\t', 160)).toBe('two\\nlines\\t');
    expect(toPlanText('caf\u00e9 \ud83d\ude00', 160)).toBe('caf\\u00e9 \\ud83d\\ude00');
    expect(toPlanText('x'.repeat(500), 160)).toBe(`${'x'.repeat(157)}...`);
    expect(toPlanText('  ', 160)).toBe('-');
    for (const text of ['a\u0000b', '\u2028', 'x '.repeat(300), '\ud800', '\u001b[2J', 'ok'])
      expect(storable(toPlanText(text, 160)), JSON.stringify(text)).toBe(true);
  });
});
