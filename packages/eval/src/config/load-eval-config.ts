import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';
import { PlankitEvalError } from '../plankit-eval-error.ts';
import type { EvalConfig } from './define-eval.ts';
import { checkEvalConfig } from './eval-config-schema.ts';

/** The packages whose objects cross between the config and the runner. */
const SHARED_PACKAGES = [
  '@plankit/core',
  '@plankit/prompt',
  '@plankit/controller',
  '@plankit/adapters',
  '@plankit/eval',
] as const;

/** How Node would run a config file, and why. */
interface ConfigForm {
  readonly format: 'module' | 'commonjs';
  readonly typescript: boolean;
  /** Why CommonJS, for a refusal: the extension, or the package.json that says so. */
  readonly reason: string;
  /** The package.json that made it CommonJS; null when the extension did, or there is none. */
  readonly packageJson: string | null;
}

/** The nearest package.json above `file` and its `type`, as Node looks it up. */
function packageScope(file: string): { readonly path: string | null; readonly type: unknown } {
  let folder = dirname(file);
  for (;;) {
    const candidate = join(folder, 'package.json');
    if (existsSync(candidate)) {
      try {
        return {
          path: candidate,
          type: (JSON.parse(readFileSync(candidate, 'utf8')) as { type?: unknown }).type,
        };
      } catch {
        return { path: candidate, type: undefined };
      }
    }
    const parent = dirname(folder);
    if (parent === folder) return { path: null, type: undefined };
    folder = parent;
  }
}

function configForm(file: string, shown: string): ConfigForm {
  const extension = extname(file);
  switch (extension) {
    case '.mts':
    case '.mjs':
      return { format: 'module', typescript: extension === '.mts', reason: '', packageJson: null };
    case '.cts':
    case '.cjs':
      return {
        format: 'commonjs',
        typescript: extension === '.cts',
        reason: `a ${extension} file is CommonJS`,
        packageJson: null,
      };
    case '.ts':
    case '.js': {
      const scope = packageScope(file);
      const typescript = extension === '.ts';
      if (scope.type === 'module')
        return { format: 'module', typescript, reason: '', packageJson: null };
      const reason =
        scope.path === null
          ? 'no package.json above it says "type": "module"'
          : `${scope.path} has no "type": "module"`;
      return { format: 'commonjs', typescript, reason, packageJson: scope.path };
    }
    default:
      throw new PlankitEvalError(
        'config_load_failed',
        `plankit-eval: ${shown}: a config is a .mts, .ts, .mjs, .js or .cjs file, not ${extension === '' ? 'a file without an extension' : extension}.`,
      );
  }
}

/** Where each shared package this process runs lives, to find copies of it loaded elsewhere. */
function sharedPackageFolders(): ReadonlyMap<string, string> {
  const folders = new Map<string, string>();
  for (const name of SHARED_PACKAGES) {
    try {
      folders.set(dirname(fileURLToPath(import.meta.resolve(`${name}/package.json`))) + sep, name);
    } catch {
      // Not resolvable from here, so the runner does not use it either.
    }
  }
  return folders;
}

/**
 * The first shared package a module of which ran as CommonJS. Every plankit package is an ES
 * module only, so Node's own `require` of one gives the namespace `import` gave this process; a
 * CommonJS `exports` object there means something (tsx's require hook does) compiled the module
 * again: a second copy, whose classes and brands the runner's do not recognise.
 */
function secondCopy(): { readonly name: string; readonly file: string } | null {
  const folders = sharedPackageFolders();
  const cache = createRequire(import.meta.url).cache;
  for (const [key, module] of Object.entries(cache)) {
    if (module === undefined) continue;
    const file = key.split('?')[0] as string;
    // Code only: a package.json or other JSON file is CommonJS data in any copy.
    if (!/\.[cm]?[jt]sx?$/.test(file)) continue;
    for (const [folder, name] of folders)
      if (
        file.startsWith(folder) &&
        !file.slice(folder.length).includes(`node_modules${sep}`) &&
        Object.prototype.toString.call(module.exports) !== '[object Module]'
      )
        return { name, file };
  }
  return null;
}

async function loadModule(file: string, form: ConfigForm): Promise<unknown> {
  // Registered globally rather than tsImport's private namespace: an ES module config must
  // share this process's copies of @plankit/core, or its tools would not know the runner's
  // sessions.
  register();
  if (form.format === 'module') return import(pathToFileURL(file).href);
  // Node's own require: it gives an ES module package (all of plankit) as the very namespace
  // this process imported. Loading a CommonJS file through the import hooks instead would not.
  return createRequire(file)(file);
}

/** The config among a loaded module's exports: an ES module's default export, else `module.exports`. */
function configExport(loaded: unknown, format: ConfigForm['format']): unknown {
  if (typeof loaded !== 'object' || loaded === null) return undefined;
  const exports = loaded as { arms?: unknown; default?: unknown };
  if (format === 'module') return exports.default;
  // CommonJS: module.exports itself, or exports.default (also what a .js file written as an ES
  // module, which Node's require runs as one, gives).
  return exports.arms === undefined && exports.default !== undefined ? exports.default : loaded;
}

/**
 * Loads the eval config file `plankit-eval run` was given and checks it against the config
 * schema. A config runs as an ES module (`.mts`, `.mjs`, or `.ts`/`.js` under a package.json
 * with `"type": "module"`) or as CommonJS JavaScript (`.cjs`, or `.js` in a CommonJS package),
 * so that it and the runner share one copy of every plankit package. TypeScript that Node
 * would run as CommonJS (`.cts`, or `.ts` in a CommonJS package) is refused before it loads:
 * its imports would become `require` calls that compile plankit a second time.
 *
 * @param path - the config file, as the user gave it (relative to the working directory)
 * @returns the checked, frozen config
 * @throws PlankitEvalError `config_load_failed` for a missing file, a form that cannot load, a file that throws
 *   or has no default export, or a config that loaded a second copy of a plankit package;
 *   `config_invalid` for a config that fails its schema
 * @internal
 */
export async function loadEvalConfig(path: string): Promise<EvalConfig> {
  const file = resolve(path);
  // Node's own "Cannot find module" names the loader's file, not the user's.
  if (!existsSync(file))
    throw new PlankitEvalError(
      'config_load_failed',
      `plankit-eval: ${path} does not exist (looked for ${file}); plankit-eval init writes a config to start from.`,
    );
  const form = configForm(file, path);
  if (form.typescript && form.format === 'commonjs') {
    const renamed = `${basename(file, extname(file))}.mts`;
    const orType =
      form.packageJson === null ? '' : `, or add "type": "module" to ${form.packageJson}`;
    throw new PlankitEvalError(
      'config_load_failed',
      `plankit-eval: ${path} is TypeScript that Node runs as CommonJS (${form.reason}), and a CommonJS config would load a second copy of @plankit/eval and @plankit/core that the runner does not recognise. Rename it to ${renamed}${orType}.`,
    );
  }
  let loaded: unknown;
  try {
    loaded = await loadModule(file, form);
  } catch (cause) {
    const hint =
      form.format === 'commonjs'
        ? ` (${path} loads through require(), since ${form.reason}: name it .mjs to load it as an ES module)`
        : '';
    throw new PlankitEvalError(
      'config_load_failed',
      `plankit-eval: could not load ${path}: ${cause instanceof Error ? cause.message : String(cause)}${hint}`,
      { cause },
    );
  }
  const copy = secondCopy();
  if (copy !== null)
    throw new PlankitEvalError(
      'config_load_failed',
      `plankit-eval: ${path} loaded a second copy of ${copy.name} (${copy.file} ran as CommonJS), whose sessions and tools the runner does not recognise. A require hook compiled it again (tsx's does: run plankit-eval with plain node, not under tsx); or write the config as an ES module (.mts or .mjs).`,
    );
  const config = configExport(loaded, form.format);
  if (config === undefined)
    throw new PlankitEvalError(
      'config_load_failed',
      `plankit-eval: ${path} has no default export; export default defineEval({...}) (or module.exports = defineEval({...}) in CommonJS).`,
    );
  // A plain object is checked by the same schema as defineEval, before anything runs.
  return checkEvalConfig(config as EvalConfig, `plankit-eval: ${path}`);
}
