/**
 * `node scripts/check-size.mjs`: bundles every published entry (each package's `exports`,
 * except `./package.json`) from its sources with esbuild, minified ESM with the package's
 * dependencies and peer dependencies external, gzips the result and compares it with the
 * budget in scripts/size-budgets.json. Prints a table; exits 1 when an entry is over its
 * budget or has none (`--ratchet` first sets every budget to its size plus 10%). The size is the package's own code: what a bundler adds to an app that
 * already has the dependencies. `--verbose` lists each entry's largest source files, from
 * esbuild's metafile.
 *
 * A budget is a number (bytes of min+gz) or `{ "budget": n, "goal": m }`: the budget fails the
 * check, the goal is reported (`goal missed`) without failing it, for a target not yet met.
 * `$imports` lists what an app that imports only some names pays: each is bundled from
 * `import { ...names } from 'package'` (and `alsoFrom` the package's other entries) with tree
 * shaking, under its own budget and goal; `mustNotBundle` names source folders that must not
 * be in it (a part the app did not import).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const budgets = JSON.parse(readFileSync(path.join(root, 'scripts', 'size-budgets.json'), 'utf8'));
const verbose = process.argv.includes('--verbose');
// `--ratchet` sets every budget to its measured size plus 10% (goals stay): run it once per
// release to lower budgets, or in the commit that needs more room, and say why there.
const ratchet = process.argv.includes('--ratchet');
const HEADROOM = 1.1;

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

async function measure({ file, external, stdin }) {
  const result = await esbuild.build({
    ...(stdin === undefined
      ? { entryPoints: [file] }
      : { stdin: { contents: stdin, resolveDir: root, sourcefile: 'imports.js' } }),
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

/** `{ budget, goal }` from a number or an object; undefined when there is none. */
function limitsOf(value) {
  if (value === undefined) return undefined;
  return typeof value === 'number' ? { budget: value, goal: undefined } : value;
}

const rows = [];
let failed = 0;
let missedGoals = 0;
function report(label, { min, gzip, inputs }, limits, target) {
  if (ratchet && target !== undefined) {
    const budget = Math.ceil(gzip * HEADROOM);
    if (typeof target.holder[target.key] === 'number') target.holder[target.key] = budget;
    else target.holder[target.key] = { ...target.holder[target.key], budget };
    limits = { goal: limits?.goal, budget };
  }
  const status =
    limits === undefined
      ? 'NO BUDGET'
      : gzip > limits.budget
        ? 'OVER'
        : limits.goal !== undefined && gzip > limits.goal
          ? 'goal missed'
          : 'ok';
  if (status === 'NO BUDGET' || status === 'OVER') failed++;
  if (status === 'goal missed') missedGoals++;
  rows.push([
    label,
    kb(min),
    kb(gzip),
    limits === undefined ? '-' : kb(limits.budget),
    limits === undefined ? '-' : `${((100 * gzip) / limits.budget).toFixed(0)}%`,
    limits?.goal === undefined ? '-' : kb(limits.goal),
    status,
  ]);
  if (verbose) {
    for (const { name, bytes } of inputs.slice(0, 8))
      rows.push([`  ${name}`, kb(bytes), '', '', '', '', '']);
  }
}

const all = entries();
for (const entry of all) {
  const label = `${entry.name}${entry.key === '.' ? '' : entry.key.slice(1)}`;
  const holder = budgets[entry.name];
  const target = holder?.[entry.key] === undefined ? undefined : { holder, key: entry.key };
  report(label, await measure(entry), limitsOf(holder?.[entry.key]), target);
}
for (const scenario of budgets.$imports ?? []) {
  const entry = all.find((e) => e.name === scenario.from && e.key === '.');
  if (entry === undefined)
    throw new Error(`$imports ${scenario.name}: no package ${scenario.from}`);
  const lines = [`export { ${scenario.imports.join(', ')} } from ${JSON.stringify(entry.file)};`];
  for (const [key, names] of Object.entries(scenario.alsoFrom ?? {})) {
    const other = all.find((e) => e.name === scenario.from && e.key === key);
    if (other === undefined) throw new Error(`$imports ${scenario.name}: no entry ${key}`);
    lines.push(`export { ${names.join(', ')} } from ${JSON.stringify(other.file)};`);
  }
  const result = await measure({ ...entry, stdin: lines.join('\n') });
  report(`${scenario.name} (tree-shaken)`, result, limitsOf(scenario), {
    holder: scenario,
    key: 'budget',
  });
  // What an app that does not import a part must not pay for: no source under these folders.
  for (const folder of scenario.mustNotBundle ?? []) {
    const bundled = result.inputs.filter(({ name }) => name.includes(folder));
    if (bundled.length > 0) {
      failed++;
      rows.push([
        `  BUNDLES ${folder}: ${bundled.map(({ name }) => name).join(', ')}`,
        '',
        '',
        '',
        '',
        '',
        'OVER',
      ]);
    }
  }
}

if (ratchet) {
  const file = path.join(root, 'scripts', 'size-budgets.json');
  writeFileSync(file, `${JSON.stringify(budgets, null, 2)}\n`);
  console.log(`Budgets set to measured size plus ${Math.round((HEADROOM - 1) * 100)}% in ${file}.`);
}

const header = ['entry', 'min', 'min+gz', 'budget', 'used', 'goal', 'status'];
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
if (missedGoals > 0) {
  console.log(
    `${missedGoals} entr${missedGoals === 1 ? 'y is' : 'ies are'} within budget but over goal; docs/performance.md says why.`,
  );
}
if (failed > 0) {
  console.error(`${failed} entr${failed === 1 ? 'y is' : 'ies are'} over budget or without one.`);
  process.exit(1);
}
