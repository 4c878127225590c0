import { defineDataType } from '@plankit/core';
import * as z from 'zod';
import type { IntroducedBy } from '../engine/adaptation-log-entry.ts';

/**
 * A plan's pattern: the canonical top-level type, an optional
 * subtype (`proposed:<name>` when the agent proposes a new one), and the RFC rationale.
 * Optional fields may also be null, as a Pydantic model sends them.
 *
 * @public
 */
export interface PatternSpec {
  /** The top-level pattern; one of the canonical patterns unless a new one is proposed. */
  readonly pattern_type: string;
  /** A subtype, or `proposed:<name>` for a proposed one. */
  readonly subtype?: string | null | undefined;
  /** A variant of the subtype. */
  readonly variant?: string | null | undefined;
  /** The agent's confidence in the choice, from 0 to 1. */
  readonly confidence?: number | null | undefined;
  /** Who chose it. */
  readonly introduced_by: IntroducedBy;
  /** The nearest canonical pattern, for audits when proposing. */
  readonly source_pattern?: string | null | undefined;
  /** A short rationale when proposing a subtype or pattern. */
  readonly rfc?: string | null | undefined;
}

/** The five default canonical top-level patterns. @public */
export const CANONICAL_PATTERNS: readonly string[] = Object.freeze([
  'milestone_project',
  'recurring_cycle',
  'progressive_accumulation_arc',
  'hybrid_project_cycle',
  'strategic_transformation',
]);

const patternName = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,63}$/, 'must be 1-64 characters [a-z0-9_] starting with a letter');
const subtypeName = z
  .string()
  .regex(/^(proposed:)?[a-z][a-z0-9_]{0,63}$/, 'must be a name [a-z0-9_], or proposed:<name>');

/**
 * The schema and core data type (`plankit.controller.PatternSpec`) of {@link PatternSpec}.
 *
 * @public
 */
export const PatternSpec: z.ZodType<PatternSpec, unknown> = defineDataType(
  'plankit.controller.PatternSpec',
  z.strictObject({
    pattern_type: patternName,
    subtype: subtypeName.nullable().optional(),
    variant: z.string().min(1).max(64).nullable().optional(),
    confidence: z.number().min(0).max(1).nullable().optional(),
    introduced_by: z.enum(['system', 'user_feedback', 'ai_adaptation']),
    source_pattern: patternName.nullable().optional(),
    rfc: z.string().min(1).max(2000).nullable().optional(),
  }),
);
