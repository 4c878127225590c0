import { describe, expect, it } from 'vitest';
import { type PriceTable, usageCost } from './usage-cost.ts';

// Made-up prices for the tests: plankit ships no vendor prices.
const prices: PriceTable = {
  'model-a': { usdPerMillionInput: 2.5, usdPerMillionOutput: 10, usdPerMillionCachedInput: 1.25 },
  'model-b': { usdPerMillionInput: 0.15, usdPerMillionOutput: 0.6 },
};

describe('usageCost', () => {
  it('prices input, output and cached input tokens per million, in whole micro-dollars', () => {
    expect(usageCost(prices, { model: 'model-a', inputTokens: 1000, outputTokens: 500 })).toEqual({
      ok: true,
      value: 0.0075,
    });
    expect(
      usageCost(prices, {
        model: 'model-a',
        inputTokens: 0,
        outputTokens: 0,
        cachedInputTokens: 4000,
      }),
    ).toEqual({
      ok: true,
      value: 0.005,
    });
    // Without a cached price, cached tokens cost the input price.
    expect(
      usageCost(prices, {
        model: 'model-b',
        inputTokens: 0,
        outputTokens: 0,
        cachedInputTokens: 1_000_000,
      }),
    ).toEqual({
      ok: true,
      value: 0.15,
    });
    // 3 tokens at 0.15 per million is 0.45 micro-dollars: rounded to 0.
    expect(usageCost(prices, { model: 'model-b', inputTokens: 3, outputTokens: 0 })).toEqual({
      ok: true,
      value: 0,
    });
  });

  it('refuses a model not in the table, inherited keys included', () => {
    for (const model of ['model-z', 'toString', '__proto__', 'constructor']) {
      const result = usageCost(prices, { model, inputTokens: 1, outputTokens: 1 });
      expect(result.ok).toBe(false);
      if (!result.ok)
        expect(result.error).toMatchObject({ code: 'price_unknown', field: 'usage.model' });
    }
  });

  const bad: [string, unknown, unknown, string][] = [
    [
      'negative tokens',
      prices,
      { model: 'model-a', inputTokens: -1, outputTokens: 0 },
      'usage.inputTokens',
    ],
    [
      'fractional tokens',
      prices,
      { model: 'model-a', inputTokens: 1, outputTokens: 0.5 },
      'usage.outputTokens',
    ],
    [
      'NaN cached tokens',
      prices,
      { model: 'model-a', inputTokens: 1, outputTokens: 1, cachedInputTokens: Number.NaN },
      'usage.cachedInputTokens',
    ],
    [
      'an unknown usage key',
      prices,
      { model: 'model-a', inputTokens: 1, outputTokens: 1, reasoning: 3 },
      'usage.reasoning',
    ],
    ['an empty model', prices, { model: '', inputTokens: 1, outputTokens: 1 }, 'usage.model'],
    [
      'a negative price',
      { m: { usdPerMillionInput: -1, usdPerMillionOutput: 1 } },
      { model: 'm', inputTokens: 1, outputTokens: 1 },
      'prices.m.usdPerMillionInput',
    ],
    [
      'an infinite price',
      { m: { usdPerMillionInput: 1, usdPerMillionOutput: Number.POSITIVE_INFINITY } },
      { model: 'm', inputTokens: 1, outputTokens: 1 },
      'prices.m.usdPerMillionOutput',
    ],
    [
      'an unknown price key',
      { m: { usdPerMillionInput: 1, usdPerMillionOutput: 1, perCall: 1 } },
      { model: 'm', inputTokens: 1, outputTokens: 1 },
      'prices.m.perCall',
    ],
    [
      'a price that is not an object',
      { m: 5 },
      { model: 'm', inputTokens: 1, outputTokens: 1 },
      'prices.m',
    ],
    ['no price table', null, { model: 'm', inputTokens: 1, outputTokens: 1 }, 'prices'],
    [
      'a cost too large to count',
      { m: { usdPerMillionInput: 1e9, usdPerMillionOutput: 1 } },
      { model: 'm', inputTokens: Number.MAX_SAFE_INTEGER, outputTokens: 1 },
      'usage',
    ],
  ];

  it.each(bad)('refuses %s with input_invalid naming the field', (_, table, usage, field) => {
    const result = usageCost(table as never, usage as never);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ code: 'input_invalid', field });
  });
});
