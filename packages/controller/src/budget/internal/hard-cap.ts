import { toMicros } from '../../internal/micro-usd.ts';

// The budget manager's hard caps, written once: `reserveBudget` asks whether a call would pass
// one, and a goal (`decideGoal`) whether what it used leaves any room, in the same words.

/** A hard cap a budget or a goal keeps: USD, tokens, turns or milliseconds of work. */
export type HardCapName = 'costUsd' | 'dayUsd' | 'tokens' | 'dayTokens' | 'turns' | 'wallTimeMs';

/** What a hard cap counts: its limit (`null` for no cap) and what was used of it. */
export interface HardCapUse {
  /** The cap. */
  readonly cap: HardCapName;
  /** Its limit, in the cap's unit (USD for `costUsd` and `dayUsd`); `null` for no cap. */
  readonly limit: number | null;
  /** What was used, in the same unit. */
  readonly used: number;
}

const USD: ReadonlySet<HardCapName> = new Set(['costUsd', 'dayUsd']);

/**
 * The rule of every hard cap: spending `amount` on top of `used` passes `limit` when the total
 * would be over it. A spend up to the limit exactly is allowed. Whole units: tokens, turns,
 * milliseconds, or micro-dollars for USD.
 */
export function passesCap(limit: number | null, used: number, amount: number): boolean {
  return limit !== null && used + amount > limit;
}

/** A USD limit in whole micro-dollars, for {@link passesCap}; `null` stays no cap. */
export function microCap(limit: number | null): number | null {
  return limit === null ? null : toMicros(limit);
}

/**
 * True when `use` leaves no room: any spend at all (`passesCap` with an amount above 0) would
 * pass the cap. USD is compared in whole micro-dollars.
 */
export function capSpent(use: HardCapUse): boolean {
  if (use.limit === null) return false;
  return USD.has(use.cap) ? toMicros(use.used) >= toMicros(use.limit) : use.used >= use.limit;
}

const WORDS: Readonly<Record<HardCapName, readonly [string, string]>> = {
  costUsd: ['USD', 'USD'],
  dayUsd: ["day's USD", 'USD'],
  tokens: ['token', 'tokens'],
  dayTokens: ["day's token", 'tokens'],
  turns: ['turn', 'turns'],
  wallTimeMs: ['time', 'ms'],
};

/** The words for a spent cap: `the token budget is spent (3300 of 3000 tokens)`. */
export function capSpentText(use: HardCapUse): string {
  const [name, unit] = WORDS[use.cap];
  return `the ${name} budget is spent (${use.used} of ${use.limit} ${unit})`;
}

/** The first of `uses` that is spent, in the order given, with its words; or null. */
export function firstSpentCap(
  uses: readonly HardCapUse[],
): { readonly cap: HardCapName; readonly text: string } | null {
  for (const use of uses) if (capSpent(use)) return { cap: use.cap, text: capSpentText(use) };
  return null;
}
