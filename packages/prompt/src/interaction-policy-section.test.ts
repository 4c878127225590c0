import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import {
  INTERACTION_POLICY_COPY,
  type InteractionPolicyInput,
  type InteractionPolicyParams,
  InteractionPolicySection,
} from './interaction-policy-section.ts';
import { Prompt } from './prompt.ts';
import { PromptRenderError } from './prompt-render-error.ts';

const STYLES = ['concise', 'standard', 'conversational', 'coach'] as const;
const TONES = ['neutral', 'friendly', 'clinical'] as const;
const BRAINSTORMS = ['on_demand', 'suggest_when_uncertain', 'always_offer'] as const;
const APPROVALS = ['single_final', 'milestone_approvals', 'strict_every_step'] as const;
const DEPTHS = [0, 1, 2, 3] as const;
// 0.5 is where `standard` moves from 2 variants to 3; the others stand for each side.
const TALKATIVENESS = [0, 0.49, 0.5, 1] as const;

const BASE: InteractionPolicyInput = {
  conversation_style: 'standard',
  talkativeness: 0.5,
  brainstorming_preference: 'suggest_when_uncertain',
  approval_policy: 'single_final',
  probing_depth: 2,
  tone: 'neutral',
};

const section = new InteractionPolicySection();

function* combinations(): Generator<InteractionPolicyParams> {
  for (const conversation_style of STYLES)
    for (const talkativeness of TALKATIVENESS)
      for (const tone of TONES)
        for (const probing_depth of DEPTHS)
          for (const brainstorming_preference of BRAINSTORMS)
            for (const approval_policy of APPROVALS)
              for (const style_known of [true, false])
                yield {
                  policy: {
                    conversation_style,
                    talkativeness,
                    tone,
                    probing_depth,
                    brainstorming_preference,
                    approval_policy,
                  },
                  style_known,
                };
}

function variantsOf(policy: InteractionPolicyInput): number {
  if (policy.conversation_style === 'concise') return 2;
  if (policy.conversation_style === 'standard') return policy.talkativeness >= 0.5 ? 3 : 2;
  return 3;
}

/** What each combination must render: the heading and the reviewed lines, one per slot. */
function expected({ policy, style_known }: InteractionPolicyParams): string {
  const copy = INTERACTION_POLICY_COPY;
  const lines = [
    copy.style[policy.conversation_style],
    copy.tone[policy.tone],
    copy.questions[policy.probing_depth],
    `Offer ${variantsOf(policy)} variants when you present options.`,
    copy.brainstorm[policy.brainstorming_preference],
    copy.approval[policy.approval_policy],
    ...(style_known ? [] : [copy.probe]),
  ];
  return `## Interaction Policy\n\n${lines.map((line) => `- ${line}`).join('\n')}`;
}

const all = [...combinations()];
const longest = all
  .map((params) => section.render(params))
  .reduce((a, b) => (countTokens(b) > countTokens(a) ? b : a));
const longestTokens = countTokens(longest);

describe('InteractionPolicySection', () => {
  it('matches the reviewed snapshot of every directive line', async () => {
    const copy = INTERACTION_POLICY_COPY;
    const lines = [
      '# Every directive of the Interaction Policy section, by slot',
      '',
      ...Object.entries({
        style: copy.style,
        tone: copy.tone,
        questions: { ...copy.questions },
        brainstorm: copy.brainstorm,
        approval: copy.approval,
        probe: { unknown: copy.probe },
      }).flatMap(([slot, values]) => [
        `## ${slot}`,
        '',
        ...Object.entries(values).map(([value, line]) => `- ${value}: ${line}`),
        '',
      ]),
    ];
    await expect(lines.join('\n')).toMatchFileSnapshot(
      './__snapshots__/interaction-policy/lines.md',
    );
  });

  for (const style of STYLES) {
    for (const known of [true, false]) {
      const name = `${style}-${known ? 'known' : 'probe'}`;
      it(`matches the reviewed snapshot ${name}.md`, async () => {
        const markdown = section.render({
          policy: { ...BASE, conversation_style: style },
          style_known: known,
        });
        await expect(markdown).toMatchFileSnapshot(`./__snapshots__/interaction-policy/${name}.md`);
      });
    }
  }

  it('matches the reviewed snapshot of the longest rendering', async () => {
    await expect(longest).toMatchFileSnapshot('./__snapshots__/interaction-policy/longest.md');
  });

  it(`renders every combination (${all.length}) from the reviewed lines, ASCII, byte-stable`, () => {
    for (const params of all) {
      const markdown = section.render(params);
      expect(markdown).toBe(expected(params));
      expect(markdown).toMatch(/^[\x20-\x7e\n]*$/);
      expect(section.render(structuredClone(params))).toBe(markdown);
    }
  });

  it(`keeps the longest rendering under 120 tokens (o200k: ${longestTokens} tokens)`, () => {
    expect(longestTokens).toBeGreaterThan(50);
    expect(longestTokens).toBeLessThan(120);
  });

  it('asks the preference probe only while the style is unknown', () => {
    const probe = INTERACTION_POLICY_COPY.probe;
    expect(section.render({ policy: BASE, style_known: false })).toContain(
      'Concise or conversational?',
    );
    expect(section.render({ policy: BASE, style_known: true })).not.toContain(probe);
  });

  it('says 0 questions as a rule of its own, and 1 in the singular', () => {
    const at = (probing_depth: number) =>
      section.render({ policy: { ...BASE, probing_depth }, style_known: true });
    expect(at(0)).toContain('- Ask no clarifying questions: state your assumptions instead.');
    expect(at(1)).toContain('- Ask at most 1 clarifying question at a time.');
    expect(at(3)).toContain('- Ask at most 3 clarifying questions at a time.');
  });

  it('ignores keys it does not read, such as autonomy', () => {
    const policy = { ...BASE, autonomy: 'high' } as InteractionPolicyInput;
    expect(section.render({ policy, style_known: true })).toBe(
      section.render({ policy: BASE, style_known: true }),
    );
  });

  it('renders in a Prompt under its key, nested and numbered', () => {
    const prompt = new Prompt({
      ns: 'agents/test',
      key: 'policy',
      name: 'Policy',
      sections: [section],
    });
    const rendered = prompt.render({ 'interaction-policy': { policy: BASE, style_known: true } });
    expect(rendered.markdown).toContain('Interaction Policy\n\n- Style: standard.');
    expect(
      section.render({ policy: BASE, style_known: true }, { depth: 1, number: '2.1' }),
    ).toMatch(/^### 2\.1\. Interaction Policy\n\n- Style/);
    expect(section.tools()).toEqual([]);
    expect(section.children).toEqual([]);
  });

  it('refuses bad params with a typed error naming the field', () => {
    const bad: [unknown, string | undefined, string][] = [
      [undefined, undefined, 'params_missing'],
      [{ policy: null, style_known: true }, 'policy', 'placeholder_invalid'],
      [{ policy: BASE }, 'style_known', 'placeholder_invalid'],
      [
        { policy: { ...BASE, conversation_style: 'loud' }, style_known: true },
        'policy.conversation_style',
        'placeholder_invalid',
      ],
      [
        { policy: { ...BASE, conversation_style: '__proto__' }, style_known: true },
        'policy.conversation_style',
        'placeholder_invalid',
      ],
      [
        { policy: { ...BASE, tone: 'toString' }, style_known: true },
        'policy.tone',
        'placeholder_invalid',
      ],
      [
        { policy: { ...BASE, talkativeness: Number.NaN }, style_known: true },
        'policy.talkativeness',
        'placeholder_invalid',
      ],
      [
        { policy: { ...BASE, talkativeness: 2 }, style_known: true },
        'policy.talkativeness',
        'placeholder_invalid',
      ],
      [
        { policy: { ...BASE, probing_depth: 1.5 }, style_known: true },
        'policy.probing_depth',
        'placeholder_invalid',
      ],
      [
        { policy: { ...BASE, probing_depth: 4 }, style_known: true },
        'policy.probing_depth',
        'placeholder_invalid',
      ],
      [
        { policy: { ...BASE, brainstorming_preference: 'x'.repeat(1 << 20) }, style_known: true },
        'policy.brainstorming_preference',
        'placeholder_invalid',
      ],
      [
        { policy: { ...BASE, approval_policy: 'weekly' }, style_known: true },
        'policy.approval_policy',
        'placeholder_invalid',
      ],
    ];
    for (const [params, field, code] of bad) {
      let caught: unknown;
      try {
        section.render(params as InteractionPolicyParams);
      } catch (error) {
        caught = error;
      }
      expect(PromptRenderError.isInstance(caught)).toBe(true);
      const error = caught as PromptRenderError;
      expect(error.code).toBe(code);
      expect(error.field).toBe(field);
      expect(error.message.length).toBeLessThan(2000);
    }
    expect(() => section.render({ policy: BASE, style_known: true }, { depth: 9 })).toThrow(
      PromptRenderError,
    );
  });
});
