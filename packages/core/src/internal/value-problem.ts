import type { DataType } from '../define-data-type.ts';
import { formatPath } from './format-path.ts';
import { clipText } from './refusal-text.ts';
import { storableProblem } from './storable-problem.ts';
/** What a value check found: the parsed value, or the field and the rest of a sentence. */
export type ValueCheck =
  | { readonly data: unknown }
  | { readonly field: string; readonly message: string };

/**
 * `value` parsed by `dataType` and checked storable, or why not as the end of a sentence
 * (`does not match its schema at id: ...`, `cannot be stored: text must not contain U+0000.`).
 * Shared by dispatch, rollback and `snapshotFromJSON`, so all three apply one rule.
 */
export function valueProblem(dataType: DataType, value: unknown): ValueCheck {
  let parsed: ReturnType<DataType['safeParse']>;
  try {
    parsed = dataType.safeParse(value);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return { field: '', message: `could not be checked against its schema: ${reason}` };
  }
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue === undefined ? '' : formatPath(issue.path);
    const where = field === '' ? '' : ` at ${field}`;
    return {
      field,
      message: `does not match its schema${where}: ${clipText(issue?.message ?? 'invalid', 200)}.`,
    };
  }
  const problem = storableProblem(parsed.data);
  if (problem !== undefined) {
    const what = problem.path === '' ? 'it' : problem.path;
    return { field: problem.path, message: `cannot be stored: ${what} ${problem.rule}.` };
  }
  return { data: parsed.data };
}
