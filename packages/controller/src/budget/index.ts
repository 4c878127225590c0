/**
 * The budget manager: reserve before a model call, settle after it, in integer micro-dollars,
 * with session, day and turn caps, a price table of your own, and a data type for keeping the
 * budget in a core `Session`. Its own entry, so an app that does not count money does not
 * bundle it; errors are the root's `ControllerError`.
 *
 * @packageDocumentation
 * @module @plankit/controller/budget
 */

export { budgetFromJSON } from './budget-from-json.ts';
export { BudgetState } from './budget-state.ts';
export {
  type Budget,
  type BudgetCapName,
  type BudgetCaps,
  type BudgetCapsInput,
  type BudgetOptions,
  type BudgetSignal,
  createBudget,
  type OverrunSignal,
  type Reservation,
  type TurnCeilingSignal,
} from './create-budget.ts';
export { registerBudgetReducers } from './register-budget-reducers.ts';
export { type ReserveInput, reserveBudget } from './reserve-budget.ts';
export { setBudgetCaps } from './set-budget-caps.ts';
export { type SettleInput, settleBudget } from './settle-budget.ts';
export { type ModelPrice, type PriceTable, type TokenUsage, usageCost } from './usage-cost.ts';
