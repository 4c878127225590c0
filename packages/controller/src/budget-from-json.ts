import type { Result } from '@plankit/core';
import { deepFreeze } from '@plankit/core/internal';
import { BudgetState } from './budget-state.ts';
import type { ControllerError } from './controller-error.ts';
import type { Budget } from './create-budget.ts';
import { isRecord, show } from './internal/checks.ts';
import { zoneOf } from './internal/day-of.ts';
import { failure } from './internal/engine.ts';
import { isTrusted, trust } from './internal/trusted-snapshots.ts';

type Read = Result<Budget, ControllerError>;

function invalid(
  where: string,
  field: string,
  rule: string,
): { ok: false; error: ControllerError } {
  return failure('snapshot_invalid', `${where}: budget ${field} ${rule}.`, field);
}

/** Checks a budget (parsed or text) in full; freezes and trusts it. */
export function readBudget(input: unknown, where: string): Read {
  let data = input;
  if (typeof input === 'string') {
    try {
      data = JSON.parse(input);
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      return invalid(where, 'text', `is not valid JSON: ${reason}`);
    }
  }
  if (!isRecord(data) || data['format'] !== 'plankit.budget') {
    return invalid(where, 'format', 'must be "plankit.budget"');
  }
  if (data['version'] !== 1) {
    return failure(
      'snapshot_version_unknown',
      `${where}: budget version ${show(data['version'])} is unknown; this build reads version 1.`,
      'version',
    );
  }
  const parsed = BudgetState.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    let field = '';
    for (const part of issue?.path ?? []) {
      field +=
        typeof part === 'number' ? `[${part}]` : field === '' ? String(part) : `.${String(part)}`;
    }
    return invalid(
      where,
      field === '' ? 'value' : field,
      issue?.message.toLowerCase() ?? 'is invalid',
    );
  }
  const budget = parsed.data;
  if (zoneOf(budget.timeZone) !== budget.timeZone) {
    return invalid(
      where,
      'timeZone',
      `is ${show(budget.timeZone)}, not a canonical IANA time zone`,
    );
  }
  const ids = new Set<string>();
  for (const [index, { id }] of budget.reservations.entries()) {
    if (ids.has(id)) return invalid(where, `reservations[${index}].id`, `repeats ${show(id)}`);
    ids.add(id);
  }
  return { ok: true, value: deepFreeze(trust(budget)) };
}

/** A budget ready to use: one the package built, or one checked in full now. */
export function ensureBudget(budget: unknown, where: string): Read {
  if (isTrusted(budget) && isRecord(budget) && budget['format'] === 'plankit.budget') {
    return { ok: true, value: budget as unknown as Budget };
  }
  if (!isRecord(budget)) return invalid(where, 'value', 'must be a budget object');
  return readBudget(budget, where);
}

/**
 * Reads a budget stored as JSON (the text, or the parsed value).
 *
 * @returns the frozen budget, or a {@link ControllerError}: `snapshot_invalid` naming the
 *   field, or `snapshot_version_unknown`
 * @public
 */
export function budgetFromJSON(input: unknown): Result<Budget, ControllerError> {
  return readBudget(input, 'budgetFromJSON');
}
