import type { AnyTool } from '@plankit/core';
import { plural } from '@plankit/core/internal-unstable';
import { PromptRenderError } from './prompt-render-error.ts';
import {
  checkSectionIdentity,
  type PromptSection,
  renderHeading,
  type SectionRenderOptions,
} from './prompt-section.ts';

/**
 * The sliders {@link InteractionPolicySection} reads: a structural subset of
 * `@plankit/controller`'s `InteractionPolicy`, so a resolved policy is passed
 * as is. Other keys, such as `autonomy`, are ignored.
 *
 * @public
 */
export interface InteractionPolicyInput {
  /** How the agent talks. */
  readonly conversation_style: 'concise' | 'standard' | 'conversational' | 'coach';
  /** How much it says, from 0 to 1 (decides the variant count of `standard`). */
  readonly talkativeness: number;
  /** When it offers brainstorming. */
  readonly brainstorming_preference: 'on_demand' | 'suggest_when_uncertain' | 'always_offer';
  /** How often it asks for approval. */
  readonly approval_policy: 'single_final' | 'milestone_approvals' | 'strict_every_step';
  /** The most clarifying questions at a time, an integer from 0 to 3. */
  readonly probing_depth: number;
  /** The tone of its messages. */
  readonly tone: 'neutral' | 'friendly' | 'clinical';
}

/** Params of {@link InteractionPolicySection}. @public */
export interface InteractionPolicyParams {
  /** The policy in force, such as the value of `resolvePolicy` in `@plankit/controller`. */
  readonly policy: InteractionPolicyInput;
  /**
   * Whether the user's conversation style is on record. `false` adds the one-time preference
   * probe ("Concise or conversational?"); once the host records the answer (a policy layer
   * with `conversation_style`), pass `true` and the probe is gone.
   */
  readonly style_known: boolean;
}

const STYLE: Readonly<Record<InteractionPolicyInput['conversation_style'], string>> = {
  concise: 'Style: concise. Keep replies short and to the point.',
  standard: 'Style: standard. Be clear; explain only what matters.',
  conversational: 'Style: conversational. Explain your reasoning in plain words.',
  coach: 'Style: coach. Guide the user with questions and encouragement.',
};

const TONE: Readonly<Record<InteractionPolicyInput['tone'], string>> = {
  neutral: 'Tone: neutral.',
  friendly: 'Tone: friendly and warm.',
  clinical: 'Tone: clinical and precise, without small talk.',
};

const BRAINSTORM: Readonly<Record<InteractionPolicyInput['brainstorming_preference'], string>> = {
  on_demand: 'Brainstorm only when the user asks for ideas.',
  suggest_when_uncertain:
    'Offer to brainstorm when the user asks or your confidence is borderline.',
  always_offer: 'Offer a short brainstorm of ideas with each proposal.',
};

const APPROVAL: Readonly<Record<InteractionPolicyInput['approval_policy'], string>> = {
  single_final: 'Ask for approval once, before finishing.',
  milestone_approvals: 'Ask for approval after each milestone: outline, roadmap, schedule.',
  strict_every_step: 'Ask for approval after every stage before moving on.',
};

const PROBE =
  'The user\'s preferred style is unknown: ask once, early, "Concise or conversational?" and follow the answer.';

/**
 * How many variants to offer: the rule of `@plankit/controller`'s `variantCount` (2 for
 * `concise`; 3 for `conversational` and `coach`; for `standard`, 3 when `talkativeness >= 0.5`,
 * else 2). The controller's tests check the two agree for every style.
 */
function variants(policy: InteractionPolicyInput): 2 | 3 {
  switch (policy.conversation_style) {
    case 'concise':
      return 2;
    case 'conversational':
    case 'coach':
      return 3;
    case 'standard':
      return policy.talkativeness >= 0.5 ? 3 : 2;
    default: {
      const unknown: never = policy.conversation_style;
      throw new Error(`unreachable: style ${String(unknown)}`);
    }
  }
}

function questions(depth: number): string {
  if (depth === 0) return 'Ask no clarifying questions: state your assumptions instead.';
  return `Ask at most ${plural(depth, 'clarifying question')} at a time.`;
}

function invalid(field: string, rule: string): PromptRenderError {
  return new PromptRenderError(
    'placeholder_invalid',
    `Section 'interaction-policy' ${field} ${rule}.`,
    { field },
  );
}

function oneOf(record: Readonly<Record<string, string>>, value: unknown, field: string): string {
  if (typeof value !== 'string' || !Object.hasOwn(record, value)) {
    throw invalid(field, `must be one of ${Object.keys(record).join(', ')}`);
  }
  return record[value] as string;
}

/** The directive lines, in order, for a checked policy. */
function directives(params: unknown): readonly string[] {
  if (typeof params !== 'object' || params === null) {
    throw new PromptRenderError(
      'params_missing',
      "Section 'interaction-policy' needs params { policy, style_known }.",
    );
  }
  const { policy, style_known } = params as Record<string, unknown>;
  if (typeof policy !== 'object' || policy === null) throw invalid('policy', 'must be an object');
  if (typeof style_known !== 'boolean') throw invalid('style_known', 'must be a boolean');
  const p = policy as Record<string, unknown>;
  const style = oneOf(STYLE, p['conversation_style'], 'policy.conversation_style');
  const tone = oneOf(TONE, p['tone'], 'policy.tone');
  const { talkativeness, probing_depth } = p;
  if (
    typeof talkativeness !== 'number' ||
    !Number.isFinite(talkativeness) ||
    talkativeness < 0 ||
    talkativeness > 1
  ) {
    throw invalid('policy.talkativeness', 'must be a number from 0 to 1');
  }
  if (
    !Number.isInteger(probing_depth) ||
    (probing_depth as number) < 0 ||
    (probing_depth as number) > 3
  ) {
    throw invalid('policy.probing_depth', 'must be an integer from 0 to 3');
  }
  const brainstorm = oneOf(
    BRAINSTORM,
    p['brainstorming_preference'],
    'policy.brainstorming_preference',
  );
  const approval = oneOf(APPROVAL, p['approval_policy'], 'policy.approval_policy');
  const count = variants(policy as InteractionPolicyInput);
  return [
    style,
    tone,
    questions(probing_depth as number),
    `Offer ${count} variants when you present options.`,
    brainstorm,
    approval,
    ...(style_known ? [] : [PROBE]),
  ];
}

/**
 * Short, byte-stable directives from a user's interaction policy: style
 * and tone, how many clarifying questions to ask at most (`probing_depth`), how many variants
 * to offer (`variantCount`'s rule), when to brainstorm (`shouldBrainstorm`'s preference), the
 * approval cadence, and the one-time preference probe while the style is unknown. Each line
 * depends on one slider only; the longest rendering stays under 120 tokens (o200k).
 *
 * @example
 * ```ts
 * const section = new InteractionPolicySection();
 * section.render({ policy, style_known: true }); // policy from resolvePolicy(...)
 * // '## Interaction Policy\n\n- Style: concise. Keep replies short and to the point.\n...'
 * ```
 * @public
 */
export class InteractionPolicySection implements PromptSection<InteractionPolicyParams> {
  /** `interaction-policy`. */
  readonly key: string = 'interaction-policy';
  /** `Interaction Policy`. */
  readonly title: string = 'Interaction Policy';
  /** None. */
  readonly children: readonly PromptSection[] = Object.freeze([]);

  constructor() {
    checkSectionIdentity(this.key, this.title);
  }

  /**
   * Renders the heading and one bullet per directive.
   *
   * @throws PromptRenderError `params_missing` without params; `placeholder_invalid` naming
   *   the field (`policy.probing_depth`) for a bad slider or `style_known`; `options_invalid`
   *   for a bad depth or number
   */
  render(params?: InteractionPolicyParams, options: SectionRenderOptions = {}): string {
    const heading = renderHeading(this.key, this.title, options);
    const lines = directives(params);
    return `${heading}\n\n${lines.map((line) => `- ${line}`).join('\n')}`;
  }

  /** The section exposes no tools. */
  tools(): readonly AnyTool[] {
    return [];
  }
}

/** Every directive line, by slot, for the reviewed snapshot of the section's copy. */
export const INTERACTION_POLICY_COPY: {
  readonly style: Readonly<Record<string, string>>;
  readonly tone: Readonly<Record<string, string>>;
  readonly questions: readonly string[];
  readonly brainstorm: Readonly<Record<string, string>>;
  readonly approval: Readonly<Record<string, string>>;
  readonly probe: string;
} = Object.freeze({
  style: STYLE,
  tone: TONE,
  questions: Object.freeze([0, 1, 2, 3].map(questions)),
  brainstorm: BRAINSTORM,
  approval: APPROVAL,
  probe: PROBE,
});
