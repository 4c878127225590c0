import type { Result } from '@plankit/core';
import { isRecord } from '@plankit/core/internal-unstable';
import type { ControllerError } from '../controller-error.ts';
import { failure } from '../engine/internal/failure.ts';
import { isCount, isText, show, unknownKey } from '../internal/checks.ts';
import { fromMicros, isUsd } from '../internal/micro-usd.ts';

/** USD per million tokens for one model. No vendor prices are built in. @public */
export interface ModelPrice {
  /** Uncached input tokens. */
  readonly usdPerMillionInput: number;
  /** Output tokens. */
  readonly usdPerMillionOutput: number;
  /** Cached input tokens; the input price when absent. */
  readonly usdPerMillionCachedInput?: number | undefined;
}

/** Prices by model id, supplied by the host. @public */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** The tokens of one call. @public */
export interface TokenUsage {
  /** The model id, a key of the price table. */
  readonly model: string;
  /** Uncached input tokens. */
  readonly inputTokens: number;
  /** Output tokens (for an estimate: the most the call may produce). */
  readonly outputTokens: number;
  /** Cached input tokens, counted apart from `inputTokens` (0 by default). */
  readonly cachedInputTokens?: number | undefined;
}

const USAGE_KEYS: ReadonlySet<string> = new Set([
  'model',
  'inputTokens',
  'outputTokens',
  'cachedInputTokens',
]);
const PRICE_KEYS: ReadonlySet<string> = new Set([
  'usdPerMillionInput',
  'usdPerMillionOutput',
  'usdPerMillionCachedInput',
]);

function bad(field: string, rule: string): { ok: false; error: ControllerError } {
  return failure('input_invalid', `usageCost: ${field} ${rule}.`, field);
}

/**
 * The cost of a call from its tokens and the host's price table, rounded to whole
 * micro-dollars. Use it for the estimate before a call (with the most output tokens it may
 * produce) and for the actual cost after.
 *
 * @returns USD, or a {@link ControllerError}: `price_unknown` for a model not in the table,
 *   `input_invalid` for bad usage or prices
 * @example
 * ```ts
 * const prices: PriceTable = { 'my-model': { usdPerMillionInput: 1, usdPerMillionOutput: 4 } };
 * usageCost(prices, { model: 'my-model', inputTokens: 2000, outputTokens: 500 }); // { ok: true, value: 0.004 }
 * ```
 * @public
 */
export function usageCost(prices: PriceTable, usage: TokenUsage): Result<number, ControllerError> {
  if (!isRecord(prices)) return bad('prices', 'must be an object of model prices');
  if (!isRecord(usage)) return bad('usage', 'must be an object');
  const extra = unknownKey(usage, USAGE_KEYS);
  if (extra !== undefined) return bad(`usage.${extra}`, 'is not a usage key');
  const { model, inputTokens, outputTokens, cachedInputTokens = 0 } = usage;
  if (!isText(model, 256))
    return bad('usage.model', `must be 1-256 characters, got ${show(model)}`);
  for (const [field, value] of [
    ['inputTokens', inputTokens],
    ['outputTokens', outputTokens],
    ['cachedInputTokens', cachedInputTokens],
  ] as const) {
    if (!isCount(value))
      return bad(`usage.${field}`, `must be a non-negative integer, got ${show(value)}`);
  }
  // Own keys only: `__proto__` or `toString` are not models.
  const price = Object.hasOwn(prices, model) ? prices[model] : undefined;
  if (price === undefined) {
    return failure(
      'price_unknown',
      `usageCost: the price table has no model ${show(model)}.`,
      'usage.model',
    );
  }
  if (!isRecord(price)) return bad(`prices.${model}`, 'must be an object');
  const priceExtra = unknownKey(price, PRICE_KEYS);
  if (priceExtra !== undefined) return bad(`prices.${model}.${priceExtra}`, 'is not a price key');
  const {
    usdPerMillionInput,
    usdPerMillionOutput,
    usdPerMillionCachedInput = usdPerMillionInput,
  } = price;
  for (const [field, value] of [
    ['usdPerMillionInput', usdPerMillionInput],
    ['usdPerMillionOutput', usdPerMillionOutput],
    ['usdPerMillionCachedInput', usdPerMillionCachedInput],
  ] as const) {
    if (!isUsd(value))
      return bad(`prices.${model}.${field}`, `must be a USD amount >= 0, got ${show(value)}`);
  }
  // Tokens times USD per million tokens is micro-dollars.
  const micros =
    (inputTokens as number) * usdPerMillionInput +
    (outputTokens as number) * usdPerMillionOutput +
    (cachedInputTokens as number) * usdPerMillionCachedInput;
  if (!Number.isSafeInteger(Math.round(micros)))
    return bad('usage', 'gives a cost too large to count');
  return { ok: true, value: fromMicros(Math.round(micros)) };
}
