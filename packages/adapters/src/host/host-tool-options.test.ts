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
