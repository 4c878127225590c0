import { InteractionPolicySection } from '@plankit/prompt';
import { describe, expect, it } from 'vitest';
import type { InteractionPolicy } from './interaction-policy.ts';
import { limitQuestions } from './limit-questions.ts';
import { resolvePolicy } from './resolve-policy.ts';
import { shouldBrainstorm } from './should-brainstorm.ts';
import { variantCount } from './variant-count.ts';

const section = new InteractionPolicySection();
const styles = ['concise', 'standard', 'conversational', 'coach'] as const;

function policy(override: Partial<InteractionPolicy>): InteractionPolicy {
  const resolved = resolvePolicy({ override });
  if (!resolved.ok) throw resolved.error;
  return resolved.value;
}

const line = (markdown: string, start: string): string | undefined =>
  markdown.split('\n').find((text) => text.startsWith(start));

describe('InteractionPolicySection agrees with the controller', () => {
  it('offers the variantCount of every style and talkativeness', () => {
    for (const conversation_style of styles) {
      for (const talkativeness of [0, 0.25, 0.4999, 0.5, 0.75, 1]) {
        const p = policy({ conversation_style, talkativeness });
        const rendered = section.render({ policy: p, style_known: true });
        expect(line(rendered, '- Offer ') ?? '').toBe(
          `- Offer ${variantCount(p)} variants when you present options.`,
        );
      }
    }
  });

  it('asks at most the questions limitQuestions keeps', () => {
    for (const probing_depth of [0, 1, 2, 3]) {
      const p = policy({ probing_depth });
      const kept = limitQuestions(p, ['a', 'b', 'c', 'd']).length;
      const rendered = section.render({ policy: p, style_known: true });
      expect(rendered).toContain(
        kept === 0 ? 'Ask no clarifying questions' : `Ask at most ${kept} clarifying question`,
      );
    }
  });

  it('brainstorms when shouldBrainstorm would: always, on request, or also when borderline', () => {
    const said = (brainstorming_preference: InteractionPolicy['brainstorming_preference']) =>
      section.render({ policy: policy({ brainstorming_preference }), style_known: true });
    const offers = (
      pref: InteractionPolicy['brainstorming_preference'],
      confidence: number,
      requested: boolean,
    ) => shouldBrainstorm(policy({ brainstorming_preference: pref }), { confidence, requested });
    expect(offers('always_offer', 0.99, false)).toBe(true);
    expect(said('always_offer')).toContain('with each proposal');
    expect(offers('on_demand', 0.5, false)).toBe(false);
    expect(offers('on_demand', 0.5, true)).toBe(true);
    expect(said('on_demand')).toContain('only when the user asks');
    expect(offers('suggest_when_uncertain', 0.99, false)).toBe(false);
    expect(offers('suggest_when_uncertain', 0.99, true)).toBe(true);
    expect(said('suggest_when_uncertain')).toContain(
      'the user asks or your confidence is borderline',
    );
  });

  it('renders a resolved policy, and the probe goes once the host records the style', () => {
    const stored: Partial<InteractionPolicy> = {};
    const before = section.render({
      policy: policy(stored),
      style_known: stored.conversation_style !== undefined,
    });
    expect(before).toContain('Concise or conversational?');
    const answered: Partial<InteractionPolicy> = { conversation_style: 'concise' };
    const after = section.render({
      policy: policy(answered),
      style_known: answered.conversation_style !== undefined,
    });
    expect(after).not.toContain('Concise or conversational?');
    expect(after).toContain('- Style: concise.');
  });
});
