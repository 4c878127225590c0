import { isRecord } from '@plankit/core/internal-unstable';
import { ControllerError } from '../controller-error.ts';
import { isUnit, show, unknownKey } from '../internal/checks.ts';

/** What to do with a stage's result. @public */
export type ConfidenceClass = 'continue' | 'retry' | 'escalate';

/** The lower bounds of `continue` and `retry`. @public */
export interface ConfidenceThresholds {
  /** At or above: continue. */
  readonly continue: number;
  /** At or above (and below `continue`): retry; below: escalate. */
  readonly retry: number;
}

/** The default thresholds: continue >= 0.70, retry 0.40-0.69, escalate < 0.40. @public */
export const DEFAULT_CONFIDENCE_THRESHOLDS: ConfidenceThresholds = Object.freeze({
  continue: 0.7,
  retry: 0.4,
});

const KEYS: ReadonlySet<string> = new Set(['continue', 'retry']);

/** Checks thresholds; the error to throw, or null. */
export function thresholdsProblem(where: string, thresholds: unknown): ControllerError | null {
  const fail = (field: string, rule: string) =>
    new ControllerError('argument_invalid', `${where}: ${field} ${rule}.`, { field });
  if (!isRecord(thresholds)) return fail('thresholds', 'must be an object');
  const extra = unknownKey(thresholds, KEYS);
  if (extra !== undefined) return fail(`thresholds.${extra}`, 'is not a threshold');
  const { continue: go, retry } = thresholds;
  if (!isUnit(go))
    return fail('thresholds.continue', `must be a number from 0 to 1, got ${show(go)}`);
  if (!isUnit(retry))
    return fail('thresholds.retry', `must be a number from 0 to 1, got ${show(retry)}`);
  if (retry > go) return fail('thresholds.retry', 'must not be above thresholds.continue');
  return null;
}

/**
 * Classifies a confidence: `continue` at or above `thresholds.continue` (0.70), `retry` at or
 * above `thresholds.retry` (0.40), `escalate` below.
 *
 * @throws ControllerError `argument_invalid` for a confidence outside [0, 1] or thresholds
 *   that are not `0 <= retry <= continue <= 1`
 * @example
 * ```ts
 * classifyConfidence(0.7); // 'continue'
 * classifyConfidence(0.69); // 'retry'
 * classifyConfidence(0.39); // 'escalate'
 * ```
 * @public
 */
export function classifyConfidence(
  confidence: number,
  thresholds: ConfidenceThresholds = DEFAULT_CONFIDENCE_THRESHOLDS,
): ConfidenceClass {
  const problem = thresholdsProblem('classifyConfidence', thresholds);
  if (problem !== null) throw problem;
  if (!isUnit(confidence)) {
    throw new ControllerError(
      'argument_invalid',
      `classifyConfidence: confidence must be a number from 0 to 1, got ${show(confidence)}.`,
      { field: 'confidence' },
    );
  }
  if (confidence >= thresholds.continue) return 'continue';
  return confidence >= thresholds.retry ? 'retry' : 'escalate';
}
