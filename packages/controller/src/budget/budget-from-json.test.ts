import { describe, expect, it } from 'vitest';
import { budgetFromJSON } from './budget-from-json.ts';
import { createBudget } from './create-budget.ts';
import { reserveBudget } from './reserve-budget.ts';

const held = reserveBudget(createBudget({ now: 0, timeZone: 'America/New_York' }), {
  id: 'a',
  usd: 0.1,
  now: 1,
});
if (!held.ok) throw held.error;
const json = JSON.parse(JSON.stringify(held.value));

describe('budgetFromJSON', () => {
  it('reads back text and parsed JSON as an equal, frozen budget', () => {
    const read = budgetFromJSON(JSON.stringify(held.value));
    expect(read).toEqual({ ok: true, value: held.value });
    if (read.ok) expect(Object.isFrozen(read.value.reservations[0])).toBe(true);
    expect(budgetFromJSON(json)).toEqual({ ok: true, value: held.value });
  });

  const cases: [string, unknown, string, string][] = [
    ['malformed JSON', '{', 'snapshot_invalid', 'text'],
    [
      'a machine snapshot',
      { ...json, format: 'plankit.machine-snapshot' },
      'snapshot_invalid',
      'format',
    ],
    ['an unknown version', { ...json, version: 9 }, 'snapshot_version_unknown', 'version'],
    ['an unknown key', { ...json, extra: true }, 'snapshot_invalid', 'value'],
    [
      'a negative spend',
      { ...json, session: { spentUsd: -1, spentTokens: 0 } },
      'snapshot_invalid',
      'session.spentUsd',
    ],
    [
      'a bad date',
      { ...json, day: { ...json.day, date: '10/01/2025' } },
      'snapshot_invalid',
      'day.date',
    ],
    ['an unknown zone', { ...json, timeZone: 'Nowhere/Land' }, 'snapshot_invalid', 'timeZone'],
    ['a non-canonical zone', { ...json, timeZone: 'utc' }, 'snapshot_invalid', 'timeZone'],
    [
      'repeated reservation ids',
      { ...json, reservations: [json.reservations[0], json.reservations[0]] },
      'snapshot_invalid',
      'reservations[1].id',
    ],
    [
      'a reservation later than updatedAt',
      { ...json, reservations: [{ ...json.reservations[0], at: json.updatedAt + 1 }] },
      'snapshot_invalid',
      'reservations[0].at',
    ],
    [
      'reservations out of time order',
      {
        ...json,
        reservations: [
          { ...json.reservations[0], id: 'b', at: 1 },
          { ...json.reservations[0], at: 0 },
        ],
      },
      'snapshot_invalid',
      'reservations[1].at',
    ],
    [
      'reservations without a turn',
      { ...json, turn: { key: null, spentUsd: 0 } },
      'snapshot_invalid',
      'turn.key',
    ],
    [
      'more than 10,000 reservations',
      {
        ...json,
        reservations: Array.from({ length: 10_001 }, (_, i) => ({
          ...json.reservations[0],
          id: `r${i}`,
        })),
      },
      'snapshot_invalid',
      'reservations',
    ],
    [
      'an Infinity cap',
      { ...json, caps: { ...json.caps, dayUsd: Number.POSITIVE_INFINITY } },
      'snapshot_invalid',
      'caps.dayUsd',
    ],
  ];

  it.each(cases)('refuses %s, naming the field', (_, input, code, field) => {
    const read = budgetFromJSON(input);
    expect(read.ok).toBe(false);
    if (!read.ok) {
      expect(read.error).toMatchObject({ code, field });
      expect(read.error.message.length).toBeLessThan(2000);
    }
  });
});
