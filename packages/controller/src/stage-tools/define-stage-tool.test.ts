import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ControllerError } from '../controller-error.ts';
import { defineStageTool } from './define-stage-tool.ts';

const valid = {
  name: 'grammar_validator',
  description: 'Check the outline against the planning grammar.',
  input: z.strictObject({ outline: z.string() }),
  prerequisites: ['plan_outline'],
  produces: ['outline_report'],
  run: () => ({ ok: true, confidence: 1, explanations: [], data: null }),
};

describe('defineStageTool', () => {
  it('returns a frozen tool with its prerequisites and products', () => {
    const tool = defineStageTool(valid);
    expect(tool).toMatchObject({
      name: 'grammar_validator',
      prerequisites: ['plan_outline'],
      produces: ['outline_report'],
    });
    expect(Object.isFrozen(tool)).toBe(true);
    expect(
      defineStageTool({ ...valid, prerequisites: undefined, produces: undefined }).prerequisites,
    ).toEqual([]);
  });

  it.each([
    ['a bad name', { ...valid, name: 'Grammar Validator' }, 'name'],
    ['a non-ASCII description', { ...valid, description: 'Pr\u00fcft' }, 'description'],
    ['a huge description', { ...valid, description: 'd'.repeat(201) }, 'description'],
    ['an input that is not zod', { ...valid, input: { outline: 'string' } }, 'input'],
    ['a missing run', { ...valid, run: undefined }, 'run'],
    ['a bad artifact name', { ...valid, produces: ['outline report'] }, 'produces[0]'],
    ['a repeated prerequisite', { ...valid, prerequisites: ['a', 'a'] }, 'prerequisites[1]'],
    [
      'prerequisites that are not an array',
      { ...valid, prerequisites: 'plan_outline' },
      'prerequisites',
    ],
    ['an unknown key', { ...valid, cacheable: true }, 'cacheable'],
  ])('refuses %s, naming the field', (_, definition, field) => {
    let caught: unknown;
    try {
      defineStageTool(definition as never);
    } catch (error) {
      caught = error;
    }
    expect(ControllerError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ code: 'definition_invalid', field });
  });
});
