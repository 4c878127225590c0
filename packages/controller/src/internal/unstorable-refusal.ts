import { clipText, refusalText, unstorableText } from '@plankit/core/internal-unstable';

/** A refusal of unstorable text: the message and the field it names (its path, clipped). */
export interface UnstorableRefusal {
  readonly message: string;
  readonly field: string;
}

/**
 * The `input_invalid` refusal for text in `value` that no store can hold (core's
 * `unstorableText`), naming its path under `root`:
 * `${where}: <path> <rule>, so no store could hold it.`. Undefined when all of it is storable.
 * The engine and the workflows wrap it in their own error.
 */
export function unstorableRefusal(
  where: string,
  value: unknown,
  root: string,
): UnstorableRefusal | undefined {
  const problem = unstorableText(value, root);
  if (problem === undefined) return undefined;
  const field = clipText(problem.path, 400);
  return {
    message: refusalText(`${where}: ${field} ${problem.rule}, so no store could hold it.`),
    field,
  };
}
