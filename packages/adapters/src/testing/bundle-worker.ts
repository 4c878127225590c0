import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

/** The repository root: relative worker paths start there. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Where the bundled workers go: inside the repository, so their imports find `node_modules`. */
const BUNDLES = path.join(ROOT, 'node_modules', '.cache', 'plankit-workers');

/** Every npm package a manifest of the workspace names, and its subpaths: left as imports. */
function npmPackages(): string[] {
  const manifests = [path.join(ROOT, 'package.json')];
  for (const group of ['packages', 'examples']) {
    for (const entry of readdirSync(path.join(ROOT, group), { withFileTypes: true })) {
      const file = path.join(ROOT, group, entry.name, 'package.json');
      if (entry.isDirectory() && existsSync(file)) manifests.push(file);
    }
  }
  const names = new Set<string>();
  for (const file of manifests) {
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    for (const field of ['dependencies', 'devDependencies', 'peerDependencies']) {
      const deps = manifest[field];
      if (typeof deps !== 'object' || deps === null) continue;
      for (const name of Object.keys(deps)) {
        if (!name.startsWith('@plankit/')) names.add(name);
      }
    }
  }
  return [...names].flatMap((name) => [name, `${name}/*`]);
}

const bundled = new Map<string, string>();

/**
 * The worker `file` and the workspace sources it imports, bundled into one ES module, once per
 * test process: a child then starts on plain JavaScript in about a fifth of the CPU time that
 * loading `tsx` and transforming every source file took, and a file starts dozens of them. npm
 * packages stay imports, so each child loads the same copies an app would. The bundle is named
 * by its content, so test processes running at once share it and never see a partial file.
 */
export function bundleWorker(file: string): string {
  const entry = path.resolve(ROOT, file);
  const known = bundled.get(entry);
  if (known !== undefined) return known;
  const result = buildSync({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@plankit/source'],
    external: npmPackages(),
    // A CommonJS package bundled by accident still finds `require`.
    banner: {
      js: "import { createRequire as __plankitRequire } from 'node:module'; const require = __plankitRequire(import.meta.url);",
    },
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text ?? '';
  const name = `${path.basename(entry).replace(/\.tsx?$/, '')}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
  const out = path.join(BUNDLES, name);
  if (!existsSync(out)) {
    mkdirSync(BUNDLES, { recursive: true });
    const partial = `${out}.${process.pid}.tmp`;
    writeFileSync(partial, code);
    renameSync(partial, out);
  }
  bundled.set(entry, out);
  return out;
}
