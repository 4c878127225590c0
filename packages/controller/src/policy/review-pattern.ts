import type { Result } from '@plankit/core';
import { checkOptionKeys, formatPath, isRecord } from '@plankit/core/internal-unstable';
import { ControllerError } from '../controller-error.ts';
import { controllerArgument, keyText } from '../internal/checks.ts';
import { issueRule } from '../internal/read-document.ts';
import { CANONICAL_PATTERNS, PatternSpec } from './pattern-spec.ts';

/** Options of {@link reviewPattern}: the canonical patterns and the feature flags. @public */
export interface PatternPolicy {
  /**
   * The canonical top-level patterns; by default `milestone_project`, `recurring_cycle`,
   * `progressive_accumulation_arc`, `hybrid_project_cycle` and `strategic_transformation`.
   */
  readonly canonical?: readonly string[] | undefined;
  /** Whether the agent may propose new subtypes (`true` by default). */
  readonly ALLOW_NEW_SUBTYPE_PROPOSALS?: boolean | undefined;
  /** Whether a proposed subtype needs RFC text (`true` by default). */
  readonly REQUIRE_RFC_FOR_NEW_SUBTYPE?: boolean | undefined;
}

/**
 * What the RFC flow decided. `accepted`: use the pattern. `rfc_required`: a person must approve
 * the proposal (report `needs_clarification` with the RFC text). `refused`: the proposal is not
 * allowed; use `fallback`, the nearest canonical pattern, when there is one.
 *
 * @public
 */
export interface PatternReview {
  /** The decision. */
  readonly decision: 'accepted' | 'rfc_required' | 'refused';
  /** The spec as parsed. */
  readonly pattern: PatternSpec;
  /** What is proposed: a new top-level `pattern_type` or a new `subtype`; null when accepted. */
  readonly scope: 'pattern_type' | 'subtype' | null;
  /** The RFC text to put before a person, for `rfc_required`. */
  readonly rfc_text: string | null;
  /** Why it was refused. */
  readonly reason: string | null;
  /** What to use instead of a refused proposal, or null. */
  readonly fallback: PatternSpec | null;
}

const KEYS: ReadonlySet<string> = new Set([
  'canonical',
  'ALLOW_NEW_SUBTYPE_PROPOSALS',
  'REQUIRE_RFC_FOR_NEW_SUBTYPE',
]);
const NAME = /^[a-z][a-z0-9_]{0,63}$/;

function argument(field: string, rule: string): ControllerError {
  return new ControllerError('argument_invalid', `reviewPattern: ${field} ${rule}.`, { field });
}

function review(
  decision: PatternReview['decision'],
  pattern: PatternSpec,
  rest: Partial<Omit<PatternReview, 'decision' | 'pattern'>> = {},
): PatternReview {
  return Object.freeze({
    decision,
    pattern,
    scope: rest.scope ?? null,
    rfc_text: rest.rfc_text ?? null,
    reason: rest.reason ?? null,
    fallback: rest.fallback ?? null,
  });
}

function withoutProposal(spec: PatternSpec): PatternSpec {
  const { subtype: _subtype, rfc: _rfc, ...rest } = spec;
  return Object.freeze(rest);
}

/**
 * The pattern review flow. A new top-level pattern always needs a person's approval; a
 * proposed subtype (`proposed:<name>`) is governed by `ALLOW_NEW_SUBTYPE_PROPOSALS` and
 * `REQUIRE_RFC_FOR_NEW_SUBTYPE`; a canonical pattern with an established subtype is accepted.
 *
 * @returns the review, or a {@link ControllerError} `pattern_invalid` naming the field of a
 *   spec the schema refuses
 * @throws ControllerError `argument_invalid` for bad options
 * @example
 * ```ts
 * const review = reviewPattern({
 *   pattern_type: 'recurring_cycle',
 *   subtype: 'proposed:daily_health_protocol_v2',
 *   introduced_by: 'ai_adaptation',
 *   rfc: 'Daily routines with weekly check-ins do not fit protocol_routine.',
 * });
 * // review.value.decision === 'rfc_required'
 * ```
 * @public
 */
export function reviewPattern(
  spec: unknown,
  options: PatternPolicy = {},
): Result<PatternReview, ControllerError> {
  if (!isRecord(options)) throw argument('options', 'must be an object');
  checkOptionKeys('reviewPattern', options, KEYS, 'options.', controllerArgument);
  const {
    canonical = CANONICAL_PATTERNS,
    ALLOW_NEW_SUBTYPE_PROPOSALS = true,
    REQUIRE_RFC_FOR_NEW_SUBTYPE = true,
  } = options;
  if (
    !Array.isArray(canonical) ||
    canonical.length === 0 ||
    !canonical.every((name) => typeof name === 'string' && NAME.test(name))
  ) {
    throw argument('options.canonical', 'must be a non-empty array of pattern names [a-z0-9_]');
  }
  if (typeof ALLOW_NEW_SUBTYPE_PROPOSALS !== 'boolean')
    throw argument('options.ALLOW_NEW_SUBTYPE_PROPOSALS', 'must be a boolean');
  if (typeof REQUIRE_RFC_FOR_NEW_SUBTYPE !== 'boolean')
    throw argument('options.REQUIRE_RFC_FOR_NEW_SUBTYPE', 'must be a boolean');

  const parsed = PatternSpec.safeParse(spec);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
    const field =
      key !== undefined
        ? keyText(key)
        : (issue === undefined ? '' : formatPath(issue.path, keyText)) || 'spec';
    const rule = key !== undefined ? 'is not a PatternSpec field' : issueRule(issue);
    return {
      ok: false,
      error: new ControllerError('pattern_invalid', `reviewPattern: ${field} ${rule}.`, { field }),
    };
  }
  const pattern = Object.freeze({ ...parsed.data });
  const rfc = pattern.rfc ?? null;

  if (!canonical.includes(pattern.pattern_type)) {
    const source = pattern.source_pattern ?? null;
    if (rfc === null) {
      const fallback =
        source !== null && canonical.includes(source)
          ? Object.freeze({ ...withoutProposal(pattern), pattern_type: source })
          : null;
      return {
        ok: true,
        value: review('refused', pattern, {
          scope: 'pattern_type',
          reason: `The new top-level pattern ${pattern.pattern_type} needs RFC text for a person to approve.`,
          fallback,
        }),
      };
    }
    return {
      ok: true,
      value: review('rfc_required', pattern, { scope: 'pattern_type', rfc_text: rfc }),
    };
  }

  const subtype = pattern.subtype ?? null;
  if (subtype === null || !subtype.startsWith('proposed:'))
    return { ok: true, value: review('accepted', pattern) };
  const name = subtype.slice('proposed:'.length);
  if (!ALLOW_NEW_SUBTYPE_PROPOSALS) {
    return {
      ok: true,
      value: review('refused', pattern, {
        scope: 'subtype',
        reason: `New subtypes are not allowed (ALLOW_NEW_SUBTYPE_PROPOSALS is off); ${name} was proposed.`,
        fallback: withoutProposal(pattern),
      }),
    };
  }
  if (rfc === null && REQUIRE_RFC_FOR_NEW_SUBTYPE) {
    return {
      ok: true,
      value: review('refused', pattern, {
        scope: 'subtype',
        reason: `The proposed subtype ${name} needs RFC text (REQUIRE_RFC_FOR_NEW_SUBTYPE is on).`,
        fallback: withoutProposal(pattern),
      }),
    };
  }
  const text = rfc ?? `Proposes the new subtype ${name} of ${pattern.pattern_type}.`;
  return { ok: true, value: review('rfc_required', pattern, { scope: 'subtype', rfc_text: text }) };
}
