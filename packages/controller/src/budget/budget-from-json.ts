import type { Result } from '@plankit/core';
import { deepFreeze, isRecord } from '@plankit/core/internal-unstable';
import type { ControllerError } from '../controller-error.ts';
import { failure } from '../engine/internal/failure.ts';
import { show } from '../internal/checks.ts';
import { zoneOf } from '../internal/day-of.ts';
import { readDocument } from '../internal/read-document.ts';
import { isTrusted, trust } from '../internal/trusted-snapshots.ts';
import { BUDGET_VERSION, BudgetState, upgradeBudget } from './budget-state.ts';
import type { Budget } from './create-budget.ts';

type Read = Result<Budget, ControllerError>;

// Text is parsed here only to upgrade a version-1 budget; readDocument reports bad JSON.
function parsedOrText(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

function invalid(
  where: string,
  field: string,
  rule: string,
): { ok: false; error: ControllerError } {
  return failure('snapshot_invalid', `${where}: budget ${field} ${rule}.`, field);
}

/** Checks a budget (parsed or text) in full; freezes and trusts it. */
export function readBudget(input: unknown, where: string): Read {
  const read = readDocument(
    upgradeBudget(parsedOrText(input)),
    'plankit.budget',
    BUDGET_VERSION,
    BudgetState,
  );
  if (!read.ok) {
    const { problem } = read;
    if (problem.kind === 'invalid') return invalid(where, problem.field, problem.rule);
    return failure(
      'snapshot_version_unknown',
      `${where}: budget version ${show(problem.found)} is unknown; this build reads versions 1 and 2.`,
      'version',
    );
  }
  const budget = read.value;
  if (zoneOf(budget.timeZone) !== budget.timeZone) {
    return invalid(
      where,
      'timeZone',
      `is ${show(budget.timeZone)}, not a canonical IANA time zone`,
    );
  }
  const ids = new Set<string>();
  let last = Number.NEGATIVE_INFINITY;
  for (const [index, { id, at }] of budget.reservations.entries()) {
    if (ids.has(id)) return invalid(where, `reservations[${index}].id`, `repeats ${show(id)}`);
    ids.add(id);
    // Reservations are appended at the budget's time, which never runs backwards.
    if (at < last || at > budget.updatedAt) {
      return invalid(
        where,
        `reservations[${index}].at`,
        'must not be earlier than the reservation before it or later than updatedAt',
      );
    }
    last = at;
  }
  const { turn, session, reservations } = budget;
  if (turn.key === null && (reservations.length > 0 || turn.spentUsd > 0 || session.spentUsd > 0)) {
    return invalid(where, 'turn.key', 'must be set once anything was reserved');
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
