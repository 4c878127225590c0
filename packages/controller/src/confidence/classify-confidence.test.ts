import { describe, expect, it } from 'vitest';
import { classifyConfidence, DEFAULT_CONFIDENCE_THRESHOLDS } from './classify-confidence.ts';

describe('classifyConfidence', () => {
  it.each([
    [1, 'continue'],
    [0.7, 'continue'],
    [0.6999999999, 'retry'],
    [0.69, 'retry'],
    [0.4, 'retry'],
    [0.3999999999, 'escalate'],
    [0.39, 'escalate'],
    [0, 'escalate'],
  ] as const)('classifies %s as %s at the seed thresholds', (confidence, expected) => {
    expect(classifyConfidence(confidence)).toBe(expected);
  });

  it('takes other thresholds', () => {
    expect(DEFAULT_CONFIDENCE_THRESHOLDS).toEqual({ continue: 0.7, retry: 0.4 });
    expect(classifyConfidence(0.75, { continue: 0.8, retry: 0.5 })).toBe('retry');
    expect(classifyConfidence(0.5, { continue: 0.5, retry: 0.5 })).toBe('continue');
    expect(classifyConfidence(0.49, { continue: 0.5, retry: 0.5 })).toBe('escalate');
  });

  it.each([
    [Number.NaN, undefined, 'confidence'],
    [1.01, undefined, 'confidence'],
    [-0.01, undefined, 'confidence'],
    [0.5, { continue: 0.3, retry: 0.6 }, 'thresholds.retry'],
    [0.5, { continue: 1.2, retry: 0.4 }, 'thresholds.continue'],
    [0.5, { continue: 0.7 }, 'thresholds.retry'],
    [0.5, { continue: 0.7, retry: 0.4, borderline: 0.5 }, 'thresholds.borderline'],
  ])('throws argument_invalid for %s with %j', (confidence, thresholds, field) => {
    expect(() => classifyConfidence(confidence, thresholds as never)).toThrowError(
      expect.objectContaining({ code: 'argument_invalid', field }),
    );
  });
});
