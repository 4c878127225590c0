import * as z from 'zod';
import { MAX_TIME } from './checks.ts';
import { MICROS_PER_USD } from './micro-usd.ts';

// The number schemas every stored state (snapshot, budget, goal, phase job, workshop) reads
// its fields with, so a count or an amount one of them accepts, every one accepts.

/** A stored count: a safe integer from 0. */
export const storedCount: z.ZodNumber = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** A stored moment, in epoch milliseconds: within the range a `Date` can hold. */
export const storedTime: z.ZodNumber = z.number().min(-MAX_TIME).max(MAX_TIME);

/** A stored USD amount: whole micro-dollars, from 0 to a trillion dollars. */
export const storedUsd: z.ZodNumber = z
  .number()
  .min(0)
  .max(1e12)
  .refine(
    (value) => Number.isSafeInteger(Math.round(value * MICROS_PER_USD)),
    'must be a USD amount',
  );
