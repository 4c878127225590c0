import { describe, expect, it } from 'vitest';
import { INDENT_LIMIT, NESTING_LIMIT, yamlNestingProblem } from './yaml-nesting.ts';

describe('yamlNestingProblem', () => {
  it('accepts ordinary documents', () => {
    expect(yamlNestingProblem('todos:\n  - id: 1\n    content: "a [b] {c}"\n')).toBeNull();
    expect(
      yamlNestingProblem(`x: ${'['.repeat(NESTING_LIMIT)}${']'.repeat(NESTING_LIMIT)}`),
    ).toBeNull();
  });

  it('refuses deep flow nesting, stacked block indicators and wide indentation before any parser runs', () => {
    expect(yamlNestingProblem(`x: ${'['.repeat(100_000)}`)).toMatch(/nest/i);
    expect(yamlNestingProblem(`${'- '.repeat(NESTING_LIMIT + 1)}x`)).not.toBeNull();
    expect(yamlNestingProblem(`a:\n${' '.repeat(INDENT_LIMIT + 1)}b: 1`)).not.toBeNull();
  });
});
