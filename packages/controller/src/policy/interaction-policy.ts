import { defineDataType } from '@plankit/core';
import * as z from 'zod';

/**
 * A user's interaction style (a set of sliders), used to gate questions, variants,
 * approvals and brainstorming. Keys are snake_case, as stored.
 *
 * @public
 */
export interface InteractionPolicy {
  /** How the agent talks. */
  readonly conversation_style: 'concise' | 'standard' | 'conversational' | 'coach';
  /** How much it says, from 0 to 1. */
  readonly talkativeness: number;
  /** How much it decides alone. */
  readonly autonomy: 'high' | 'medium' | 'low';
  /** When it offers brainstorming. */
  readonly brainstorming_preference: 'on_demand' | 'suggest_when_uncertain' | 'always_offer';
  /** How often it asks for approval. */
  readonly approval_policy: 'single_final' | 'milestone_approvals' | 'strict_every_step';
  /** The most clarifying questions at a time, 0 to 3. */
  readonly probing_depth: number;
  /** The tone of its messages. */
  readonly tone: 'neutral' | 'friendly' | 'clinical';
}

/**
 * The library's defaults: `standard`, 0.5, `medium`,
 * `suggest_when_uncertain`, `single_final`, 2, `neutral`.
 *
 * @public
 */
export const DEFAULT_INTERACTION_POLICY: InteractionPolicy = Object.freeze({
  conversation_style: 'standard',
  talkativeness: 0.5,
  autonomy: 'medium',
  brainstorming_preference: 'suggest_when_uncertain',
  approval_policy: 'single_final',
  probing_depth: 2,
  tone: 'neutral',
});

/** The sliders, without defaults: every layer of a policy is checked with these. */
export const POLICY_FIELDS: {
  readonly conversation_style: z.ZodType<InteractionPolicy['conversation_style']>;
  readonly talkativeness: z.ZodNumber;
  readonly autonomy: z.ZodType<InteractionPolicy['autonomy']>;
  readonly brainstorming_preference: z.ZodType<InteractionPolicy['brainstorming_preference']>;
  readonly approval_policy: z.ZodType<InteractionPolicy['approval_policy']>;
  readonly probing_depth: z.ZodNumber;
  readonly tone: z.ZodType<InteractionPolicy['tone']>;
} = {
  conversation_style: z.enum(['concise', 'standard', 'conversational', 'coach']),
  talkativeness: z.number().min(0).max(1),
  autonomy: z.enum(['high', 'medium', 'low']),
  brainstorming_preference: z.enum(['on_demand', 'suggest_when_uncertain', 'always_offer']),
  approval_policy: z.enum(['single_final', 'milestone_approvals', 'strict_every_step']),
  probing_depth: z.number().int().min(0).max(3),
  tone: z.enum(['neutral', 'friendly', 'clinical']),
};

const D = DEFAULT_INTERACTION_POLICY;

/**
 * The policy's zod schema and core data type (`plankit.controller.InteractionPolicy`): parsing
 * fills the missing sliders with the library's defaults and refuses unknown keys.
 *
 * @public
 */
export const InteractionPolicy: z.ZodType<InteractionPolicy, unknown> = defineDataType(
  'plankit.controller.InteractionPolicy',
  z.strictObject({
    conversation_style: POLICY_FIELDS.conversation_style.default(D.conversation_style),
    talkativeness: POLICY_FIELDS.talkativeness.default(D.talkativeness),
    autonomy: POLICY_FIELDS.autonomy.default(D.autonomy),
    brainstorming_preference: POLICY_FIELDS.brainstorming_preference.default(
      D.brainstorming_preference,
    ),
    approval_policy: POLICY_FIELDS.approval_policy.default(D.approval_policy),
    probing_depth: POLICY_FIELDS.probing_depth.default(D.probing_depth),
    tone: POLICY_FIELDS.tone.default(D.tone),
  }),
);
