import { isRecord } from '@plankit/core/internal-unstable';
import {
  type ConfidenceThresholds,
  classifyConfidence,
  DEFAULT_CONFIDENCE_THRESHOLDS,
} from '../confidence/classify-confidence.ts';
import { ControllerError } from '../controller-error.ts';
import { unknownKey } from '../internal/checks.ts';
import type { InteractionPolicy } from './interaction-policy.ts';
import { checkPolicy } from './resolve-policy.ts';

/** What {@link shouldBrainstorm} looks at besides the policy. @public */
export interface BrainstormContext {
  /** The stage's confidence, from 0 to 1. */
  readonly confidence: number;
  /** The user asked for ideas. */
  readonly requested?: boolean | undefined;
  /** The bands that make a confidence borderline (`retry`). */
  readonly thresholds?: ConfidenceThresholds | undefined;
}

const KEYS: ReadonlySet<string> = new Set(['confidence', 'requested', 'thresholds']);

/**
 * Whether to offer a brainstorming burst: `always_offer` always,
 * `on_demand` only when requested, `suggest_when_uncertain` when requested or when the
 * confidence is borderline (classified `retry`).
 *
 * @throws ControllerError `argument_invalid` for an invalid policy, confidence or thresholds
 * @public
 */
export function shouldBrainstorm(policy: InteractionPolicy, context: BrainstormContext): boolean {
  const { brainstorming_preference } = checkPolicy('shouldBrainstorm', policy);
  const fail = (field: string, rule: string) =>
    new ControllerError('argument_invalid', `shouldBrainstorm: ${field} ${rule}.`, { field });
  if (!isRecord(context)) throw fail('context', 'must be an object');
  const extra = unknownKey(context, KEYS);
  if (extra !== undefined) throw fail(`context.${extra}`, 'is not a key');
  const { confidence, requested = false, thresholds = DEFAULT_CONFIDENCE_THRESHOLDS } = context;
  if (typeof requested !== 'boolean') throw fail('context.requested', 'must be a boolean');
  const band = classifyConfidence(confidence, thresholds);
  switch (brainstorming_preference) {
    case 'always_offer':
      return true;
    case 'on_demand':
      return requested;
    case 'suggest_when_uncertain':
      return requested || band === 'retry';
    default: {
      const never: never = brainstorming_preference;
      return never;
    }
  }
}
