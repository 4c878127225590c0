import { defineTool, PlankitError } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { checkHostOptions, isStrict } from './host-tool-options.ts';

const KEYS: ReadonlySet<string> = new Set(['session', 'clock']);

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('checkHostOptions', () => {
  const clock = () => 1;

  it('returns the clock, or undefined to leave time to the session', () => {
    expect(checkHostOptions('f', { clock }, KEYS)).toBe(clock);
    expect(checkHostOptions('f', {}, KEYS)).toBeUndefined();
    expect(checkHostOptions('f', { clock: undefined }, KEYS)).toBeUndefined();
  });

  it('refuses now, pointing at clock: a time source is clock, now is only ever a number', () => {
    const thrown = thrownBy(() => checkHostOptions('f', { now: clock }, KEYS));
    expect(PlankitError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      code: 'argument_invalid',
      field: 'options.now',
      message: 'f: options.now is not an option; a time source is options.clock.',
    });
  });

  it('refuses text, pointing at the tools: the text mode is decided where they are built', () => {
    const thrown = thrownBy(() => checkHostOptions('f', { text: 'unicode' }, KEYS));
    expect(PlankitError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      code: 'argument_invalid',
      field: 'options.text',
      message:
        "f: options.text is not an option; the text mode is the tools' own: createPlanningTools(session, { text }).",
    });
    // An adapter that builds the tools itself declares it.
    expect(checkHostOptions('f', { text: 'unicode' }, new Set(['text']))).toBeUndefined();
  });

  it('refuses a key the adapter does not declare, in the words every function uses', () => {
    expect(() => checkHostOptions('f', { session: 1, sesion: 2 }, KEYS)).toThrow(
      'f: options.sesion is not an option.',
    );
  });

  it('refuses a clock that is not a function', () => {
    expect(() => checkHostOptions('f', { clock: 5 }, KEYS)).toThrow(
      'f: options.clock must be a function returning epoch milliseconds.',
    );
  });

  it('refuses a strict option that is neither a boolean nor a function', () => {
    const keys: ReadonlySet<string> = new Set(['strict']);
    expect(checkHostOptions('f', { strict: (tool: unknown) => tool !== null }, keys)).toBe(
      undefined,
    );
    expect(() => checkHostOptions('f', { strict: 'yes' }, keys)).toThrow(
      'f: options.strict must be a boolean or a function of the tool.',
    );
  });

  it('refuses an order timeout a timer cannot wait', () => {
    const keys: ReadonlySet<string> = new Set(['orderTimeoutMs']);
    expect(checkHostOptions('f', { orderTimeoutMs: 0 }, keys)).toBeUndefined();
    for (const orderTimeoutMs of [-1, Number.NaN, 2 ** 31, '30000'])
      expect(() => checkHostOptions('f', { orderTimeoutMs }, keys)).toThrow(
        'f: options.orderTimeoutMs must be a number of milliseconds from 0 to 2^31 - 1.',
      );
  });

  it("words the refusal through the caller's own error", () => {
    const error = (where: string, field: string, rule: string) =>
      new RangeError(`${where}|${field}|${rule}`);
    expect(() => checkHostOptions('f', { extra: 1 }, KEYS, error)).toThrow(
      'f|options.extra|is not an option',
    );
  });
});

describe('isStrict', () => {
  const tool = (strict: boolean | undefined) =>
    defineTool({
      name: 'lookup',
      description: 'Looks a word up.',
      parameters: z.object({ word: z.string() }),
      ...(strict === undefined ? {} : { traits: { strict } }),
      handler: () => ({ message: 'ok', value: null }),
    });

  it("reads the option first, else the tool's own strict trait", () => {
    expect(isStrict(tool(true), undefined)).toBe(true);
    expect(isStrict(tool(undefined), undefined)).toBe(false);
    expect(isStrict(tool(true), false)).toBe(false);
    expect(isStrict(tool(undefined), true)).toBe(true);
    expect(isStrict(tool(true), (candidate) => candidate.name !== 'lookup')).toBe(false);
  });
});
