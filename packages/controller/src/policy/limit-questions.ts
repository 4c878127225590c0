import { ControllerError } from '../controller-error.ts';
import type { InteractionPolicy } from './interaction-policy.ts';
import { checkPolicy } from './resolve-policy.ts';

/**
 * The questions to ask now: the first `probing_depth` of them (the context-gathering
 * rule).
 *
 * @throws ControllerError `argument_invalid` for an invalid policy or a non-array
 * @example
 * ```ts
 * limitQuestions(policy, ['Deadline?', 'Budget?', 'Team size?']); // the first 2 with probing_depth 2
 * ```
 * @public
 */
export function limitQuestions<T>(
  policy: InteractionPolicy,
  questions: readonly T[],
): readonly T[] {
  const { probing_depth } = checkPolicy('limitQuestions', policy);
  if (!Array.isArray(questions)) {
    throw new ControllerError('argument_invalid', 'limitQuestions: questions must be an array.', {
      field: 'questions',
    });
  }
  return Object.freeze(questions.slice(0, probing_depth));
}
