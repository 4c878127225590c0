import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPlanningController } from '../planning/planning-controller.ts';
import { initialSnapshot } from './initial-snapshot.ts';
import { applyOutcome } from './internal/apply-step.ts';
import { compiledOf } from './internal/compiled-machine.ts';
import { fastOutcome } from './internal/fast-outcome.ts';
import { normalizeEvent } from './internal/normalize-event.ts';
import type { Machine } from './machine.ts';
import type { MachineSnapshot } from './machine-snapshot.ts';
import { transition } from './transition.ts';

// Tight caps and soft limits, so the walks reach every limit the fast path must leave alone.
const machine = createPlanningController({
  caps: { turns: 6, retries: 1, wallTimeMs: 60, costUsd: 0.05, tokens: 400 },
  soft: { turns: 4, costUsd: 0.03 },
});
const compiled = compiledOf(machine, 'test');

const event = fc.record(
  {
    pick: fc.nat(6),
    dt: fc.nat(20),
    confidence: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    costUsd: fc.option(fc.constantFrom(0, 0.004, 0.01, 0.02), { nil: undefined }),
    tokens: fc.option(fc.constantFrom(0, 30, 150), { nil: undefined }),
    reason: fc.option(fc.constantFrom('ok', null), { nil: undefined }),
    tool: fc.option(fc.constant('search'), { nil: undefined }),
  },
  { requiredKeys: ['pick', 'dt'] },
);

describe('the fast path of transition', () => {
  it('gives exactly the snapshot of the general path, or leaves the step to it', () => {
    let fastSteps = 0;
    let generalSteps = 0;
    fc.assert(
      fc.property(fc.array(event, { maxLength: 25 }), (events) => {
        let snapshot: MachineSnapshot = initialSnapshot(machine, { now: 0 });
        for (const { pick, dt, ...rest } of events) {
          if (snapshot.status !== 'running' && snapshot.status !== 'waiting') break;
          const outcomes = (machine as Machine).states[snapshot.state]?.outcomes ?? [];
          const input = {
            ...rest,
            outcome: outcomes[pick % outcomes.length],
            now: snapshot.updatedAt + dt,
          };
          const fast = fastOutcome(compiled, snapshot, input);
          const normalized = normalizeEvent('transition', input, snapshot.updatedAt);
          expect(normalized.ok).toBe(true);
          if (!normalized.ok) return;
          const general = applyOutcome(compiled, snapshot, normalized, 'transition');
          if (fast !== null) {
            fastSteps += 1;
            expect(general.ok).toBe(true);
            if (general.ok) {
              expect(JSON.stringify(fast)).toBe(JSON.stringify(general.value));
              expect(fast).toStrictEqual(general.value);
            }
            expect(Object.isFrozen(fast.counters.retries) && Object.isFrozen(fast.trace)).toBe(
              true,
            );
          }
          if (fast === null && general.ok) generalSteps += 1;
          const next = transition(machine, snapshot, input as never);
          if (!next.ok) break;
          snapshot = next.value;
        }
      }),
      { numRuns: 300 },
    );
    // Both paths must really have been taken for the comparison to mean anything.
    expect(fastSteps).toBeGreaterThan(20);
    expect(generalSteps).toBeGreaterThan(20);
  });
});
