import { describe, expect, it } from 'vitest';
import { CANONICAL_PATTERNS, PatternSpec } from './pattern-spec.ts';
import { reviewPattern } from './review-pattern.ts';

function review(spec: unknown, options = {}) {
  const result = reviewPattern(spec, options);
  if (!result.ok) throw result.error;
  return result.value;
}

const subtypeProposal = {
  pattern_type: 'recurring_cycle',
  subtype: 'proposed:daily_health_protocol_v2',
  introduced_by: 'ai_adaptation',
  confidence: 0.62,
  source_pattern: 'recurring_cycle',
  rfc: 'Daily routines with weekly check-ins do not fit protocol_routine.',
} as const;

describe('reviewPattern', () => {
  it('accepts a canonical pattern, with or without an established subtype', () => {
    expect(CANONICAL_PATTERNS).toHaveLength(5);
    expect(review({ pattern_type: 'milestone_project', introduced_by: 'system' })).toEqual({
      decision: 'accepted',
      pattern: { pattern_type: 'milestone_project', introduced_by: 'system' },
      scope: null,
      rfc_text: null,
      reason: null,
      fallback: null,
    });
    const withSubtype = {
      pattern_type: 'recurring_cycle',
      subtype: 'protocol_routine',
      introduced_by: 'system',
      variant: null,
    };
    expect(review(withSubtype).decision).toBe('accepted');
  });

  it('sends a proposed subtype with its RFC for approval', () => {
    expect(review(subtypeProposal)).toMatchObject({
      decision: 'rfc_required',
      scope: 'subtype',
      rfc_text: 'Daily routines with weekly check-ins do not fit protocol_routine.',
    });
  });

  it('applies ALLOW_NEW_SUBTYPE_PROPOSALS and REQUIRE_RFC_FOR_NEW_SUBTYPE', () => {
    const refused = review(subtypeProposal, { ALLOW_NEW_SUBTYPE_PROPOSALS: false });
    expect(refused).toMatchObject({ decision: 'refused', scope: 'subtype' });
    expect(refused.fallback).toEqual({
      pattern_type: 'recurring_cycle',
      introduced_by: 'ai_adaptation',
      confidence: 0.62,
      source_pattern: 'recurring_cycle',
    });
    const { rfc: _rfc, ...bare } = subtypeProposal;
    expect(review(bare)).toMatchObject({
      decision: 'refused',
      reason: expect.stringMatching(/needs RFC text/),
    });
    expect(review(bare, { REQUIRE_RFC_FOR_NEW_SUBTYPE: false })).toMatchObject({
      decision: 'rfc_required',
      rfc_text: 'Proposes the new subtype daily_health_protocol_v2 of recurring_cycle.',
    });
  });

  it('always needs approval for a new top-level pattern, whatever the flags', () => {
    const spec = {
      pattern_type: 'seasonal_wave',
      introduced_by: 'ai_adaptation',
      source_pattern: 'recurring_cycle',
      rfc: 'Seasonal peaks.',
    };
    for (const flags of [
      {},
      { ALLOW_NEW_SUBTYPE_PROPOSALS: false },
      { REQUIRE_RFC_FOR_NEW_SUBTYPE: false },
    ]) {
      expect(review(spec, flags)).toMatchObject({
        decision: 'rfc_required',
        scope: 'pattern_type',
        rfc_text: 'Seasonal peaks.',
      });
    }
    const { rfc: _rfc, ...bare } = spec;
    expect(review(bare)).toMatchObject({
      decision: 'refused',
      scope: 'pattern_type',
      fallback: {
        pattern_type: 'recurring_cycle',
        introduced_by: 'ai_adaptation',
        source_pattern: 'recurring_cycle',
      },
    });
    expect(review({ ...bare, source_pattern: 'seasonal_wave' }).fallback).toBeNull();
  });

  it('takes a host-configured canonical list', () => {
    expect(
      review({ pattern_type: 'sprint', introduced_by: 'system' }, { canonical: ['sprint'] })
        .decision,
    ).toBe('accepted');
    expect(
      review(
        { pattern_type: 'milestone_project', introduced_by: 'system', rfc: 'x' },
        { canonical: ['sprint'] },
      ).decision,
    ).toBe('rfc_required');
  });

  it.each([
    [{ introduced_by: 'system' }, 'pattern_type'],
    [{ pattern_type: 'Milestone Project', introduced_by: 'system' }, 'pattern_type'],
    [{ pattern_type: 'milestone_project', introduced_by: 'robot' }, 'introduced_by'],
    [
      { pattern_type: 'milestone_project', introduced_by: 'system', subtype: 'proposed:' },
      'subtype',
    ],
    [{ pattern_type: 'milestone_project', introduced_by: 'system', confidence: 1.5 }, 'confidence'],
    [{ pattern_type: 'milestone_project', introduced_by: 'system', rfc: 'r'.repeat(2001) }, 'rfc'],
    [{ pattern_type: 'milestone_project', introduced_by: 'system', owner: 'me' }, 'owner'],
    ['milestone_project', 'spec'],
  ])('refuses %j with pattern_invalid naming %s', (spec, field) => {
    const result = reviewPattern(spec);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ code: 'pattern_invalid', field });
  });

  it('throws for bad options', () => {
    expect(() => reviewPattern(subtypeProposal, { canonical: [] })).toThrow(/options.canonical/);
    expect(() =>
      reviewPattern(subtypeProposal, { ALLOW_NEW_SUBTYPE_PROPOSALS: 'yes' } as never),
    ).toThrow(/must be a boolean/);
    expect(() => reviewPattern(subtypeProposal, { allow: true } as never)).toThrow(
      /options.allow is not an option/,
    );
  });

  it('parses specs with the PatternSpec schema, nulls included', () => {
    expect(
      PatternSpec.parse({
        pattern_type: 'recurring_cycle',
        introduced_by: 'user_feedback',
        subtype: null,
        rfc: null,
      }),
    ).toEqual({
      pattern_type: 'recurring_cycle',
      introduced_by: 'user_feedback',
      subtype: null,
      rfc: null,
    });
  });
});
