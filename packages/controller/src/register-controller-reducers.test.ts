import {
  createPlanningTools,
  invokeTool,
  Plan,
  Session,
  selectLatest,
  snapshotFromJSON,
  snapshotToJSON,
} from '@plankit/core';
import { describe, expect, it } from 'vitest';
import { BudgetState } from './budget/budget-state.ts';
import { createBudget } from './budget/create-budget.ts';
import { registerBudgetReducers } from './budget/register-budget-reducers.ts';
import { reserveBudget } from './budget/reserve-budget.ts';
import { ControllerSnapshot } from './engine/controller-snapshot.ts';
import { initialSnapshot } from './engine/initial-snapshot.ts';
import { transition } from './engine/transition.ts';
import { createPlanningController } from './planning/planning-controller.ts';
import { registerControllerReducers } from './register-controller-reducers.ts';

const planningMachine = createPlanningController();

describe('registerControllerReducers', () => {
  it('keeps the plan, the controller and the budget in one session snapshot that reads back', async () => {
    const session = new Session({ sessionId: 'plan-1', clock: () => 0 });
    const { planning_setup_plan: setup } = createPlanningTools(session);
    registerControllerReducers(session);
    registerControllerReducers(session);
    registerBudgetReducers(session);
    await invokeTool(
      setup,
      { objective: 'Launch v2', initial_steps: [{ title: 'Draft' }] },
      { session },
    );
    const step = transition(planningMachine, initialSnapshot(planningMachine, { now: 0 }), {
      outcome: 'sufficient_context',
      now: 5,
    });
    const held = reserveBudget(createBudget({ now: 0 }), { id: 'call-1', usd: 0.2, now: 5 });
    if (!step.ok || !held.ok) throw new Error('setup failed');
    session.dispatch(ControllerSnapshot, step.value);
    session.dispatch(BudgetState, held.value);

    const stored = JSON.stringify(snapshotToJSON(session.snapshot()));
    const other = new Session({ sessionId: 'plan-1' });
    createPlanningTools(other);
    registerControllerReducers(other);
    registerBudgetReducers(other);
    const read = snapshotFromJSON(stored, other);
    if (!read.ok) throw read.error;
    expect(other.rollback(read.value).ok).toBe(true);
    expect(selectLatest(other, Plan)?.objective).toBe('Launch v2');
    expect(selectLatest(other, ControllerSnapshot)).toEqual(step.value);
    expect(selectLatest(other, BudgetState)).toEqual(held.value);
    // The restored controller snapshot keeps working in this process.
    const restored = selectLatest(other, ControllerSnapshot);
    if (restored === undefined) throw new Error('no controller snapshot');
    const next = transition(planningMachine, restored as typeof step.value, {
      outcome: 'success',
      now: 6,
    });
    expect(next.ok && next.value.state).toBe('VALIDATE_OUTLINE');
  });

  it('refuses a malformed controller slice when the session is read back', () => {
    const session = new Session({ sessionId: 's' });
    registerControllerReducers(session);
    const json = snapshotToJSON(session.snapshot());
    const bad = {
      ...json,
      slices: { 'plankit.controller.MachineSnapshot': [{ format: 'plankit.machine-snapshot' }] },
    };
    const read = snapshotFromJSON(bad, session);
    expect(read.ok).toBe(false);
  });

  it('registers only the controller slice: a budget needs registerBudgetReducers', () => {
    const session = new Session({ sessionId: 's', clock: () => 0 });
    registerControllerReducers(session);
    // An unregistered data type has no reducer: the dispatch stores nothing.
    session.dispatch(BudgetState, createBudget({ now: 0 }));
    expect(selectLatest(session, BudgetState)).toBeUndefined();
    registerBudgetReducers(session);
    registerBudgetReducers(session);
    const budget = createBudget({ now: 1 });
    expect(session.dispatch(BudgetState, budget).ok).toBe(true);
    expect(selectLatest(session, BudgetState)).toEqual(budget);

    // A session that holds a budget does not read back without the budget's reducer.
    const stored = JSON.stringify(snapshotToJSON(session.snapshot()));
    const other = new Session({ sessionId: 's' });
    registerControllerReducers(other);
    const read = snapshotFromJSON(stored, other);
    expect(!read.ok && read.error.code).toBe('slice_unregistered');
  });

  it('refuses a value that is not a Session', () => {
    expect(() => registerControllerReducers({} as never)).toThrow(/must be a Session/);
    expect(() => registerBudgetReducers({} as never)).toThrow(
      /registerBudgetReducers: session must be a Session/,
    );
  });
});
