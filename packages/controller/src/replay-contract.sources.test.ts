import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The replay contract (specs/replay-contract.md) holds only if nothing a workflow re-runs reads
// time, randomness or ids on its own. This test reads the code (comments and strings aside) of
// @plankit/core and @plankit/controller and lists every ambient read; each one must be below.

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SOURCES = ['packages/core/src', 'packages/controller/src'];

/**
 * The ambient reads allowed, by file and the code read, with the reason. Each is a documented
 * default a caller replaces with an input, so a workflow that passes its inputs reads none.
 */
const ALLOWED: ReadonlyMap<string, string> = new Map([
  [
    'packages/core/src/session.ts: crypto.randomUUID',
    'the default sessionId of new Session(); a workflow passes its own id (SessionOptions.sessionId)',
  ],
  [
    'packages/core/src/session.ts: Date.now',
    'the default clock of new Session(); a workflow passes its clock (SessionOptions.clock), or `now` per call',
  ],
]);

/** The ambient reads in one file: `Date.now`, `Math.random`, `performance.now`, any `crypto`, `new Date()`. */
function ambientReads(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      const read = `${node.expression.text}.${node.name.text}`;
      if (['Date.now', 'Math.random', 'performance.now'].includes(read)) found.push(read);
      if (node.expression.text === 'crypto') found.push(read);
      if (node.expression.text === 'globalThis' && node.name.text === 'crypto') found.push(read);
    } else if (
      ts.isIdentifier(node) &&
      node.text === 'crypto' &&
      !ts.isPropertyAccessExpression(node.parent)
    ) {
      // `crypto` passed around, destructured or imported (node:crypto) rather than read as `crypto.x`.
      found.push('crypto');
    } else if (
      ts.isNewExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'Date' &&
      (node.arguments === undefined || node.arguments.length === 0)
    ) {
      found.push('new Date()');
    } else if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      /^(node:)?crypto$/.test(node.moduleSpecifier.text)
    ) {
      found.push(`import '${node.moduleSpecifier.text}'`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every source file the contract covers: not the tests, which may read the clock freely. */
function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name) && !/\.test(-d)?\.tsx?$/.test(entry.name)) files.push(path);
  }
  return files;
}

describe('the replay contract in the sources', () => {
  const reads = SOURCES.flatMap((dir) =>
    sourceFiles(join(ROOT, dir)).flatMap((path) => {
      const name = relative(ROOT, path).split('\\').join('/');
      return ambientReads(name, readFileSync(path, 'utf8')).map((read) => `${name}: ${read}`);
    }),
  );

  it('no reducer, machine or tool of core or the controller reads the clock, randomness or crypto, outside the listed defaults', () => {
    expect(reads.filter((read) => !ALLOWED.has(read))).toEqual([]);
  });

  it('every allowed read is still there, so the list says what the code does', () => {
    expect([...new Set(reads)].sort()).toEqual([...ALLOWED.keys()].sort());
  });

  it('finds each kind of ambient read, and none in comments or strings', () => {
    const code = [
      '// Date.now() in a comment, and new Date() too',
      "const text = 'Math.random()';",
      'const a = Date.now();',
      'const b = Math.random();',
      'const c = performance.now();',
      'const d = crypto.randomUUID();',
      'const e = globalThis.crypto;',
      'const f = new Date();',
      'const g = new Date(0);',
      'const { subtle } = crypto;',
      "import { randomUUID } from 'node:crypto';",
    ].join('\n');
    expect(ambientReads('probe.ts', code)).toEqual([
      'Date.now',
      'Math.random',
      'performance.now',
      'crypto.randomUUID',
      'globalThis.crypto',
      'new Date()',
      'crypto',
      "import 'node:crypto'",
    ]);
  });
});
