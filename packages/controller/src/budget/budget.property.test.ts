import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ControllerError } from '../controller-error.ts';
import { budgetFromJSON } from './budget-from-json.ts';
import { type Budget, createBudget } from './create-budget.ts';
import { reserveBudget } from './reserve-budget.ts';
import { settleBudget } from './settle-budget.ts';

type Command =
  | {
      readonly kind: 'reserve';
      readonly id: number;
      readonly usd: number;
      readonly tokens: number;
      readonly turn: number;
      readonly dt: number;
    }
  | { readonly kind: 'settle'; readonly pick: number; readonly share: number; readonly dt: number };

// Mostly fresh ids; now and then one still held, which must be refused as a duplicate.
const ids = fc.oneof(
  { arbitrary: fc.nat(100_000), weight: 9 },
  { arbitrary: fc.nat(3), weight: 1 },
);
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('reserve' as const),
      id: ids,
      usd: fc.oneof(
        fc.double({ min: 0, max: 0.8, noNaN: true }),
        fc.constantFrom(0, 0.1, 0.3, 0.5),
      ),
      tokens: fc.nat(400),
      turn: fc.nat(3),
      dt: fc.oneof(
        { arbitrary: fc.nat(60_000), weight: 4 },
        { arbitrary: fc.constant(6 * 3600 * 1000), weight: 1 },
      ),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('settle' as const),
      pick: fc.nat(20),
      share: fc.double({ min: 0, max: 1, noNaN: true }),
      dt: fc.nat(60_000),
    }),
    weight: 2,
  },
);

const micros = (usd: number) => Math.round(usd * 1e6);
const stats = { refusedSession: 0, refusedDay: 0, refusedTokens: 0, settled: 0, rolledDays: 0 };

// Reserves and settles interleaved in any order (settling at most what was reserved, as a
// host that reserves the worst case does), across days in a zone with a DST change.
function run(
  commands: readonly Command[],
  overrun: boolean,
): { budget: Budget; overrunMicros: number } {
  let budget = createBudget({
    now: Date.UTC(2024, 2, 30, 20),
    timeZone: 'Europe/Berlin',
    caps: { costUsd: 2, dayUsd: 1.5, tokens: 3000, dayTokens: 2500 },
    spentTodayUsd: 0.2,
  });
  let now = budget.updatedAt;
  let overrunMicros = 0;
  for (const step of commands) {
    now += step.dt;
    const before = JSON.stringify(budget);
    if (step.kind === 'reserve') {
      const result = reserveBudget(budget, {
        id: `c${step.id}`,
        usd: step.usd,
        tokens: step.tokens,
        turn: `t${step.turn}`,
        now,
      });
      if (!result.ok) {
        expect(ControllerError.isInstance(result.error)).toBe(true);
        if (result.error.cap === 'costUsd') stats.refusedSession++;
        if (result.error.cap === 'dayUsd') stats.refusedDay++;
        if (result.error.cap?.endsWith('Tokens')) stats.refusedTokens++;
        expect(JSON.stringify(budget)).toBe(before);
        continue;
      }
      if (result.value.day.date !== budget.day.date) stats.rolledDays++;
      budget = result.value;
    } else {
      const held = budget.reservations[step.pick % Math.max(1, budget.reservations.length)];
      if (held === undefined) continue;
      const factor = overrun ? step.share * 2 : step.share;
      const usd = Math.round(held.usd * factor * 1e6) / 1e6;
      const result = settleBudget(budget, {
        id: held.id,
        usd,
        tokens: Math.floor(held.tokens * step.share),
        now,
      });
      if (!result.ok) throw result.error;
      overrunMicros += Math.max(0, micros(usd) - micros(held.usd));
      budget = result.value;
      stats.settled++;
    }
    const reservedMicros = budget.reservations.reduce((sum, r) => sum + micros(r.usd), 0);
    const reservedTokens = budget.reservations.reduce((sum, r) => sum + r.tokens, 0);
    const { caps, session, day } = budget;
    expect(micros(session.spentUsd) + reservedMicros).toBeLessThanOrEqual(
      micros(caps.costUsd ?? 0) + overrunMicros,
    );
    expect(micros(day.spentUsd) + reservedMicros).toBeLessThanOrEqual(
      micros(caps.dayUsd ?? 0) + overrunMicros,
    );
    if (!overrun) {
      expect(session.spentTokens + reservedTokens).toBeLessThanOrEqual(caps.tokens ?? 0);
      expect(day.spentTokens + reservedTokens).toBeLessThanOrEqual(caps.dayTokens ?? 0);
    }
    expect(Object.isFrozen(budget.reservations)).toBe(true);
  }
  return { budget, overrunMicros };
}

describe('budget: properties', () => {
  it('never lets spent plus reserved pass a hard cap, however reservations interleave', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 60, size: 'max' }), (commands) => {
        const { budget } = run(commands, false);
        expect(micros(budget.session.spentUsd)).toBeLessThanOrEqual(micros(2));
        expect(micros(budget.day.spentUsd)).toBeLessThanOrEqual(micros(1.5));
      }),
      { numRuns: 300 },
    );
  });

  it('lets only overruns take spending past a cap, by no more than their sum', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 60, size: 'max' }), (commands) => {
        const { budget, overrunMicros } = run(commands, true);
        expect(micros(budget.session.spentUsd)).toBeLessThanOrEqual(micros(2) + overrunMicros);
      }),
      { numRuns: 150 },
    );
  });

  it('round-trips through JSON', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 30, size: 'max' }), (commands) => {
        const { budget } = run(commands, false);
        expect(budgetFromJSON(JSON.stringify(budget))).toEqual({ ok: true, value: budget });
      }),
      { numRuns: 100 },
    );
  });
});

afterAll(() => {
  // The caps must actually be reached in the generated runs. The rarest, the session cap, is
  // reached about 18 times in 550 runs (seeds vary per run), and 10 or fewer in a few runs of a
  // hundred: at least 5 proves it is reached without failing on an unlucky seed.
  if (process.env['PLANKIT_PRINT_HITS']) console.log(stats);
  for (const [name, value] of Object.entries(stats)) expect(value, name).toBeGreaterThanOrEqual(5);
});
