import { describe, expect, it } from 'vitest';
import { budgetFromJSON } from './budget/budget-from-json.ts';
import { createBudget } from './budget/create-budget.ts';
import { reserveBudget } from './budget/reserve-budget.ts';
import { usageCost } from './budget/usage-cost.ts';
import { classifyConfidence } from './confidence/classify-confidence.ts';
import { ControllerError } from './controller-error.ts';
import { initialSnapshot } from './engine/initial-snapshot.ts';
import { machineSnapshotFromJSON } from './engine/machine-snapshot-from-json.ts';
import { replay } from './engine/replay.ts';
import { reportCap } from './engine/report-cap.ts';
import { transition } from './engine/transition.ts';
import { createPlanningController } from './planning/planning-controller.ts';
import { resolvePolicy } from './policy/resolve-policy.ts';
import { reviewPattern } from './policy/review-pattern.ts';
import { formalizing } from './workflows/testing/workshop-steps.ts';
import { workshopRound } from './workflows/workshop/workshop-round.ts';

const planningMachine = createPlanningController();

// A key of 1 MiB with newlines and a lone surrogate: what a model's tool call can hold.
const KEY = `k\n\ud800${'x'.repeat(1 << 20)}`;
const withKey = (value: object): never => ({ ...value, [KEY]: 1 }) as never;

function refusalOf(run: () => unknown): ControllerError | { message: string; field?: unknown } {
  try {
    const result = run() as { ok: boolean; error?: ControllerError };
    if (result.ok !== false || result.error === undefined) throw new Error('expected a refusal');
    return result.error;
  } catch (error) {
    if (ControllerError.isInstance(error)) return error;
    throw error;
  }
}

describe('an unknown key of any length or content', () => {
  const snapshot = initialSnapshot(planningMachine, { now: 0 });
  const stored = JSON.parse(JSON.stringify(snapshot));
  const cases: [string, () => unknown][] = [
    ['transition', () => transition(planningMachine, snapshot, withKey({ outcome: 'x', now: 1 }))],
    [
      'transition tool',
      () =>
        transition(planningMachine, snapshot, {
          outcome: 'sufficient_context',
          now: 1,
          tool: withKey({ name: 'probe' }),
        }),
    ],
    ['reportCap', () => reportCap(planningMachine, snapshot, withKey({ cap: 'turns', now: 1 }))],
    [
      'machineSnapshotFromJSON',
      () =>
        machineSnapshotFromJSON(planningMachine, {
          ...stored,
          counters: { ...stored.counters, retries: withKey({}) },
        }),
    ],
    ['replay', () => replay(planningMachine, [withKey({})], { now: 0 })],
    ['usageCost', () => usageCost({}, withKey({ model: 'm', inputTokens: 1, outputTokens: 1 }))],
    [
      'reserveBudget',
      () => reserveBudget(createBudget({ now: 0 }), withKey({ id: 'a', usd: 1, now: 1 })),
    ],
    [
      'budgetFromJSON',
      () => budgetFromJSON(withKey(JSON.parse(JSON.stringify(createBudget({ now: 0 }))))),
    ],
    ['resolvePolicy', () => resolvePolicy({ override: withKey({}) })],
    ['reviewPattern', () => reviewPattern(withKey({ pattern_type: 'x', introduced_by: 'system' }))],
    ['classifyConfidence', () => classifyConfidence(0.5, withKey({ continue: 0.7, retry: 0.4 }))],
    ['workshopRound', () => workshopRound(formalizing(), withKey({ now: 10, entries: [] }))],
  ];

  it.each(cases)('%s: is refused on one short line, the key quoted and clipped', (_, run) => {
    const error = refusalOf(run);
    expect(error.message.length).toBeLessThan(2000);
    expect(error.message).not.toMatch(/[\n\ud800]/);
    expect(String(error.field).length).toBeLessThan(200);
  });
});
