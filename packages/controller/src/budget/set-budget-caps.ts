import type { Result } from '@plankit/core';
import type { ControllerError } from '../controller-error.ts';
import { failure } from '../engine/internal/failure.ts';
import { trust } from '../internal/trusted-snapshots.ts';
import { ensureBudget } from './budget-from-json.ts';
import {
  type Budget,
  type BudgetCapsInput,
  budgetCapsProblem,
  mergeBudgetCaps,
} from './create-budget.ts';

/**
 * Replaces some of a budget's caps: how a person lets a stopped session spend more (then
 * {@link @plankit/controller!resume} the machine with its raised `costUsd` cap). A cap set below what is already
 * spent only refuses new reservations.
 *
 * @returns the new budget, or a {@link ControllerError}: `input_invalid` naming the cap,
 *   `snapshot_invalid`
 * @example
 * ```ts
 * const raised = setBudgetCaps(budget, { costUsd: 3 });
 * ```
 * @public
 */
export function setBudgetCaps(
  budget: Budget,
  caps: BudgetCapsInput,
): Result<Budget, ControllerError> {
  const checked = ensureBudget(budget, 'setBudgetCaps');
  if (!checked.ok) return checked;
  const problem = budgetCapsProblem(caps, 'caps');
  if (problem !== null)
    return failure(
      'input_invalid',
      `setBudgetCaps: ${problem.field} ${problem.rule}.`,
      problem.field,
    );
  const prev = checked.value;
  return {
    ok: true,
    value: Object.freeze(
      trust<Budget>({
        ...prev,
        caps: mergeBudgetCaps(prev.caps, caps),
        signals: Object.freeze([]),
      }),
    ),
  };
}
