import { isRecord } from '@plankit/core/internal-unstable';
import { ControllerError } from '../controller-error.ts';
import { isUnit, show, unknownKey } from '../internal/checks.ts';

/** The three scores a composite combines, each in [0, 1]; leave out what a stage lacks. @public */
export interface ConfidenceScores {
  /** The model's self-score. */
  readonly llm?: number | undefined;
  /** The rule validator's score. */
  readonly rules?: number | undefined;
  /** The heuristics' score. */
  readonly heuristics?: number | undefined;
}

/** Relative weights of the scores: finite, >= 0. @public */
export interface ConfidenceWeights {
  /** Weight of the model's self-score. */
  readonly llm: number;
  /** Weight of the rule validator's score. */
  readonly rules: number;
  /** Weight of the heuristics' score. */
  readonly heuristics: number;
}

/** The default weights: `C = 0.50 * llm + 0.30 * rules + 0.20 * heuristics`. @public */
export const DEFAULT_CONFIDENCE_WEIGHTS: ConfidenceWeights = Object.freeze({
  llm: 0.5,
  rules: 0.3,
  heuristics: 0.2,
});

const COMPONENTS = ['llm', 'rules', 'heuristics'] as const;
const KEYS: ReadonlySet<string> = new Set(COMPONENTS);

function argument(field: string, rule: string): ControllerError {
  return new ControllerError('argument_invalid', `compositeConfidence: ${field} ${rule}.`, {
    field,
  });
}

/**
 * A stage's composite confidence: the weighted mean of the scores given (
 * `0.5 * llm + 0.3 * rules + 0.2 * heuristics` by default). A score left out drops out and the
 * other weights are renormalised. Rounded to 12 decimal places, so float noise cannot move a
 * score across a threshold.
 *
 * @throws ControllerError `argument_invalid` naming the field: no score, a score outside
 *   [0, 1], a negative or non-finite weight, unknown keys, weights of the given scores summing
 *   to 0
 * @example
 * ```ts
 * compositeConfidence({ llm: 0.9, rules: 0.6, heuristics: 0.5 }); // 0.73
 * classifyConfidence(0.73); // 'continue'
 * ```
 * @public
 */
export function compositeConfidence(
  scores: ConfidenceScores,
  weights: ConfidenceWeights = DEFAULT_CONFIDENCE_WEIGHTS,
): number {
  if (!isRecord(scores)) throw argument('scores', 'must be an object');
  if (!isRecord(weights)) throw argument('weights', 'must be an object');
  const extraScore = unknownKey(scores, KEYS);
  if (extraScore !== undefined) throw argument(`scores.${extraScore}`, 'is not a score');
  const extraWeight = unknownKey(weights, KEYS);
  if (extraWeight !== undefined) throw argument(`weights.${extraWeight}`, 'is not a weight');
  let given = 0;
  let largest = 0;
  for (const name of COMPONENTS) {
    const weight = weights[name];
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
      throw argument(`weights.${name}`, `must be a finite number >= 0, got ${show(weight)}`);
    }
    const score = scores[name];
    if (score === undefined) continue;
    if (!isUnit(score))
      throw argument(`scores.${name}`, `must be a number from 0 to 1, got ${show(score)}`);
    given++;
    largest = Math.max(largest, weight);
  }
  if (given === 0) throw argument('scores', 'must give at least one of llm, rules, heuristics');
  if (largest === 0) throw argument('weights', 'of the scores given must not all be 0');
  // Weights relative to the largest: huge ones cannot overflow, tiny ones cannot underflow.
  let sum = 0;
  let total = 0;
  for (const name of COMPONENTS) {
    const score = scores[name];
    if (score === undefined) continue;
    const weight = (weights[name] as number) / largest;
    sum += weight * score;
    total += weight;
  }
  return Math.round((sum / total) * 1e12) / 1e12;
}
