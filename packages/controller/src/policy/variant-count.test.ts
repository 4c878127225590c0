import { describe, expect, it } from 'vitest';
import { DEFAULT_INTERACTION_POLICY, type InteractionPolicy } from './interaction-policy.ts';
import { variantCount } from './variant-count.ts';

const policy = (
  conversation_style: InteractionPolicy['conversation_style'],
  talkativeness: number,
) => ({
  ...DEFAULT_INTERACTION_POLICY,
  conversation_style,
  talkativeness,
});

describe('variantCount', () => {
  it.each([
    ['concise', 1, 2],
    ['conversational', 0, 3],
    ['coach', 0, 3],
    ['standard', 0.5, 3],
    ['standard', 0.49, 2],
  ] as const)('offers %s at talkativeness %s: %s variants', (style, talkativeness, expected) => {
    expect(variantCount(policy(style, talkativeness))).toBe(expected);
  });

  it('refuses a policy with a bad slider', () => {
    expect(() => variantCount(policy('chatty' as never, 0.5))).toThrowError(
      expect.objectContaining({ code: 'argument_invalid', field: 'policy.conversation_style' }),
    );
  });
});
