import type { Result } from '@plankit/core';
import type * as z from 'zod';
import type { WorkflowError } from '../workflow-error.ts';
import { fail, isRecord, show } from './checks.ts';

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

/** An invalid stored state, naming the field and the rule. */
export function invalid(
  where: string,
  field: string,
  rule: string,
  cause?: unknown,
): Result<never, WorkflowError> {
  return fail('state_invalid', `${where}: state ${field} ${rule}.`, field, cause);
}

/**
 * Reads a stored workflow state (text or parsed): JSON, the format tag, the version, then the
 * schema. What needs the machine or several fields at once is the caller's.
 */
export function readState<T>(
  where: string,
  input: unknown,
  format: string,
  schema: z.ZodType<T>,
): Result<T, WorkflowError> {
  let data = input;
  if (typeof input === 'string') {
    try {
      data = JSON.parse(input);
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      return invalid(where, 'text', `is not valid JSON: ${reason}`, cause);
    }
  }
  if (!isRecord(data) || data['format'] !== format) {
    return invalid(where, 'format', `must be "${format}"`);
  }
  if (data['version'] !== 1) {
    return fail(
      'state_version_unknown',
      `${where}: state version ${show(data['version'])} is unknown; this build reads version 1.`,
      'version',
    );
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue === undefined ? '' : formatPath(issue.path);
    return invalid(
      where,
      field === '' ? 'value' : field,
      issue?.message.toLowerCase() ?? 'is invalid',
    );
  }
  return { ok: true, value: parsed.data };
}
