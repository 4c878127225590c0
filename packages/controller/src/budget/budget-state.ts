import { defineDataType } from '@plankit/core';
import { isRecord } from '@plankit/core/internal-unstable';
import * as z from 'zod';
import { storedCount, storedTime, storedUsd } from '../internal/stored-numbers.ts';
import type { Budget } from './create-budget.ts';

/** The most reservations a budget holds at once; `reserveBudget` refuses one more. */
export const MAX_RESERVATIONS = 10_000;

const count = storedCount;
const time = storedTime;
const usd = storedUsd;
const key = z.string().min(1).max(128);

/** The budget format version this build writes. */
export const BUDGET_VERSION = 2;

/**
 * A version-1 budget (parsed) with its caps renamed as version 2 names them (`sessionUsd` is
 * `costUsd`, `sessionTokens` is `tokens`); anything else unchanged, for the schema to judge.
 */
export function upgradeBudget(data: unknown): unknown {
  if (!isRecord(data)) return data;
  const record = data as Record<string, unknown>;
  if (record['format'] !== 'plankit.budget' || record['version'] !== 1) return data;
  const caps = record['caps'];
  if (!isRecord(caps)) return data;
  const { sessionUsd, sessionTokens, ...rest } = caps as Record<string, unknown>;
  return {
    ...record,
    version: BUDGET_VERSION,
    caps: { costUsd: sessionUsd, ...rest, tokens: sessionTokens },
  };
}

const schema = z.strictObject({
  format: z.literal('plankit.budget'),
  version: z.literal(BUDGET_VERSION),
  caps: z.strictObject({
    costUsd: usd.nullable(),
    dayUsd: usd.nullable(),
    turnSoftUsd: usd.nullable(),
    tokens: count.nullable(),
    dayTokens: count.nullable(),
  }),
  timeZone: z.string().min(1).max(64),
  session: z.strictObject({ spentUsd: usd, spentTokens: count }),
  day: z.strictObject({
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    spentUsd: usd,
    spentTokens: count,
  }),
  turn: z.strictObject({ key: key.nullable(), spentUsd: usd }),
  reservations: z
    .array(z.strictObject({ id: key, usd, tokens: count, turn: key, at: time }))
    .max(MAX_RESERVATIONS),
  signals: z
    .array(
      z.discriminatedUnion('type', [
        z.strictObject({ type: z.literal('turn_ceiling'), turn: key, usd, ceiling: usd }),
        z.strictObject({ type: z.literal('overrun'), id: key, reservedUsd: usd, usd }),
      ]),
    )
    .max(4),
  updatedAt: time,
});

/**
 * The data type of budgets (`plankit.controller.Budget`), for keeping a budget in a core
 * `Session` slice next to the plan and the controller. A version-1 budget (stored before the
 * caps were renamed) is read as version 2.
 *
 * @public
 */
export const BudgetState: z.ZodType<Budget> = defineDataType(
  'plankit.controller.Budget',
  z.preprocess(upgradeBudget, schema),
);
