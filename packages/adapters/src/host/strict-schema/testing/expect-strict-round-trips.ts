// One check for every generated-schema suite (zod, TypeBox): the converted schema is strict mode
// by plankit's own check and by openai-node's converter, and sampled strict answers validate
// and restore to input the source accepts.
import type { Ajv } from 'ajv';
import { toStrictJsonSchema as openaiStrict } from 'openai/lib/transform';
import { expect } from 'vitest';
import { strictSchemaProblem } from '../strict-schema-problem.ts';
import type { StrictJsonSchema } from '../to-strict-json-schema.ts';
import { NO_VALUE, sampleStrictValue, seededRandom } from './sample-strict-value.ts';

/**
 * Expects `converted` (made from `source`) to be strict mode, and 40 answers sampled from it
 * (seeded by `seed`) to be valid strict answers whose `restore` is valid against `source`
 * (compiled by `validator`) and accepted by `accepts`, the source library's own check.
 */
export function expectStrictRoundTrips(
  source: Record<string, unknown>,
  converted: StrictJsonSchema,
  validator: Pick<Ajv, 'compile'>,
  accepts: (input: unknown) => boolean,
  seed: number,
): void {
  expect(strictSchemaProblem(converted.schema)).toBeUndefined();
  // openai-node's own strict transform accepts what we produce.
  expect(() => openaiStrict(structuredClone(converted.schema) as never)).not.toThrow();
  const strictValid = validator.compile(converted.schema);
  const sourceValid = validator.compile(source);
  const defs = (converted.schema['$defs'] ?? {}) as Record<string, unknown>;
  const random = seededRandom(seed);
  for (let round = 0; round < 40; round++) {
    const answer = sampleStrictValue(converted.schema, defs, random);
    expect(answer).not.toBe(NO_VALUE);
    expect(strictValid(answer), JSON.stringify(strictValid.errors)).toBe(true);
    const input = converted.restore(answer);
    expect(sourceValid(input), JSON.stringify({ answer, input })).toBe(true);
    expect(accepts(input), JSON.stringify({ answer, input })).toBe(true);
  }
}
