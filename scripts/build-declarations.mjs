/**
 * Bundled declarations for one package, without a second type check: every source file is
 * under `isolatedDeclarations` (the root tsconfig), so TypeScript's `transpileDeclaration`
 * writes each file's `.d.ts` from its own text alone, and rollup-plugin-dts bundles them into
 * one `.d.ts` per entry (shared parts in chunks), with dependencies left as imports.
 * `npm run typecheck` has already checked the types; tsup's own declaration build checked
 * them again for every entry, which took most of a pack (four minutes for the adapters).
 *
 *   await buildDeclarations(packageDir, ['src/index.ts', 'src/openai/index.ts'])
 *
 * writes `dist/index.d.ts` and `dist/openai/index.d.ts`. A file that cannot be emitted alone
 * (which the typecheck would already refuse) fails the build with its diagnostics.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TEST_FILE = /\.test(-d)?\.tsx?$/;
// Relative specifiers are written with `.ts` (verbatimModuleSyntax, allowImportingTsExtensions);
// the emitted declarations name the `.js` a published import resolves to.
const TS_SPECIFIER = /((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]+?)\.tsx?(['"])/g;

function compilerOptions() {
  const file = path.join(root, 'tsconfig.json');
  const { config, error } = ts.readConfigFile(file, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, file);
  return { ...options, declaration: true, emitDeclarationOnly: true, noEmit: false };
}

async function* sourceFiles(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '__snapshots__') yield* sourceFiles(full);
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      if (!TEST_FILE.test(entry.name)) yield full;
    }
  }
}

/**
 * Writes `dist/<entry>.d.ts` for each entry of the package in `packageDir`.
 *
 * @param {string} packageDir - the package's folder
 * @param {readonly string[]} entries - its entries, relative to it (`src/index.ts`)
 */
export async function buildDeclarations(packageDir, entries) {
  const options = compilerOptions();
  const src = path.join(packageDir, 'src');
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'plankit-dts-'));
  try {
    const problems = [];
    for await (const file of sourceFiles(src)) {
      const text = await readFile(file, 'utf8');
      const out = ts.transpileDeclaration(text, {
        fileName: file,
        compilerOptions: options,
        reportDiagnostics: true,
      });
      for (const d of out.diagnostics ?? []) {
        problems.push(
          `${path.relative(root, file)}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
        );
      }
      const target = path.join(tmp, path.relative(src, file).replace(/\.tsx?$/, '.d.ts'));
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, out.outputText.replace(TS_SPECIFIER, '$1$2.js$3'));
    }
    if (problems.length > 0) throw new Error(`declarations:\n${problems.join('\n')}`);

    const input = Object.fromEntries(
      entries.map((entry) => {
        const rel = path.relative('src', entry).replace(/\.tsx?$/, '');
        return [rel, path.join(tmp, `${rel}.d.ts`)];
      }),
    );
    const bundle = await rollup({
      input,
      // Anything not relative is a dependency, a peer or another plankit package.
      external: (id) => !id.startsWith('.') && !path.isAbsolute(id),
      plugins: [dts({ respectExternal: false })],
      onwarn(warning, warn) {
        if (warning.code !== 'EMPTY_BUNDLE') warn(warning);
      },
    });
    await bundle.write({
      dir: path.join(packageDir, 'dist'),
      format: 'es',
      entryFileNames: '[name].d.ts',
      // Shared declarations sit beside the entries, named after their first module.
      chunkFileNames: (chunk) => `${chunk.name.replace(/\.d$/, '')}-[hash].d.ts`,
    });
    await bundle.close();
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
