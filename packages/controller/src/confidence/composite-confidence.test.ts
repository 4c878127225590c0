import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ControllerError } from '../controller-error.ts';
import { classifyConfidence } from './classify-confidence.ts';
import { compositeConfidence, DEFAULT_CONFIDENCE_WEIGHTS } from './composite-confidence.ts';

function thrown(run: () => unknown): ControllerError {
  try {
    run();
  } catch (error) {
    if (ControllerError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a throw');
}

describe('compositeConfidence', () => {
  it("applies seed 000's 0.5 / 0.3 / 0.2 weights", () => {
    expect(DEFAULT_CONFIDENCE_WEIGHTS).toEqual({ llm: 0.5, rules: 0.3, heuristics: 0.2 });
    expect(compositeConfidence({ llm: 0.9, rules: 0.6, heuristics: 0.5 })).toBe(0.73);
    expect(compositeConfidence({ llm: 1, rules: 0, heuristics: 0 })).toBe(0.5);
    expect(compositeConfidence({ llm: 0, rules: 0, heuristics: 1 })).toBe(0.2);
  });

  it('keeps results on the thresholds exact, so float noise cannot cross one', () => {
    // Exactly 0.70, but 0.5 * 0.69 + 0.3 * 0.95 + 0.2 * 0.35 is 0.6999999999999998 in floating point.
    expect(0.5 * 0.69 + 0.3 * 0.95 + 0.2 * 0.35).toBeLessThan(0.7);
    expect(compositeConfidence({ llm: 0.69, rules: 0.95, heuristics: 0.35 })).toBe(0.7);
    expect(
      classifyConfidence(compositeConfidence({ llm: 0.69, rules: 0.95, heuristics: 0.35 })),
    ).toBe('continue');
    // Exactly 0.40, but 0.39999999999999997 in floating point.
    expect(0.5 * 0 + 0.3 * 0.94 + 0.2 * 0.59).toBeLessThan(0.4);
    expect(classifyConfidence(compositeConfidence({ llm: 0, rules: 0.94, heuristics: 0.59 }))).toBe(
      'retry',
    );
  });

  it('renormalises the weights over the scores given', () => {
    expect(compositeConfidence({ llm: 0.8, heuristics: 0.1 })).toBe(0.6);
    expect(compositeConfidence({ rules: 0.55 })).toBe(0.55);
    expect(compositeConfidence({ llm: 0.2, rules: 0.8 }, { llm: 1, rules: 3, heuristics: 0 })).toBe(
      0.65,
    );
  });

  it('stays within the range of the scores given', () => {
    const score = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(score, score, score, (llm, rules, heuristics) => {
        const c = compositeConfidence({ llm, rules, heuristics });
        expect(c).toBeGreaterThanOrEqual(Math.min(llm, rules, heuristics) - 1e-12);
        expect(c).toBeLessThanOrEqual(Math.max(llm, rules, heuristics) + 1e-12);
      }),
    );
  });

  const bad: [string, () => unknown, string][] = [
    ['no score', () => compositeConfidence({}), 'scores'],
    ['a score above 1', () => compositeConfidence({ llm: 1.2 }), 'scores.llm'],
    ['a NaN score', () => compositeConfidence({ rules: Number.NaN }), 'scores.rules'],
    [
      'a string score',
      () => compositeConfidence({ heuristics: '0.5' as never }),
      'scores.heuristics',
    ],
    [
      'an unknown score',
      () => compositeConfidence({ llm: 0.5, vibes: 1 } as never),
      'scores.vibes',
    ],
    [
      'a negative weight',
      () => compositeConfidence({ llm: 0.5 }, { llm: -1, rules: 1, heuristics: 1 }),
      'weights.llm',
    ],
    [
      'an infinite weight',
      () =>
        compositeConfidence(
          { llm: 0.5 },
          { llm: Number.POSITIVE_INFINITY, rules: 1, heuristics: 1 },
        ),
      'weights.llm',
    ],
    [
      'a missing weight',
      () => compositeConfidence({ llm: 0.5 }, { llm: 1, rules: 1 } as never),
      'weights.heuristics',
    ],
    [
      'zero weights for the scores given',
      () => compositeConfidence({ llm: 0.5 }, { llm: 0, rules: 1, heuristics: 1 }),
      'weights',
    ],
    ['a non-object', () => compositeConfidence(null as never), 'scores'],
  ];

  it('gives a score in [0, 1] for huge and subnormal weights (no overflow to NaN, no underflow to 0)', () => {
    const huge = { llm: 1e308, rules: 1e308, heuristics: 1e308 };
    expect(compositeConfidence({ llm: 1, rules: 0.5, heuristics: 0 }, huge)).toBe(0.5);
    const tiny = { llm: Number.MIN_VALUE, rules: 0, heuristics: 0 };
    expect(compositeConfidence({ llm: 0.5 }, tiny)).toBe(0.5);
  });

  it.each(bad)('throws argument_invalid for %s, naming the field', (_, run, field) => {
    expect(thrown(run)).toMatchObject({ code: 'argument_invalid', field });
  });
});
