import { invalidArgument } from '../internal/invalid-argument.ts';

/**
 * How many steps may be `in_progress` at once: `'any'` (the reference behaviour) or
 * `'single'` (a second one is refused).
 *
 * @public
 */
export type InProgressMode = 'any' | 'single';

/** The modes of {@link InProgressMode}. @public */
export const IN_PROGRESS_MODES: readonly ['any', 'single'] = ['any', 'single'];

const SINGLE_RULE = 'Keep at most one step in_progress at a time.';

/**
 * The rule a mode imposes, as one sentence for prompts and error messages, or `null` when
 * the mode imposes none. The validator uses the same text, so the prompt and the code agree.
 *
 * @public
 */
export function inProgressRule(mode: InProgressMode): string | null {
  switch (mode) {
    case 'any':
      return null;
    case 'single':
      return SINGLE_RULE;
    default: {
      const unknown: never = mode;
      throw invalidArgument(
        'inProgressRule',
        'mode',
        `must be one of any, single; got ${String(unknown)}`,
      );
    }
  }
}
