import { checkOptionKeys } from '../internal/check-option-keys.ts';
import { invalidArgument } from '../internal/invalid-argument.ts';
import { checkTextMode, type TextMode } from '../planning/text-mode.ts';

/** Options of the "in" converters (`fromCodexPlan`, `fromLangChainTodos`, ...). @public */
export interface InteropOptions {
  /**
   * The text mode of the tools the calls will run through, as given to
   * `createPlanningTools`: `'ascii'` (the default) or `'unicode'`. Under `'unicode'` items
   * are matched to steps on their NFC form, as the tools store it.
   */
  readonly text?: TextMode | undefined;
  /**
   * The objective of a plan the write starts (when there is no plan, the plan was cleared, or
   * no item matches a step); the current objective, else `'Plan'`, by default. Foreign lists
   * carry no objective.
   */
  readonly objective?: string | undefined;
}

const OPTION_KEYS: ReadonlySet<string> = new Set(['text', 'objective']);

/** The checked options: the text mode and the objective, if one was given. @internal */
export interface CheckedInteropOptions {
  readonly text: TextMode;
  readonly objective: string | undefined;
}

/** Checks `options` for the converter `where`; a programmer error for a bad one. @internal */
export function checkInteropOptions(where: string, options: unknown): CheckedInteropOptions {
  if (typeof options !== 'object' || options === null)
    throw invalidArgument(where, 'options', 'must be an object');
  checkOptionKeys(where, options, OPTION_KEYS);
  const { text, objective } = options as InteropOptions;
  if (objective !== undefined && typeof objective !== 'string')
    throw invalidArgument(where, 'options.objective', 'must be a string');
  return {
    text: text === undefined ? 'ascii' : checkTextMode(text, where, 'options.text'),
    objective,
  };
}
