import type { Result } from '@plankit/core';
import type * as z from 'zod';
import { readDocument } from '../../internal/read-document.ts';
import type { WorkflowError } from '../workflow-error.ts';
import { fail, show } from './checks.ts';

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
  const read = readDocument(input, format, 1, schema);
  if (read.ok) return read;
  const { problem } = read;
  if (problem.kind === 'invalid') return invalid(where, problem.field, problem.rule, problem.cause);
  return fail(
    'state_version_unknown',
    `${where}: state version ${show(problem.found)} is unknown; this build reads version 1.`,
    'version',
  );
}
