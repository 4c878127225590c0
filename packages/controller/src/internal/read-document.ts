import {
  clipText,
  escapeControl,
  formatPath,
  isRecord,
  unstorableText,
} from '@plankit/core/internal-unstable';
import type * as z from 'zod';
import { keyText } from './checks.ts';

/**
 * A zod issue's message as a refusal's rule (lower case unless `lower` is false): on one line,
 * clipped, lone surrogates replaced, since it may quote keys of any length from the input.
 */
export function issueRule(issue: { readonly message: string } | undefined, lower = true): string {
  if (issue === undefined) return 'is invalid';
  const text = clipText(lower ? issue.message.toLowerCase() : issue.message, 300);
  return escapeControl(text).replace(/\p{Cs}/gu, '\ufffd');
}

/**
 * Why a stored document was refused, for the caller to word as its own error: a field and the
 * rule it broke, or a version this build does not read.
 */
export type DocumentProblem =
  | {
      readonly kind: 'invalid';
      readonly field: string;
      readonly rule: string;
      readonly cause?: unknown;
    }
  | { readonly kind: 'version'; readonly found: unknown };

/**
 * Reads a stored document (text or parsed) the one way every controller format is read: JSON,
 * the format tag, the version, then the schema. What needs more context is the caller's.
 */
export function readDocument<T>(
  input: unknown,
  format: string,
  version: number,
  schema: z.ZodType<T>,
):
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problem: DocumentProblem } {
  let data = input;
  if (typeof input === 'string') {
    try {
      data = JSON.parse(input);
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      return {
        ok: false,
        problem: { kind: 'invalid', field: 'text', rule: `is not valid JSON: ${reason}`, cause },
      };
    }
  }
  if (!isRecord(data) || data['format'] !== format) {
    return {
      ok: false,
      problem: { kind: 'invalid', field: 'format', rule: `must be "${format}"` },
    };
  }
  if (data['version'] !== version)
    return { ok: false, problem: { kind: 'version', found: data['version'] } };
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue === undefined ? '' : formatPath(issue.path, keyText);
    const rule = issueRule(issue);
    return { ok: false, problem: { kind: 'invalid', field: field === '' ? 'value' : field, rule } };
  }
  // Text JSON.parse accepts (a \u0000 or lone \ud800 escape) that no store can hold.
  const unstorable = unstorableText(parsed.data, '');
  if (unstorable !== undefined) {
    const rule = `${unstorable.rule}, so no store could hold it`;
    return { ok: false, problem: { kind: 'invalid', field: unstorable.path || 'value', rule } };
  }
  return { ok: true, value: parsed.data };
}
