import { describe, expect, it } from 'vitest';
import { ControllerError } from '../controller-error.ts';
import { createBudget, DEFAULT_BUDGET_CAPS } from './create-budget.ts';

// 2024-03-30T23:30:00Z: still the 30th in UTC, already the 31st in Berlin (UTC+1 that night).
const LATE = Date.UTC(2024, 2, 30, 23, 30);

describe('createBudget', () => {
  it("opens a ledger with seed 000's caps and the day of now in UTC", () => {
    const budget = createBudget({ now: LATE });
    expect(budget).toEqual({
      format: 'plankit.budget',
      version: 2,
      caps: { costUsd: 2, dayUsd: 5, turnSoftUsd: 0.3, tokens: null, dayTokens: null },
      timeZone: 'UTC',
      session: { spentUsd: 0, spentTokens: 0 },
      day: { date: '2024-03-30', spentUsd: 0, spentTokens: 0 },
      turn: { key: null, spentUsd: 0 },
      reservations: [],
      signals: [],
      updatedAt: LATE,
    });
    expect(budget.caps).toEqual(DEFAULT_BUDGET_CAPS);
    expect(Object.isFrozen(budget.day)).toBe(true);
  });

  it('takes the day in the configured time zone, canonicalises its name, and seeds the day', () => {
    const budget = createBudget({
      now: LATE,
      timeZone: 'Europe/Berlin',
      caps: { costUsd: 1.0000004, dayTokens: 10_000 },
      spentTodayUsd: 1.25,
      spentTodayTokens: 300,
    });
    expect(budget.day).toEqual({ date: '2024-03-31', spentUsd: 1.25, spentTokens: 300 });
    expect(budget.caps).toMatchObject({ costUsd: 1, dayTokens: 10_000 });
    expect(createBudget({ now: LATE, timeZone: 'utc' }).timeZone).toBe('UTC');
  });

  const bad: [string, unknown, string][] = [
    ['a non-object', null, 'options'],
    ['an unknown option', { now: 0, currency: 'EUR' }, 'options.currency'],
    ['a NaN now', { now: Number.NaN }, 'options.now'],
    ['a now past what a Date holds', { now: 1e308 }, 'options.now'],
    ['an unknown time zone', { now: 0, timeZone: 'Mars/Olympus' }, 'options.timeZone'],
    ['a non-string time zone', { now: 0, timeZone: 1 }, 'options.timeZone'],
    ['a negative cap', { now: 0, caps: { costUsd: -1 } }, 'options.caps.costUsd'],
    [
      'an infinite cap',
      { now: 0, caps: { dayUsd: Number.POSITIVE_INFINITY } },
      'options.caps.dayUsd',
    ],
    ['a fractional token cap', { now: 0, caps: { tokens: 1.5 } }, 'options.caps.tokens'],
    ['an unknown cap', { now: 0, caps: { weekUsd: 1 } }, 'options.caps.weekUsd'],
    ['a negative day spend', { now: 0, spentTodayUsd: -0.1 }, 'options.spentTodayUsd'],
    ['fractional day tokens', { now: 0, spentTodayTokens: 0.5 }, 'options.spentTodayTokens'],
  ];

  it.each(bad)('refuses %s as a programmer error naming the option', (_, options, field) => {
    let caught: unknown;
    try {
      createBudget(options as never);
    } catch (error) {
      caught = error;
    }
    expect(ControllerError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ code: 'argument_invalid', field });
  });
});
