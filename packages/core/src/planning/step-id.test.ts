import { describe, expect, it } from 'vitest';
import { formatStepId, highestStepNumber, MAX_STEP_NUMBER } from './step-id.ts';

describe('step ids', () => {
  it('pads to three digits and grows past S999', () => {
    expect([1, 42, 999, 1000, 12345].map(formatStepId)).toEqual([
      'S001',
      'S042',
      'S999',
      'S1000',
      'S12345',
    ]);
  });

  it('takes the highest all-digit suffix and skips the rest', () => {
    expect(highestStepNumber([])).toBe(0);
    expect(highestStepNumber(['S002', 'S010', 'S003'])).toBe(10);
    expect(highestStepNumber(['Sabc', 'S', 'S1x', 'S+5', 'S 7', 'S\u0661'])).toBe(0);
    // Only the first character is dropped, as in the reference.
    expect(highestStepNumber(['T050', 'S007'])).toBe(50);
  });

  it('skips suffixes above MAX_STEP_NUMBER, which would lose precision', () => {
    expect(highestStepNumber([`S${'9'.repeat(400)}`, 'S9007199254740992', 'S005'])).toBe(5);
    expect(highestStepNumber([`S${MAX_STEP_NUMBER}`])).toBe(MAX_STEP_NUMBER);
    expect(MAX_STEP_NUMBER).toBe(Number.MAX_SAFE_INTEGER);
  });
});
