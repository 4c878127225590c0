import { describe, expect, it } from 'vitest';
import { DEFAULT_INTERACTION_POLICY, InteractionPolicy } from './interaction-policy.ts';
import { resolvePolicy } from './resolve-policy.ts';

describe('InteractionPolicy', () => {
  it('fills missing sliders with the defaults and refuses unknown keys', () => {
    expect(InteractionPolicy.parse({ tone: 'friendly' })).toEqual({
      ...DEFAULT_INTERACTION_POLICY,
      tone: 'friendly',
    });
    expect(InteractionPolicy.safeParse({ verbosity: 3 }).success).toBe(false);
    expect(InteractionPolicy.safeParse({ probing_depth: 4 }).success).toBe(false);
    expect(InteractionPolicy.safeParse({ talkativeness: Number.NaN }).success).toBe(false);
  });
});

describe('resolvePolicy', () => {
  it('layers library defaults, long-term defaults and the session override', () => {
    const result = resolvePolicy({
      defaults: { conversation_style: 'conversational', probing_depth: 3, tone: 'friendly' },
      override: { conversation_style: 'concise' },
    });
    expect(result).toEqual({
      ok: true,
      value: {
        ...DEFAULT_INTERACTION_POLICY,
        conversation_style: 'concise',
        probing_depth: 3,
        tone: 'friendly',
      },
    });
    if (result.ok) expect(Object.isFrozen(result.value)).toBe(true);
    expect(resolvePolicy()).toEqual({ ok: true, value: DEFAULT_INTERACTION_POLICY });
    expect(resolvePolicy({ defaults: null, override: undefined })).toEqual({
      ok: true,
      value: DEFAULT_INTERACTION_POLICY,
    });
  });

  it.each([
    [{ override: { talkativeness: 2 } }, 'override.talkativeness'],
    [{ defaults: { probing_depth: 1.5 } }, 'defaults.probing_depth'],
    [{ defaults: { tone: 'sarcastic' } }, 'defaults.tone'],
    [{ override: { verbosity: 'low' } }, 'override.verbosity'],
    [{ override: JSON.parse('{"__proto__":{"tone":"clinical"}}') }, 'override.__proto__'],
    [{ override: 'concise' }, 'override'],
    [{ session: {} }, 'session'],
  ])('refuses %j with policy_invalid naming %s', (layers, field) => {
    const result = resolvePolicy(layers as never);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ code: 'policy_invalid', field });
  });
});
