// Packs every publishable workspace package (its prepack script builds it) and checks it the way
// a consumer gets it: publint and attw on the tarball, then a throwaway app that holds the latest
// major of every host SDK we name as a peer, into which a plain `npm install` adds all tarballs,
// and which imports (ESM) and requires (require(esm)) every subpath in each `exports` map. Each subpath is
// also bundled with esbuild --minify, as Next.js and edge builds do, and every error class it
// exports must keep its name and its isInstance in that bundle. A stylesheet subpath (`.css`)
// is not code: it must resolve to a non-empty file in the installed package.
// Usage: node scripts/check-packages.mjs   (exit code 1 on any failure)
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

// Repo-internal condition: points at ./src/*.ts, which is deliberately not published.
const SOURCE_CONDITION = '@plankit/source';
const ATTW_PROFILE = 'esm-only';
// What that profile ignores (attw's profiles.js); only used to label problems in the report.
const ATTW_IGNORED_RESOLUTIONS = ['node10', 'node16-cjs'];
const PARALLEL = Math.max(1, Math.min(4, os.availableParallelism()));
const MINUTE = 60_000;

const started = performance.now();
const failures = []; // { pkg, step, detail }
let tmp;
const children = new Set();
let interrupted; // set by SIGINT/SIGTERM: kill children, refuse new ones, unwind normally
let packageNames = [];
let aborted = false; // a build or pack failure stops the run before the later checks

const secs = (ms) => `${(ms / 1000).toFixed(1)}s`;
const indent = (text, prefix = '    ') =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
// Keep failure output readable; the end of npm/tsup output is where the error is.
const tail = (text, lines = 25) => text.trimEnd().split('\n').slice(-lines).join('\n');
// A crash in a minified bundle prints whole lines of it; their start says enough.
const clip = (text, width = 300) =>
  text
    .split('\n')
    .map((line) => (line.length > width ? `${line.slice(0, width)}...` : line))
    .join('\n');

function fail(pkg, step, detail) {
  failures.push({ pkg, step, detail });
}

/** Never rejects, so each caller decides what a failure means. */
function run(cmd, args, { cwd = root, timeout = 2 * MINUTE } = {}) {
  return new Promise((resolve) => {
    if (interrupted) {
      resolve({
        ok: false,
        code: null,
        signal: interrupted,
        stdout: '',
        stderr: 'interrupted',
        ms: 0,
      });
      return;
    }
    const t0 = performance.now();
    const child = spawn(cmd, args, {
      cwd,
      timeout,
      stdio: ['ignore', 'pipe', 'pipe'],
      // npm is a .cmd shim on Windows.
      shell: process.platform === 'win32' && cmd === 'npm',
    });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
    });
    let settled = false;
    const done = (code, signal, extra = '') => {
      if (settled) return;
      settled = true;
      children.delete(child);
      const ms = performance.now() - t0;
      const timedOut =
        signal === 'SIGTERM' && ms >= timeout ? ` (timed out after ${secs(timeout)})` : '';
      resolve({ ok: code === 0, code, signal, stdout, stderr: stderr + extra + timedOut, ms });
    };
    child.on('error', (error) => done(null, null, `\n${error.message}`));
    child.on('close', (code, signal) => done(code, signal));
  });
}

const output = (result) =>
  tail(
    [result.stdout, result.stderr]
      .join('\n')
      .replace(/^npm warn Unknown user config.*$/gm, '')
      .replace(/\n{2,}/g, '\n')
      .trim(),
  );

async function mapLimit(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Directories matched by the root `workspaces` globs (`dir` and `dir/*` forms). Expanded here
 * because `npm query .workspace` misses packages that `npm install` has not linked yet.
 */
async function workspaceDirs() {
  const { workspaces = [] } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
  const patterns = Array.isArray(workspaces) ? workspaces : (workspaces.packages ?? []);
  const dirs = [];
  for (const pattern of patterns) {
    const base = pattern.replace(/\/\*$/, '');
    // Refuse other glob forms rather than silently skip packages.
    if (/[*?[\]{}!]/.test(base)) throw new Error(`unsupported workspaces pattern "${pattern}"`);
    const candidates =
      base === pattern
        ? [path.join(root, base)]
        : (await readdir(path.join(root, base), { withFileTypes: true }).catch(() => []))
            .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
            .map((entry) => path.join(root, base, entry.name));
    dirs.push(...candidates.filter((dir) => existsSync(path.join(dir, 'package.json'))));
  }
  return dirs;
}

/** Non-private workspaces, dependencies first so cross-package builds see built deps. */
async function discoverPackages() {
  const all = await Promise.all(
    (await workspaceDirs()).map(async (dir) => {
      const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
      return { name: manifest.name, dir, manifest };
    }),
  );
  const publishable = all.filter((p) => !p.manifest.private);
  const byName = new Map(publishable.map((p) => [p.name, p]));
  const ordered = [];
  const seen = new Set();
  const visit = (p) => {
    if (seen.has(p.name)) return;
    seen.add(p.name);
    const m = p.manifest;
    for (const dep of Object.keys({
      ...m.dependencies,
      ...m.peerDependencies,
      ...m.devDependencies,
    })) {
      const ws = byName.get(dep);
      if (ws) visit(ws);
    }
    ordered.push(p);
  };
  for (const p of [...publishable].sort((a, b) => a.name.localeCompare(b.name))) visit(p);
  return ordered;
}

const isStylesheet = (subpath) => subpath.endsWith('.css');

/** The `.css` subpaths of `exports`: stylesheets a bundler imports, not modules Node can. */
function stylesheetsOf(manifest) {
  const { exports } = manifest;
  if (exports === null || typeof exports !== 'object' || Array.isArray(exports)) return [];
  return Object.keys(exports).filter((key) => isStylesheet(key) && exports[key] !== null);
}

/**
 * Subpaths worth importing: everything in `exports` except ./package.json, patterns, nulls
 * and stylesheets.
 */
function subpathsOf(manifest) {
  const { exports } = manifest;
  if (exports == null) return manifest.main ? ['.'] : [];
  if (typeof exports !== 'object' || Array.isArray(exports)) return ['.'];
  const keys = Object.keys(exports);
  if (!keys.some((key) => key.startsWith('.'))) return ['.']; // conditions-only sugar for "."
  return keys.filter(
    (key) =>
      key !== './package.json' && !key.includes('*') && !isStylesheet(key) && exports[key] !== null,
  );
}

/** Every target of the source condition, as [exportsPath, target]. */
function sourceTargets(value, at = ['exports']) {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) =>
    key === SOURCE_CONDITION && typeof child === 'string'
      ? [[[...at, key], child]]
      : sourceTargets(child, [...at, key]),
  );
}

// publint 0.3 already skips the existence check for a non-JS target under a custom condition, so
// this normally matches nothing. It only excuses "file missing from the tarball" for the
// repo-internal condition (checked against the repo by checkSourceCondition instead), never
// anything else.
const isUnpublishedSourceTarget = (msg) =>
  (msg.code === 'FILE_DOES_NOT_EXIST' || msg.code === 'FILE_NOT_PUBLISHED') &&
  msg.path[0] === 'exports' &&
  msg.path.at(-1) === SOURCE_CONDITION;

function checkSourceCondition(pkg) {
  const lines = [];
  for (const [at, target] of sourceTargets(pkg.manifest.exports)) {
    if (!existsSync(path.join(pkg.dir, target))) {
      lines.push(`${at.join(' > ')} is ${target}, which does not exist in the repo`);
    }
  }
  if (lines.length > 0) fail(pkg.name, SOURCE_CONDITION, lines.join('\n'));
  return lines.length === 0;
}

async function runPublint(pkg) {
  const data = await readFile(pkg.tarball);
  const tarball = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  const { messages, pkg: manifest } = await publint({ pack: { tarball }, level: 'suggestion' });
  const lines = [];
  let bad = 0;
  let excused = 0;
  for (const msg of messages) {
    if (isUnpublishedSourceTarget(msg)) {
      excused++;
      continue;
    }
    if (msg.type !== 'suggestion') bad++;
    lines.push(`${msg.type}: ${formatMessage(msg, manifest, { color: false }) ?? msg.code}`);
  }
  const note = excused ? `, ${excused} ${SOURCE_CONDITION} message(s) excused` : '';
  if (bad > 0) fail(pkg.name, 'publint', lines.join('\n'));
  return { ok: bad === 0, summary: `${bad ? 'FAIL' : 'ok'}${note}`, lines };
}

async function runAttw(pkg, attwBin) {
  // A stylesheet has no types to check; checkShippedFiles checks that it resolves.
  const stylesheets = stylesheetsOf(pkg.manifest);
  const result = await run(process.execPath, [
    attwBin,
    pkg.tarball,
    '--profile',
    ATTW_PROFILE,
    '--format',
    'json',
    ...(stylesheets.length === 0 ? [] : ['--exclude-entrypoints', ...stylesheets]),
  ]);
  let report;
  try {
    report = JSON.parse(result.stdout);
  } catch {
    fail(pkg.name, 'attw', `attw did not produce JSON (exit ${result.code}):\n${output(result)}`);
    return { ok: false, summary: 'FAIL' };
  }
  const { analysis } = report;
  const problems = analysis.problems ?? [];
  const entrypoints = Object.keys(analysis.entrypoints ?? {}).length;
  // attw exits 0 for a package without any types, which is a failure for us.
  if (!analysis.types) {
    fail(pkg.name, 'attw', 'no type declarations found');
    return { ok: false, summary: 'FAIL' };
  }
  // The exit code applies the profile (and any .attw.json); the list is only for the report.
  if (result.code !== 0) {
    const lines = problems.map((p) => {
      const ignored = ATTW_IGNORED_RESOLUTIONS.includes(p.resolutionKind) ? ' [ignored]' : '';
      return `${p.kind} at "${p.entrypoint ?? '?'}" (${p.resolutionKind ?? 'any'})${ignored}`;
    });
    fail(pkg.name, 'attw', `profile ${ATTW_PROFILE}:\n${lines.join('\n')}`);
    return { ok: false, summary: 'FAIL' };
  }
  const ignored = problems.length ? `, ${problems.length} ignored by profile` : '';
  return { ok: true, summary: `ok (${entrypoints} entrypoints, ${ATTW_PROFILE}${ignored})` };
}

// One line per failure instead of a stack trace; the count goes to stdout.
const checkCode = (load) => `let n;
try {
  n = Object.keys(${load}).length;
} catch (e) {
  console.error(e instanceof Error ? \`\${e.code ?? e.name}: \${e.message}\` : String(e));
  process.exit(1);
}
if (n === 0) {
  console.error('module has no exports');
  process.exit(1);
}
console.log(n);
`;
const ESM_CHECK = checkCode('await import(process.argv[1])');
const CJS_CHECK = checkCode('require(process.argv[2])');

// The entry of a minified bundle of one subpath: every error class it exports is built, and
// must keep its literal name and pass its own and the base class's isInstance, though the
// minifier renamed the class. The installed (unbundled) copy of the subpath, which the bundle
// does not inline (its specifier is not a literal), must recognise the bundled errors and the
// other way round, as two copies in one app do. One line per failure on stderr; on success
// the checked names, each marked `*` when the minifier renamed the class.
const bundleEntry = (spec) => `import * as entry from ${JSON.stringify(spec)};
import { PlankitError, ToolValidationError } from '@plankit/core';

const spec = ${JSON.stringify(spec)};
const installed = await import(spec);
const failure = (error) => ({
  ok: false,
  success: false,
  message: \`Tool validation failed: \${error.message}\`,
  value: null,
  error,
});
// How to build each class whose constructor is not the base's (code, message, options).
const BUILD = {
  ToolValidationError: (C) => new C('x', { code: 'schema', field: 'f' }),
  AISDKToolError: (C) => new C(failure(new ToolValidationError('x'))),
  OpenAIAgentsToolError: (C) => new C(new ToolValidationError('x'), 'x'),
  ACPSessionError: (C) => new C('session_not_found', 'x', { sessionId: 's' }),
};
const problems = [];
const checked = [];
for (const [name, C] of Object.entries(entry)) {
  if (typeof C !== 'function' || !(C === PlankitError || C.prototype instanceof PlankitError)) {
    continue;
  }
  const build = BUILD[name] ?? ((c) => new c('argument_invalid', 'x'));
  let error;
  let other;
  try {
    error = build(C);
    other = build(installed[name]);
  } catch (e) {
    problems.push(\`new \${name}(...) threw: \${e instanceof Error ? e.message : String(e)}\`);
    continue;
  }
  const expect = (ok, what) => {
    if (ok !== true) problems.push(\`\${name}: \${what}\`);
  };
  expect(error.name === name, \`new \${name}(...).name is \${JSON.stringify(error.name)}\`);
  expect(C.isInstance(error), \`\${name}.isInstance(new \${name}(...)) is false\`);
  expect(PlankitError.isInstance(error), \`PlankitError.isInstance(new \${name}(...)) is false\`);
  expect(installed[name].isInstance(error), 'the installed copy does not recognise the bundled error');
  expect(C.isInstance(other), 'the bundled copy does not recognise the installed error');
  expect(C.name !== name, 'the minifier kept the class name, so this proves nothing');
  checked.push(name);
}
if (problems.length > 0) {
  console.error(problems.join('\\n'));
  process.exit(1);
}
console.log(checked.join(' '));
`;

// What a user reads from the installed package must stand alone: every source map carries its
// sources (the tarball ships no src/), the README links nowhere outside the tarball, and every
// stylesheet subpath resolves, as a bundler resolves it, to a file with CSS in it.
async function checkShippedFiles(dir, pkgs) {
  const resolveFromApp = createRequire(path.join(dir, 'package.json')).resolve;
  for (const p of pkgs) {
    for (const sub of stylesheetsOf(p.manifest)) {
      const spec = `${p.name}/${sub.slice(2)}`;
      let css = '';
      try {
        css = await readFile(resolveFromApp(spec), 'utf8');
      } catch (error) {
        fail(p.name, 'stylesheet', `${spec} does not resolve to a file: ${error.message}`);
        continue;
      }
      if (css.trim() === '') fail(p.name, 'stylesheet', `${spec} is empty`);
      else console.log(`shipped  ${spec}  ${css.length} bytes of CSS`);
    }
    const installed = path.join(dir, 'node_modules', ...p.name.split('/'));
    const maps = (await readdir(path.join(installed, 'dist'), { recursive: true })).filter((name) =>
      name.endsWith('.map'),
    );
    for (const name of maps) {
      const map = JSON.parse(await readFile(path.join(installed, 'dist', name), 'utf8'));
      const carried = (map.sourcesContent ?? []).filter((text) => typeof text === 'string');
      if (carried.length !== map.sources.length) {
        fail(
          p.name,
          'source maps',
          `dist/${name} carries ${carried.length} of ${map.sources.length} sources`,
        );
      }
    }
    const readme = await readFile(path.join(installed, 'README.md'), 'utf8').catch(() => '');
    const relative = [...readme.matchAll(/\]\((?!https?:|#|mailto:)([^)]+)\)/g)].map((m) => m[1]);
    if (readme === '') fail(p.name, 'readme', 'the tarball has no README.md');
    if (relative.length > 0) {
      fail(
        p.name,
        'readme',
        `relative links that the tarball cannot resolve: ${relative.join(', ')}`,
      );
    }
    console.log(
      `shipped  ${p.name}  ${maps.length} source map(s) with sources, README links absolute`,
    );
  }
}

/**
 * Outside a bundler (no `*.css` declared by a bundler's types), TypeScript refuses a side-effect
 * import it cannot resolve to a module or its types. Every stylesheet subpath must type-check
 * as `import '<subpath>'` under Node's resolution and a bundler's, with TypeScript 6 and 7.
 */
async function checkStylesheetTypes(dir, pkgs) {
  const specs = pkgs.flatMap((p) =>
    stylesheetsOf(p.manifest).map((sub) => `${p.name}/${sub.slice(2)}`),
  );
  if (specs.length === 0) return;
  const file = path.join(dir, 'stylesheets.mts');
  await writeFile(file, specs.map((spec) => `import ${JSON.stringify(spec)};\n`).join(''));
  // Both TypeScripts apps use today: 6 (the JS compiler) and 7 (the native one).
  for (const [version, pkg] of [
    ['6', 'typescript'],
    ['7', 'typescript-7'],
  ]) {
    const tsc = path.join(root, 'node_modules', pkg, 'bin/tsc');
    for (const [module, resolution] of [
      ['nodenext', 'nodenext'],
      ['preserve', 'bundler'],
    ]) {
      const project = path.join(dir, `tsconfig.stylesheets.${resolution}.json`);
      const compilerOptions = { noEmit: true, strict: true, skipLibCheck: true, types: [] };
      Object.assign(compilerOptions, { module, moduleResolution: resolution });
      await writeFile(project, JSON.stringify({ compilerOptions, files: [file] }));
      const result = await run(process.execPath, [tsc, '-p', project], {
        cwd: dir,
        timeout: MINUTE,
      });
      if (!result.ok)
        fail(
          '(stylesheets)',
          'stylesheet types',
          `TypeScript ${version} (${resolution}):\n${output(result)}`,
        );
      else
        console.log(
          `typed    ${specs.join(', ')}  (TypeScript ${version}, ${resolution} resolution)`,
        );
    }
  }
}

/**
 * Bundles each subpath minified, as an app's build does: everything but the host SDKs we name
 * as peers, which the app installs itself. Then runs each bundle (see bundleEntry).
 */
async function bundleTest(dir, pkgs, jobs) {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch (error) {
    fail('(all)', 'bundle', `esbuild could not be loaded: ${error.message}`);
    return [];
  }
  const external = [
    ...new Set(pkgs.flatMap((p) => Object.keys(p.manifest.peerDependencies ?? {}))),
  ];
  const bundles = path.join(dir, 'bundles');
  await mkdir(bundles);
  const built = [];
  for (const [i, job] of jobs.entries()) {
    const entry = path.join(bundles, `entry-${i}.mjs`);
    const outfile = path.join(bundles, `bundle-${i}.mjs`);
    await writeFile(entry, bundleEntry(job.spec));
    try {
      await esbuild.build({
        entryPoints: [entry],
        outfile,
        bundle: true,
        minify: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        external,
        // Bundled CommonJS dependencies (yaml) require node built-ins, which ESM output lacks.
        banner: {
          js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
        },
        logLevel: 'silent',
      });
      built.push({ job, outfile });
    } catch (error) {
      fail(job.pkg, 'bundle', `esbuild --minify of ${job.spec}:\n${tail(error.message)}`);
    }
  }
  const rows = await mapLimit(built, PARALLEL, async ({ job, outfile }) => {
    const result = await run(process.execPath, [outfile], { cwd: dir, timeout: MINUTE });
    if (!result.ok) fail(job.pkg, 'bundle', `minified ${job.spec}:\n${clip(output(result))}`);
    const names = result.ok ? result.stdout.trim().split(/\s+/).filter(Boolean) : [];
    return { ...job, ok: result.ok, names };
  });
  if (rows.every((r) => r.names.length === 0)) {
    fail('(all)', 'bundle', 'no error class found in any bundle');
  }
  return rows;
}

const INSTALL_ARGS = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'];

/**
 * The throwaway app, with the latest major of every host SDK we name as a peer installed: a
 * user's app already holds those. Mostly network and disk, so main() starts it before packing,
 * which is mostly CPU.
 */
async function hostApp(pkgs) {
  const dir = path.join(tmp, 'smoke');
  await mkdir(dir);
  await writeFile(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: 'plankit-smoke', private: true }, null, 2)}\n`,
  );
  await writeFile(path.join(dir, 'check.cjs'), CJS_CHECK);
  const names = new Set(pkgs.map((p) => p.name));
  const peers = new Set();
  for (const p of pkgs) {
    for (const name of Object.keys(p.manifest.peerDependencies ?? {})) {
      if (!names.has(name)) peers.add(name);
    }
  }
  const hostSpecs = [...peers].sort().map((name) => `${name}@latest`);
  const hosts = await run('npm', [...INSTALL_ARGS, ...hostSpecs], {
    cwd: dir,
    timeout: 6 * MINUTE,
  });
  return { dir, hosts, hostSpecs };
}

async function smokeTest(pkgs, app) {
  // Then our tarballs with a plain `npm install`, so a peer range that refuses a current major
  // fails here with npm's ERESOLVE exactly as it would for the user.
  const { dir, hosts, hostSpecs } = await app;
  if (!hosts.ok) {
    fail('(all)', 'smoke npm install (host latest majors)', output(hosts));
    return { install: hosts, peers: hostSpecs, rows: [] };
  }
  const install = await run('npm', [...INSTALL_ARGS, ...pkgs.map((p) => p.tarball)], {
    cwd: dir,
    timeout: 3 * MINUTE,
  });
  install.ms += hosts.ms;
  if (!install.ok) {
    fail('(all)', 'smoke npm install (tarballs)', output(install));
    return { install, peers: hostSpecs, rows: [] };
  }

  await checkShippedFiles(dir, pkgs);
  await checkStylesheetTypes(dir, pkgs);

  const jobs = pkgs.flatMap((p) =>
    subpathsOf(p.manifest).map((sub) => ({
      pkg: p.name,
      spec: sub === '.' ? p.name : `${p.name}/${sub.slice(2)}`,
    })),
  );
  for (const p of pkgs) {
    if (subpathsOf(p.manifest).length === 0) fail(p.name, 'smoke', 'no importable subpaths');
  }
  const node = (args) => run(process.execPath, args, { cwd: dir, timeout: MINUTE });
  const rows = await mapLimit(jobs, PARALLEL, async (job) => {
    const [esm, cjs] = await Promise.all([
      node(['--input-type=module', '-e', ESM_CHECK, job.spec]),
      // require(esm) is unflagged from Node 20.19; some versions still warn about it.
      node(['--disable-warning=ExperimentalWarning', 'check.cjs', job.spec]),
    ]);
    const count = (r) => (r.ok ? `${r.stdout.trim().split('\n').at(-1)} exports` : 'FAIL');
    if (!esm.ok) fail(job.pkg, 'smoke import', `import('${job.spec}'):\n${output(esm)}`);
    if (!cjs.ok) fail(job.pkg, 'smoke require', `require('${job.spec}'):\n${output(cjs)}`);
    return { ...job, esm: count(esm), cjs: count(cjs) };
  });
  const bundles = await bundleTest(dir, pkgs, jobs);
  return { install, peers: hostSpecs, rows, bundles };
}

async function main() {
  const pkgs = await discoverPackages();
  if (pkgs.length === 0) {
    fail('(repo)', 'discover', 'no publishable (non-private) workspace packages found');
    return;
  }
  packageNames = pkgs.map((p) => p.name);
  console.log(`check-packages: ${packageNames.join(', ')}`);

  // No build step of its own: each package's `prepack` builds it, so this packs the way a
  // maintainer's plain `npm pack` or `npm publish` does. Removing dist first proves the
  // tarball's dist comes from that build, not from a stale one left in the tree.
  for (const p of pkgs) rmSync(path.join(p.dir, 'dist'), { recursive: true, force: true });

  tmp = await mkdtemp(path.join(os.tmpdir(), 'plankit-check-'));
  const app = hostApp(pkgs);
  const packDir = path.join(tmp, 'pack');
  await mkdir(packDir);
  // One `npm pack` per package, PARALLEL at a time: each prepack build is one TypeScript
  // program for the declarations, on one core.
  // The timeouts only stop a hung build or install: the builds share the cores with each
  // other and with the host install.
  const packs = await mapLimit(pkgs, PARALLEL, (p) =>
    run('npm', ['pack', '--json', '--pack-destination', packDir, '-w', p.name], {
      timeout: 15 * MINUTE,
    }),
  );
  for (const [i, p] of pkgs.entries()) {
    const pack = packs[i];
    let packed;
    try {
      // Lifecycle scripts may print before the JSON; it starts at a line holding only "[".
      packed = JSON.parse(pack.stdout.slice(Math.max(0, pack.stdout.search(/^\[\s*$/m))));
    } catch {
      packed = undefined;
    }
    if (!pack.ok || !Array.isArray(packed)) {
      fail(p.name, 'npm pack', output(pack));
      aborted = true;
      continue;
    }
    const entry = packed.find((e) => e.name === p.name);
    if (!entry) {
      fail(p.name, 'npm pack', 'not in npm pack output');
      aborted = true;
      continue;
    }
    if (!entry.files?.some((file) => file.path.startsWith('dist/'))) {
      fail(p.name, 'npm pack', 'the tarball has no dist/: is the prepack build missing?');
      aborted = true;
      continue;
    }
    p.tarball = path.join(packDir, entry.filename);
    const kb = (entry.size / 1024).toFixed(1);
    console.log(`pack     ${p.name}  ${entry.filename} (${entry.entryCount} files, ${kb} kB)`);
  }
  if (aborted) {
    // Let the host install end before the folder it writes to is removed.
    await app;
    return;
  }

  const attwBin = path.resolve(
    path.dirname(require.resolve('@arethetypeswrong/cli/package.json')),
    require('@arethetypeswrong/cli/package.json').bin.attw,
  );
  // Linting (CPU) overlaps with the smoke install (mostly I/O).
  const [lints, smoke] = await Promise.all([
    mapLimit(pkgs, PARALLEL, async (p) => {
      const sourceOk = checkSourceCondition(p);
      const [pub, attw] = await Promise.all([runPublint(p), runAttw(p, attwBin)]);
      return { p, sourceOk, pub, attw };
    }),
    smokeTest(pkgs, app),
  ]);

  for (const { p, sourceOk, pub, attw } of lints) {
    const targets = sourceTargets(p.manifest.exports).length;
    if (targets)
      console.log(`source   ${p.name}  ${sourceOk ? 'ok' : 'FAIL'} (targets exist in repo)`);
    console.log(`publint  ${p.name}  ${pub.summary}`);
    if (pub.ok && pub.lines.length) console.log(indent(pub.lines.join('\n')));
    console.log(`attw     ${p.name}  ${attw.summary}`);
  }
  const peers = smoke.peers.length ? ` + ${smoke.peers.join(', ')}` : '';
  const installed = smoke.install.ok ? 'ok' : 'FAIL';
  console.log(
    `install  ${pkgs.length} tarball(s)${peers}  ${installed} (${secs(smoke.install.ms)})`,
  );
  const width = Math.max(0, ...smoke.rows.map((r) => r.spec.length));
  for (const r of smoke.rows) {
    console.log(`smoke    ${r.spec.padEnd(width)}  import: ${r.esm}, require: ${r.cjs}`);
  }
  for (const r of smoke.bundles ?? []) {
    const errors = r.names.length ? r.names.join(' ') : 'no error classes';
    console.log(`bundle   ${r.spec.padEnd(width)}  minified: ${r.ok ? errors : 'FAIL'}`);
  }
}

function cleanup() {
  if (!tmp) return;
  try {
    // Retries cover a killed npm that is still letting go of files.
    rmSync(tmp, { recursive: true, force: true, maxRetries: 5 });
  } catch (error) {
    console.error(`warning: could not remove ${tmp}: ${error.message}`);
  }
  tmp = undefined;
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (interrupted) {
      // Second signal: stop waiting for children.
      cleanup();
      process.exit(130);
    }
    interrupted = signal;
    for (const child of children) child.kill();
  });
}

try {
  await main();
} catch (error) {
  fail(
    '(script)',
    'crash',
    error instanceof Error ? (error.stack ?? error.message) : String(error),
  );
} finally {
  cleanup();
}

const time = secs(performance.now() - started);
if (interrupted) {
  console.error(`\ninterrupted by ${interrupted} (${time})`);
  process.exitCode = interrupted === 'SIGINT' ? 130 : 143;
} else if (failures.length === 0) {
  console.log(`\npackages: ${packageNames.length} ok (${time})`);
} else {
  console.error('');
  // Package order, not completion order.
  const rank = (f) => packageNames.indexOf(f.pkg);
  failures.sort((a, b) => rank(a) - rank(b));
  for (const f of failures) console.error(`FAIL ${f.pkg} [${f.step}]\n${indent(f.detail)}`);
  const failed = packageNames.filter((n) => failures.some((f) => f.pkg === n));
  // A failure not tied to one package ("(all)", "(script)") leaves no package verified.
  const shared = failures.some((f) => !packageNames.includes(f.pkg));
  const summary =
    aborted || shared
      ? `${failed.length} failed, ${packageNames.length - failed.length} not fully checked`
      : `${packageNames.length - failed.length} ok, ${failed.length} failed`;
  console.error(`\npackages: ${summary} (${time})`);
  process.exitCode = 1;
}
