import { describe, expect, it } from 'vitest';
import { DEFAULT_INTERACTION_POLICY, type InteractionPolicy } from './interaction-policy.ts';
import { shouldBrainstorm } from './should-brainstorm.ts';

const policy = (brainstorming_preference: InteractionPolicy['brainstorming_preference']) => ({
  ...DEFAULT_INTERACTION_POLICY,
  brainstorming_preference,
});

describe('shouldBrainstorm', () => {
  it('always offers with always_offer, and only on request with on_demand', () => {
    expect(shouldBrainstorm(policy('always_offer'), { confidence: 0.95 })).toBe(true);
    expect(shouldBrainstorm(policy('on_demand'), { confidence: 0.5 })).toBe(false);
    expect(shouldBrainstorm(policy('on_demand'), { confidence: 0.5, requested: true })).toBe(true);
  });

  it('suggests when uncertain: borderline confidence (0.40 to below 0.70) or a request', () => {
    const uncertain = policy('suggest_when_uncertain');
    expect(shouldBrainstorm(uncertain, { confidence: 0.4 })).toBe(true);
    expect(shouldBrainstorm(uncertain, { confidence: 0.69 })).toBe(true);
    expect(shouldBrainstorm(uncertain, { confidence: 0.7 })).toBe(false);
    expect(shouldBrainstorm(uncertain, { confidence: 0.39 })).toBe(false);
    expect(shouldBrainstorm(uncertain, { confidence: 0.9, requested: true })).toBe(true);
    expect(
      shouldBrainstorm(uncertain, { confidence: 0.75, thresholds: { continue: 0.8, retry: 0.5 } }),
    ).toBe(true);
  });

  it('refuses bad context', () => {
    const uncertain = policy('suggest_when_uncertain');
    expect(() => shouldBrainstorm(uncertain, { confidence: 2 })).toThrowError(
      expect.objectContaining({ field: 'confidence' }),
    );
    expect(() =>
      shouldBrainstorm(uncertain, { confidence: 0.5, requested: 'yes' as never }),
    ).toThrowError(expect.objectContaining({ field: 'context.requested' }));
    expect(() => shouldBrainstorm(uncertain, { confidence: 0.5, mood: 1 } as never)).toThrowError(
      expect.objectContaining({ field: 'context.mood' }),
    );
  });
});
