/**
 * `node scripts/check-size.mjs`: bundles every published entry (each package's `exports`,
 * except `./package.json`) from its sources with esbuild, minified ESM with the package's
 * dependencies and peer dependencies external, gzips the result and compares it with the
 * budget in scripts/size-budgets.json. Prints a table; exits 1 when an entry is over its
 * budget or has none. The size is the package's own code: what a bundler adds to an app that
 * already has the dependencies. `--verbose` lists each entry's largest source files, from
 * esbuild's metafile.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const budgets = JSON.parse(readFileSync(path.join(root, 'scripts', 'size-budgets.json'), 'utf8'));
const verbose = process.argv.includes('--verbose');

/** `{ name, key, file, external }` for every published entry of every package. */
function entries() {
  const out = [];
  const packages = path.join(root, 'packages');
  for (const dir of readdirSync(packages, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    const home = path.join(packages, dir.name);
    let manifest;
    try {
      manifest = JSON.parse(readFileSync(path.join(home, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    if (manifest.private === true || manifest.exports === undefined) continue;
    const external = [
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ].flatMap((name) => [name, `${name}/*`]);
    for (const [key, target] of Object.entries(manifest.exports)) {
      if (key === './package.json') continue;
      const source = typeof target === 'object' ? target['@plankit/source'] : undefined;
      if (typeof source !== 'string')
        throw new Error(`${manifest.name} ${key}: no @plankit/source`);
      out.push({ name: manifest.name, key, file: path.join(home, source), external });
    }
  }
  return out;
}

async function measure({ file, external }) {
  const result = await esbuild.build({
    entryPoints: [file],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    conditions: ['@plankit/source'],
    external,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  const [meta] = Object.values(result.metafile.outputs);
  const inputs = Object.entries(meta.inputs)
    .map(([name, { bytesInOutput }]) => ({ name, bytes: bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes);
  return {
    min: output.contents.length,
    gzip: gzipSync(output.contents, { level: 9 }).length,
    inputs,
  };
}

const kb = (bytes) => `${(bytes / 1024).toFixed(2)} KB`;

const rows = [];
let failed = 0;
for (const entry of entries()) {
  const { min, gzip, inputs } = await measure(entry);
  const budget = budgets[entry.name]?.[entry.key];
  const status = budget === undefined ? 'NO BUDGET' : gzip <= budget ? 'ok' : 'OVER';
  if (status !== 'ok') failed++;
  rows.push([
    `${entry.name}${entry.key === '.' ? '' : entry.key.slice(1)}`,
    kb(min),
    kb(gzip),
    budget === undefined ? '-' : kb(budget),
    budget === undefined ? '-' : `${((100 * gzip) / budget).toFixed(0)}%`,
    status,
  ]);
  if (verbose) {
    for (const { name, bytes } of inputs.slice(0, 8))
      rows.push([`  ${name}`, kb(bytes), '', '', '', '']);
  }
}

const header = ['entry', 'min', 'min+gz', 'budget', 'used', 'status'];
const widths = header.map((title, i) =>
  Math.max(title.length, ...rows.map((row) => row[i].length)),
);
const line = (cells) =>
  cells
    .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
    .join('  ')
    .trimEnd();
console.log(line(header));
console.log(widths.map((width) => '-'.repeat(width)).join('  '));
for (const row of rows) console.log(line(row));
console.log('');
console.log(
  'Own code only (dependencies and peer dependencies external), esbuild --minify, ESM, gzip -9. ' +
    'Budgets: scripts/size-budgets.json (bytes of min+gz).',
);
if (failed > 0) {
  console.error(`${failed} entr${failed === 1 ? 'y is' : 'ies are'} over budget or without one.`);
  process.exit(1);
}
