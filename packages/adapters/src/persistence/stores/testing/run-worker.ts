import { type ChildProcess, spawn } from 'node:child_process';
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

/** The repository root: workers run from there so the workspace packages resolve. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../..');

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

/** A worker process running a TypeScript file from the sources. */
export interface Worker {
  readonly child: ChildProcess;
  /** Every complete line the worker printed so far. */
  readonly lines: string[];
  /** Resolves with the first printed line matching `match`, or rejects when the worker exits. */
  waitFor(match: RegExp | ((line: string) => boolean)): Promise<string>;
  /** Resolves when the worker has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/**
 * Starts `node <file, bundled> <config as JSON>` (see {@link bundleWorker}); `file` is absolute
 * or relative to the repository. The worker is killed if it outlives `timeoutMs`, so a hung
 * worker fails the test instead of hanging it.
 */
export function startWorker(file: string, config: unknown, timeoutMs = 60_000): Worker {
  const child = spawn(
    process.execPath,
    ['--conditions=@plankit/source', bundleWorker(file), JSON.stringify(config)],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], timeout: timeoutMs, killSignal: 'SIGKILL' },
  );
  const lines: string[] = [];
  const listeners = new Set<() => void>();
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    const parts = stdout.split('\n');
    stdout = parts.pop() ?? '';
    lines.push(...parts);
    for (const listener of listeners) listener();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stderr: string;
  }>((resolve) => {
    child.on('close', (code, signal) => {
      for (const listener of listeners) listener();
      resolve({ code, signal, stderr });
    });
  });
  let done = false;
  void exited.then(() => {
    done = true;
  });
  return {
    child,
    lines,
    exited,
    waitFor(match: RegExp | ((line: string) => boolean)): Promise<string> {
      const test = typeof match === 'function' ? match : (line: string) => match.test(line);
      return new Promise((resolve, reject) => {
        const check = () => {
          const line = lines.find(test);
          if (line !== undefined) {
            listeners.delete(check);
            resolve(line);
          } else if (done || child.exitCode !== null || child.signalCode !== null) {
            listeners.delete(check);
            reject(
              new Error(`worker exited before printing ${String(match)}: ${stderr.slice(-2000)}`),
            );
          }
        };
        listeners.add(check);
        check();
      });
    },
  };
}
