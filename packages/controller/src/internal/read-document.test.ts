import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { readDocument } from './read-document.ts';

const Doc = z.object({
  format: z.literal('test.doc'),
  version: z.literal(1),
  items: z.record(z.string(), z.array(z.number())),
});

function problemOf(input: unknown) {
  const read = readDocument(input, 'test.doc', 1, Doc);
  if (read.ok) throw new Error('expected a refusal');
  return read.problem;
}

describe('readDocument: the field a refusal names', () => {
  it('writes plain keys as they are and indexes in brackets', () => {
    const problem = problemOf({ format: 'test.doc', version: 1, items: { plain_key: [1, 'x'] } });
    expect(problem).toMatchObject({ kind: 'invalid', field: 'items.plain_key[1]' });
  });

  it('quotes, escapes and clips an odd key, so the field stays short and on one line', () => {
    const odd = `a b\n${'k'.repeat(500)}`;
    const problem = problemOf({ format: 'test.doc', version: 1, items: { [odd]: ['x'] } });
    if (problem.kind !== 'invalid') throw new Error('expected an invalid document');
    expect(problem.field.startsWith('items."a b\\nkkk')).toBe(true);
    expect(problem.field.endsWith('..."[0]')).toBe(true);
    expect(problem.field.length).toBeLessThan(100);
  });
});
