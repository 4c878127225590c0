import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PlankitError } from './plankit-error.ts';
import { SessionError } from './session-error.ts';
import type { ToolFailure } from './tool-result.ts';
import { ToolValidationError } from './tool-validation-error.ts';

describe('PlankitError', () => {
  it('carries a stable code, a field and a cause', () => {
    const cause = new Error('root');
    const error = new PlankitError('argument_invalid', 'bad', { field: 'x', cause });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      code: 'argument_invalid',
      field: 'x',
      message: 'bad',
      name: 'PlankitError',
      cause,
    });
  });

  it('recognises its kinds by brand, not by prototype', () => {
    const validation = new ToolValidationError('x', { code: 'schema' });
    const session = new SessionError('reducer_failed', 'y', { sessionId: 's' });
    expect(PlankitError.isInstance(validation)).toBe(true);
    expect(PlankitError.isInstance(session)).toBe(true);
    expect(ToolValidationError.isInstance(validation)).toBe(true);
    expect(ToolValidationError.isInstance(session)).toBe(false);
    expect(SessionError.isInstance(session)).toBe(true);
    expect(SessionError.isInstance(new PlankitError('argument_invalid', 'z'))).toBe(false);
    for (const value of [new Error('x'), { code: 'schema' }, null, undefined, 'schema']) {
      expect(PlankitError.isInstance(value)).toBe(false);
    }
    // A copy from another instance of the package carries the same registry-wide brand.
    const foreign = Object.defineProperty(new Error('x'), Symbol.for('plankit.error'), {
      value: 'ToolValidationError',
    });
    expect(ToolValidationError.isInstance(foreign)).toBe(true);
  });
});

/** Renames each class as a minifier does (`class A extends B`), runs `body`, restores them. */
function minified<T>(classes: readonly object[], body: () => T): T {
  const saved = classes.map((cls) => Object.getOwnPropertyDescriptor(cls, 'name'));
  classes.forEach((cls, i) => {
    Object.defineProperty(cls, 'name', { value: String.fromCharCode(65 + i), configurable: true });
  });
  try {
    return body();
  } finally {
    classes.forEach((cls, i) => {
      const descriptor = saved[i];
      if (descriptor !== undefined) Object.defineProperty(cls, 'name', descriptor);
    });
  }
}

describe('PlankitError names', () => {
  it('takes the name and the brand from the literal, not the runtime class name', () => {
    expect(PlankitError.errorName).toBe('PlankitError');
    expect(ToolValidationError.errorName).toBe('ToolValidationError');
    const error = minified([PlankitError, ToolValidationError], () => {
      expect(ToolValidationError.name).toBe('B');
      return new ToolValidationError('x');
    });
    expect(error.name).toBe('ToolValidationError');
    expect(String(error)).toBe('ToolValidationError: x');
    expect(ToolValidationError.isInstance(error)).toBe(true);
    expect(PlankitError.isInstance(error)).toBe(true);
    expect(SessionError.isInstance(error)).toBe(false);
    expect(minified([PlankitError], () => new PlankitError('argument_invalid', 'x')).name).toBe(
      'PlankitError',
    );
  });

  it("lets a subclass's instance pass its parent's isInstance", () => {
    class TicketError extends ToolValidationError {
      static override readonly errorName: string = 'TicketError';
      static override isInstance(value: unknown): value is TicketError {
        return PlankitError.hasBrand(value, TicketError.errorName);
      }
    }
    const ticket = minified([PlankitError, ToolValidationError, TicketError], () => {
      return new TicketError('Ticket T-9 does not exist.', { code: 'ticket_unknown' });
    });
    expect(ticket.name).toBe('TicketError');
    expect(TicketError.isInstance(ticket)).toBe(true);
    expect(ToolValidationError.isInstance(ticket)).toBe(true);
    expect(PlankitError.isInstance(ticket)).toBe(true);
    expect(SessionError.isInstance(ticket)).toBe(false);
    expect(TicketError.isInstance(new ToolValidationError('x'))).toBe(false);
  });

  it('names a subclass that declares no literal by its runtime name, as before', () => {
    class LegacyError extends PlankitError<'legacy'> {
      static override isInstance(value: unknown): value is LegacyError {
        return PlankitError.hasBrand(value, 'LegacyError');
      }
    }
    const error = new LegacyError('legacy', 'x');
    expect(error.name).toBe('LegacyError');
    expect(LegacyError.isInstance(error)).toBe(true);
    expect(PlankitError.isInstance(error)).toBe(true);
  });

  it('reads and is read by a 0.1 copy, which stamps and compares only the own name', () => {
    const old = Object.defineProperty(new Error('x'), Symbol.for('plankit.error'), {
      value: 'SessionError',
    });
    expect(SessionError.isInstance(old)).toBe(true);
    expect(PlankitError.isInstance(old)).toBe(true);
    expect(ToolValidationError.isInstance(old)).toBe(false);
    const error = new SessionError('value_invalid', 'x');
    expect((error as unknown as Record<symbol, unknown>)[Symbol.for('plankit.error')]).toBe(
      'SessionError',
    );
  });

  it('keeps the brands out of keys and JSON', () => {
    const error = new ToolValidationError('x', { field: 'title' });
    for (const key of Object.getOwnPropertySymbols(error)) {
      expect(Object.prototype.propertyIsEnumerable.call(error, key)).toBe(false);
    }
    expect(Object.keys(error).sort()).toEqual(['code', 'field', 'issueCount', 'issues', 'name']);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      code: 'invalid',
      field: 'title',
      issueCount: 0,
      issues: [],
      name: 'ToolValidationError',
    });
  });
});

/** An exported error class, as the enumeration below handles it. */
interface ErrorClass {
  new (...args: unknown[]): PlankitError<string>;
  readonly errorName: string;
  isInstance(value: unknown): boolean;
}

const packagesDir = path.resolve(import.meta.dirname, '../..');

/** Every error class the packages export, by export name, from every subpath of every package. */
async function exportedErrorClasses(): Promise<Map<string, ErrorClass>> {
  const found = new Map<string, ErrorClass>();
  for (const dir of await readdir(packagesDir)) {
    const manifest = JSON.parse(
      await readFile(path.join(packagesDir, dir, 'package.json'), 'utf8'),
    );
    for (const subpath of Object.keys(manifest.exports)) {
      if (subpath === './package.json') continue;
      // The workspace links each package, and the source condition resolves it to src.
      const module: Record<string, unknown> = await import(`${manifest.name}${subpath.slice(1)}`);
      for (const [name, value] of Object.entries(module)) {
        if (
          typeof value === 'function' &&
          (value === PlankitError || value.prototype instanceof PlankitError)
        ) {
          expect(found.get(name) ?? value, `${name} names two classes`).toBe(value);
          found.set(name, value as unknown as ErrorClass);
        }
      }
    }
  }
  return found;
}

/** Every class the sources declare below PlankitError, exported or not. */
async function declaredErrorClasses(): Promise<Set<string>> {
  const parents = new Map<string, string>();
  for (const dir of await readdir(packagesDir)) {
    const src = path.join(packagesDir, dir, 'src');
    for (const file of await readdir(src, { recursive: true })) {
      // Tests and their helpers may declare errors of their own; published code may not.
      if (!file.endsWith('.ts') || /\.test(-d)?\.ts$|(^|[\\/])testing[\\/]/.test(file)) continue;
      const text = await readFile(path.join(src, file), 'utf8');
      for (const match of text.matchAll(/\bclass\s+(\w+)(?:<[^{]*?>)?\s+extends\s+(\w+)/g)) {
        const [, child, parent] = match;
        if (child !== undefined && parent !== undefined) parents.set(child, parent);
      }
    }
  }
  const below = (name: string): boolean => {
    const parent = parents.get(name);
    return parent === 'PlankitError' || (parent !== undefined && below(parent));
  };
  return new Set(['PlankitError', ...[...parents.keys()].filter(below)]);
}

const failure = (error: PlankitError<string>): ToolFailure => ({
  ok: false,
  success: false,
  message: `Tool validation failed: ${error.message}`,
  value: null,
  error,
});

/** How to build each class whose constructor is not the base's `(code, message, options)`. */
const BUILD: Readonly<Record<string, (cls: ErrorClass) => PlankitError<string>>> = {
  ToolValidationError: (cls) => new cls('x', { code: 'schema', field: 'f' }),
  AISDKToolError: (cls) => new cls(failure(new ToolValidationError('x', { field: 'f' }))),
  OpenAIAgentsToolError: (cls) => new cls(new ToolValidationError('x', { field: 'f' }), 'x'),
};
const build = (name: string, cls: ErrorClass): PlankitError<string> =>
  (BUILD[name] ?? ((c: ErrorClass) => new c('argument_invalid', 'x', { field: 'f' })))(cls);

describe('every plankit error class', () => {
  let classes = new Map<string, ErrorClass>();
  beforeAll(async () => {
    classes = await exportedErrorClasses();
  }, 60_000);

  it('is exported, and the enumeration finds them all', async () => {
    const declared = await declaredErrorClasses();
    expect([...classes.keys()].sort()).toEqual([...declared].sort());
    // The fourteen classes of today, so a broken scan cannot pass by finding none.
    expect(classes.size).toBeGreaterThanOrEqual(14);
  });

  it('declares its own literal name, equal to its exported name', () => {
    for (const [name, cls] of classes) {
      expect(Object.hasOwn(cls, 'errorName'), `${name} declares no static errorName`).toBe(true);
      expect(cls.errorName, name).toBe(name);
    }
  });

  it("keeps its name and passes its own, and only its own and its parents', isInstance when minified", () => {
    const all = [...classes.values()];
    for (const [name, cls] of classes) {
      const error = minified(all, () => build(name, cls));
      expect(error.name, name).toBe(name);
      expect(error, name).toBeInstanceOf(cls);
      expect(cls.isInstance(error), name).toBe(true);
      expect(PlankitError.isInstance(error), name).toBe(true);
      for (const [other, otherCls] of classes) {
        expect(otherCls.isInstance(error), `${other}.isInstance(new ${name})`).toBe(
          error instanceof otherCls,
        );
      }
    }
  });
});
