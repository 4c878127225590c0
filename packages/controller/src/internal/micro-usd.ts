/** Whole micro-dollars in one USD. Amounts are summed as integers so they never drift. */
export const MICROS_PER_USD = 1_000_000;

/**
 * The most micro-dollars a stored total (a session's or a day's cost) may reach: 9 billion
 * USD, whose amount still reads back as a safe integer of micro-dollars.
 */
export const MAX_TOTAL_MICROS = 9e15;

// The largest USD amount whose micro-dollars stay a safe integer, with room for sums.
const MAX_USD = 1e9;

/** Micro-dollars of a USD amount, rounded to the nearest. */
export function toMicros(usd: number): number {
  return Math.round(usd * MICROS_PER_USD);
}

/** The USD amount of whole micro-dollars. */
export function fromMicros(micros: number): number {
  return micros / MICROS_PER_USD;
}

/** True for a finite USD amount from 0 up to a billion. */
export function isUsd(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_USD;
}
