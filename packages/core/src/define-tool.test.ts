import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineDataType } from './define-data-type.ts';
import { defineTool } from './define-tool.ts';
import { PlankitError } from './plankit-error.ts';

const base = {
  name: 'echo',
  description: 'Repeat the text back.',
  parameters: z.strictObject({ text: z.string() }),
  handler: ({ text }: { text: string }) => ({ message: text, value: text }),
};

describe('defineTool', () => {
  it('refuses a key a tool definition does not have, naming it', () => {
    let caught: unknown;
    try {
      defineTool({ ...base, strict: true } as never);
    } catch (error) {
      caught = error;
    }
    expect(PlankitError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({
      code: 'tool_definition_invalid',
      message: 'defineTool: strict is not a known key.',
      field: 'strict',
    });
  });

  it('returns a frozen tool with a null result type by default', () => {
    const tool = defineTool(base);
    expect(tool.name).toBe('echo');
    expect(tool.resultType).toBeNull();
    expect(tool.acceptsOverrides).toBe(false);
    expect(defineTool({ ...base, acceptsOverrides: true }).acceptsOverrides).toBe(true);
    expect(Object.isFrozen(tool)).toBe(true);
  });

  it('accepts names and descriptions exactly at their limits', () => {
    expect(() =>
      defineTool({ ...base, name: 'a'.repeat(64), description: 'd'.repeat(200) }),
    ).not.toThrow();
    expect(() => defineTool({ ...base, name: 'a-b_c9' })).not.toThrow();
  });

  it('refuses a bad definition with tool_definition_invalid naming the field', () => {
    const cases: [object, string][] = [
      [{ ...base, name: 'a'.repeat(65) }, 'name'],
      [{ ...base, name: 'Echo' }, 'name'],
      [{ ...base, name: '' }, 'name'],
      [{ ...base, name: 'ech o' }, 'name'],
      [{ ...base, description: '' }, 'description'],
      [{ ...base, description: 'd'.repeat(201) }, 'description'],
      [{ ...base, description: 'caf\u00e9' }, 'description'],
      [{ ...base, description: 'two\nlines' }, 'description'],
      [{ ...base, parameters: { type: 'object' } }, 'parameters'],
      [{ ...base, handler: 'run' }, 'handler'],
      [{ ...base, extra: true }, 'extra'],
      [{ ...base, acceptsOverrides: 1 }, 'acceptsOverrides'],
      [{ ...base, traits: 'strict' }, 'traits'],
      [{ ...base, traits: [] }, 'traits'],
      [{ ...base, traits: { strict: 'yes' } }, 'traits.strict'],
      [{ ...base, traits: { destructive: 1 } }, 'traits.destructive'],
      [{ ...base, traits: { readonly: true } }, 'traits.readonly'],
      [{ ...base, traits: { title: '' } }, 'traits.title'],
      [{ ...base, traits: { title: 't'.repeat(101) } }, 'traits.title'],
      [{ ...base, traits: { title: 'two\nlines' } }, 'traits.title'],
    ];
    for (const [definition, field] of cases) {
      let caught: unknown;
      try {
        defineTool(definition as never);
      } catch (error) {
        caught = error;
      }
      expect(PlankitError.isInstance(caught), field).toBe(true);
      expect(caught).toMatchObject({ code: 'tool_definition_invalid', field });
    }
  });

  it('refuses an unnamed result type', () => {
    expect(() => defineTool({ ...base, resultType: z.string() })).toThrow(/defineDataType/);
    const Echo = defineDataType('test.Echo', z.string());
    expect(defineTool({ ...base, resultType: Echo }).resultType).toBe(Echo);
  });
});

describe('defineTool traits', () => {
  it('carries the declared traits, frozen, and none by default', () => {
    expect(defineTool(base).traits).toEqual({});
    expect(Object.isFrozen(defineTool(base).traits)).toBe(true);
    const traits = {
      strict: true,
      title: 'Répéter',
      readOnly: true,
      destructive: false,
      idempotent: true,
      openWorld: false,
    };
    const tool = defineTool({ ...base, traits });
    expect(tool.traits).toEqual(traits);
    expect(tool.traits).not.toBe(traits);
    expect(Object.isFrozen(tool.traits)).toBe(true);
  });

  it("carries a planning tool's plan trait and refuses a role it does not know", () => {
    expect(defineTool({ ...base, traits: { plan: 'read', readOnly: true } }).traits).toEqual({
      plan: 'read',
      readOnly: true,
    });
    expect(() => defineTool({ ...base, traits: { plan: 'write' } as never })).toThrow(
      "defineTool: traits.plan must be 'read', 'start', 'edit' or 'clear'.",
    );
  });

  it('drops undefined traits', () => {
    const tool = defineTool({ ...base, traits: { strict: undefined, title: 'Echo' } as never });
    expect(tool.traits).toEqual({ title: 'Echo' });
    expect(Object.keys(tool.traits)).toEqual(['title']);
  });

  it('refuses readOnly for a tool with a resultType, which changes the session', () => {
    const Echo = defineDataType('test.EchoTrait', z.string());
    expect(() => defineTool({ ...base, resultType: Echo, traits: { readOnly: true } })).toThrow(
      expect.objectContaining({ code: 'tool_definition_invalid', field: 'traits.readOnly' }),
    );
    expect(defineTool({ ...base, resultType: Echo, traits: { readOnly: false } }).traits).toEqual({
      readOnly: false,
    });
  });
});
