/**
 * Docs that run: every ```ts / ```typescript / ```tsx block in README.md, docs/*.md and
 * packages/*\/README.md is written to a scratch folder inside the repository (so `@plankit/*`
 * resolves through the workspace with the `@plankit/source` condition), type-checked with one
 * Program per setting (`nodenext`, and `bundler` with `module: esnext`; both strict with
 * exactOptionalPropertyTypes and noUncheckedIndexedAccess) and, meanwhile, run: one process per
 * markdown file imports its snippets in turn, each file's process under a time limit. Each
 * file's snippets and the sources they import are bundled by esbuild first (npm packages stay
 * imports), so the process starts on plain JavaScript; when esbuild refuses, that file runs
 * under `node --conditions=@plankit/source --import tsx` instead.
 *
 * A snippet whose first line is a comment naming a file (`// src/agent-prompt.ts`) is written
 * under that name, so the snippets of one doc can import each other. A ```tsx block (a React
 * component) is a `.tsx` file with React's automatic JSX runtime.
 *
 * Markers after the language word, each followed by a reason the checker insists on:
 * - ```ts norun: <reason>   type-checked, not run (needs a key, the network or a server);
 * - ```ts nocheck: <reason> neither (a deliberately partial fragment, such as a signature).
 * A first flag `ai7` (```ts ai7, or ```ts ai7 norun: <reason>) checks and runs the snippet as in
 * an app that installed only ai@7: `ai` resolves to the `ai-v7` alias, for its types and at run
 * time (the adapters' own `ai` imports included); the other snippets see ai@6.
 *
 * Usage: `node --import tsx scripts/check-snippets.ts [--no-run] [--keep] [path.md ...]`
 * (`--keep` leaves the scratch files in `.snippets/<pid>/`). Exits 1 on any failure, naming each one
 * as `file:line` of the snippet's line in the markdown.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// One folder per run, so runs started at the same time never delete each other's files.
const scratch = path.join(root, '.snippets', String(process.pid));
// Only stops a doc whose snippets hang: they share the cores with the type-check, and a busy
// machine must not fail a doc that is merely slow.
const runTimeoutMs = 180_000;

/** One fenced TypeScript block of a markdown file. */
interface Snippet {
  /** The markdown file, relative to the repository root. */
  readonly doc: string;
  /** The 1-based line of the snippet's first code line in the markdown file. */
  readonly line: number;
  readonly code: string;
  readonly mode: 'run' | 'norun' | 'nocheck';
  /** The AI SDK major `ai` resolves to for this snippet. */
  readonly ai: 6 | 7;
  /** The scratch file the snippet is written to. */
  readonly file: string;
}

/** Every markdown file whose snippets are checked, relative to the root. */
function markdownFiles(): string[] {
  const files = ['README.md'];
  for (const name of readdirSync(path.join(root, 'docs')).sort()) {
    if (name.endsWith('.md')) files.push(`docs/${name}`);
  }
  for (const name of readdirSync(path.join(root, 'packages')).sort()) {
    try {
      readFileSync(path.join(root, 'packages', name, 'README.md'));
      files.push(`packages/${name}/README.md`);
    } catch {
      // A package without a README has no snippets.
    }
  }
  return files;
}

const fence = /^(\s*)(`{3,}|~{3,})\s*(.*)$/;
const tsInfo = /^(ts|typescript|tsx)(?:\s+(.*))?$/;
const marker = /^(norun|nocheck)\s*:\s*(\S.*)$/;

/** The fenced TypeScript blocks of one markdown file; bad markers land in `problems`. */
function extract(doc: string, problems: string[]): Snippet[] {
  const lines = readFileSync(path.join(root, doc), 'utf8').split('\n');
  const snippets: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = fence.exec(lines[i] ?? '');
    if (!open) continue;
    const [, indent = '', ticks = '', info = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const text = lines[j] ?? '';
      if (text.trim().startsWith(ticks) && text.trim().replace(/[`~]/g, '') === '') break;
      body.push(text.startsWith(indent) ? text.slice(indent.length) : text.trimStart());
    }
    const lang = tsInfo.exec(info.trim());
    if (lang) {
      const jsx = lang[1] === 'tsx';
      const all = lang[2]?.trim() ?? '';
      const ai7 = /^ai7(?:\s+|$)/.test(all);
      const flags = ai7 ? all.replace(/^ai7\s*/, '') : all;
      const marked = marker.exec(flags);
      if (flags !== '' && !marked) {
        problems.push(
          `${doc}:${i + 1}: unknown fence marker "${flags}"; use "ts norun: <reason>" or "ts nocheck: <reason>"`,
        );
      }
      const mode = marked ? (marked[1] as 'norun' | 'nocheck') : 'run';
      const base = doc.replace(/\.md$/, '').replace(/[^A-Za-z0-9]+/g, '-');
      // A first line `// src/name.ts` names the file, so a doc's snippets can import each other.
      const named = /^\/\/ ((?:[\w-]+\/)*[\w.-]+\.tsx?)$/.exec(body[0] ?? '')?.[1];
      // The runner (tsx) reads no tsconfig for the scratch files: the pragma picks React's
      // automatic runtime, as `jsx: react-jsx` does for the type check. Same line, same numbers.
      const code = `${jsx ? '/* @jsxRuntime automatic */ ' : ''}${body.join('\n')}\n`;
      const ext = jsx ? 'tsx' : 'ts';
      snippets.push({
        doc,
        line: i + 2,
        code,
        mode,
        ai: ai7 ? 7 : 6,
        file: named
          ? path.join(scratch, base, named)
          : path.join(scratch, `${base}-L${i + 2}.${ext}`),
      });
    }
    i = j;
  }
  return snippets;
}

const shared: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2023,
  lib: ['lib.es2023.d.ts'],
  types: ['node'],
  customConditions: ['@plankit/source'],
  moduleDetection: ts.ModuleDetectionKind.Force,
  jsx: ts.JsxEmit.ReactJSX,
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: true,
  noEmit: true,
  // The workspace sources import each other with `.ts` extensions.
  allowImportingTsExtensions: true,
};

const settings: ReadonlyArray<{ name: string; options: ts.CompilerOptions }> = [
  {
    name: 'nodenext',
    options: {
      ...shared,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
    },
  },
  {
    name: 'bundler',
    options: {
      ...shared,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
    },
  },
];

// What `ai` is for an ai7 snippet: the ai@7 alias's declarations.
const ai7Paths: ts.MapLike<string[]> = {
  ai: [path.join(root, 'node_modules', 'ai-v7', 'dist', 'index.d.ts')],
  'ai/test': [path.join(root, 'node_modules', 'ai-v7', 'dist', 'test', 'index.d.ts')],
};

/**
 * Type-checks the snippets under each setting; returns one line per diagnostic. It yields to the
 * event loop between files, so the snippets run in their child processes meanwhile.
 */
async function typecheck(snippets: readonly Snippet[]): Promise<string[]> {
  const cache = new Map<string, ts.SourceFile | undefined>();
  const failures: string[] = [];
  for (const major of [6, 7] as const) {
    const mine = snippets.filter((s) => s.ai === major);
    if (mine.length === 0) continue;
    const paths = major === 7 ? { paths: ai7Paths } : {};
    for (const setting of settings) {
      const options = { ...setting.options, ...paths };
      const name = major === 7 ? `${setting.name}, ai 7` : setting.name;
      failures.push(...(await typecheckWith(mine, name, options, cache)));
    }
  }
  return failures;
}

async function typecheckWith(
  snippets: readonly Snippet[],
  name: string,
  options: ts.CompilerOptions,
  cache: Map<string, ts.SourceFile | undefined>,
): Promise<string[]> {
  const byFile = new Map(snippets.map((s) => [s.file, s]));
  const failures: string[] = [];
  {
    const host = ts.createCompilerHost(options, true);
    const getSourceFile = host.getSourceFile.bind(host);
    // Parsed files are shared between the two Programs when their parse options agree.
    host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
      const format =
        typeof languageVersion === 'object'
          ? `${languageVersion.languageVersion}/${languageVersion.impliedNodeFormat}`
          : String(languageVersion);
      // ai7 Programs resolve `ai` elsewhere, but a parsed file does not depend on that.
      const key = `${format}:${fileName}`;
      if (!cache.has(key)) {
        cache.set(key, getSourceFile(fileName, languageVersion, onError, shouldCreate));
      }
      return cache.get(key);
    };
    const program = ts.createProgram({ rootNames: [...byFile.keys()], options, host });
    for (const source of program.getSourceFiles()) {
      const snippet = byFile.get(path.resolve(source.fileName));
      if (!snippet) continue;
      await new Promise((resolve) => setImmediate(resolve));
      const diagnostics = [
        ...program.getSyntacticDiagnostics(source),
        ...program.getSemanticDiagnostics(source),
      ];
      for (const d of diagnostics) {
        const at = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line;
        const text = ts.flattenDiagnosticMessageText(d.messageText, '\n    ');
        failures.push(`${snippet.doc}:${snippet.line + at}: [${name}] TS${d.code}: ${text}`);
      }
    }
    for (const d of program.getGlobalDiagnostics()) {
      failures.push(
        `[${name}] TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
      );
    }
  }
  return failures;
}

// Imports the snippets of one markdown file in turn, in one process, and records each outcome:
// one Node start per file instead of per snippet keeps the check within a minute on 2 cores.
const runner = `import { appendFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [report, ...files] = process.argv.slice(2);
for (const file of files) {
  try {
    await import(pathToFileURL(file).href);
    appendFileSync(report, JSON.stringify({ file, ok: true }) + '\\n');
  } catch (error) {
    const text = error instanceof Error && error.stack ? error.stack : String(error);
    appendFileSync(report, JSON.stringify({ file, ok: false, error: text }) + '\\n');
  }
}
process.exit(0);
`;

// Registered before an ai7 group's snippets run: `ai` (and its subpaths) resolve to ai@7.
const ai7Hooks = `export async function resolve(specifier, context, next) {
  if (specifier === 'ai' || specifier.startsWith('ai/'))
    return next('ai-v7' + specifier.slice(2), context);
  return next(specifier, context);
}
`;
const ai7Register = `import { register } from 'node:module';
register('./ai7-hooks.mjs', import.meta.url);
`;

/**
 * The snippets of one markdown file and the workspace sources they import, bundled by esbuild
 * into one ES module per snippet (shared code in chunks, so each module still runs once per
 * process): the child then starts on plain JavaScript, without loading tsx and transforming
 * every source file again, which was most of the run's CPU time. npm packages stay imports (an
 * ai7 group's `ai` is remapped at run time, as before). Resolves to the bundled file of each
 * snippet, in order, or to undefined when esbuild refuses (the snippets then run under tsx,
 * which reports each failure as before).
 */
async function bundleDoc(
  snippets: readonly Snippet[],
  index: number,
): Promise<string[] | undefined> {
  const outdir = path.join(scratch, 'bundled', String(index));
  try {
    await build({
      entryPoints: snippets.map((s) => s.file),
      outdir,
      outbase: scratch,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      jsx: 'automatic',
      conditions: ['@plankit/source'],
      sourcemap: 'inline',
      logLevel: 'silent',
      // A CommonJS module bundled by accident still finds `require`.
      banner: {
        js: "import { createRequire as __snippetRequire } from 'node:module'; const require = __snippetRequire(import.meta.url);",
      },
      plugins: [
        {
          name: 'npm-packages-stay-imports',
          setup(b) {
            b.onResolve({ filter: /^[^./]/ }, (args) =>
              args.path.startsWith('@plankit/') || path.isAbsolute(args.path)
                ? undefined
                : { external: true },
            );
          },
        },
      ],
    });
  } catch {
    return undefined;
  }
  return snippets.map((s) =>
    path.join(outdir, path.relative(scratch, s.file).replace(/\.tsx?$/, '.js')),
  );
}

/** Runs the snippets of one markdown file in one Node process; resolves to the failures. */
async function runDoc(snippets: readonly Snippet[], index: number): Promise<string[]> {
  const report = path.join(scratch, `run-${index}.jsonl`);
  const cwd = path.join(scratch, 'cwd', String(index));
  mkdirSync(cwd, { recursive: true });
  writeFileSync(report, '');
  const bundled = await bundleDoc(snippets, index);
  // The runner reports each module it imported; map a bundle back to its snippet.
  const snippetOf = new Map(snippets.map((s, i) => [bundled?.[i] ?? s.file, s.file]));
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--conditions=@plankit/source',
        '--enable-source-maps',
        ...(snippets[0]?.ai === 7 ? ['--import', path.join(scratch, 'ai7-register.mjs')] : []),
        ...(bundled === undefined ? ['--import', 'tsx'] : []),
        path.join(scratch, 'runner.mjs'),
        report,
        ...(bundled ?? snippets.map((s) => s.file)),
      ],
      { cwd, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    const collect = (chunk: Buffer): void => {
      output += chunk.toString();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => child.kill('SIGKILL'), runTimeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const outcomes = new Map<string, { ok: boolean; error?: string }>();
      for (const line of readFileSync(report, 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        const outcome = JSON.parse(line) as { file: string; ok: boolean; error?: string };
        outcomes.set(snippetOf.get(outcome.file) ?? outcome.file, outcome);
      }
      const failures: string[] = [];
      for (const snippet of snippets) {
        const outcome = outcomes.get(snippet.file);
        const at = `${snippet.doc}:${snippet.line}: [run]`;
        if (outcome?.ok) continue;
        if (outcome) {
          failures.push(`${at} threw\n    ${indent(outcome.error ?? '')}`);
        } else {
          // The process ended while this snippet ran: it hung, exited or crashed.
          const why = signal
            ? `timed out after ${runTimeoutMs / 1000} s`
            : `ended the process (exit ${code})`;
          failures.push(`${at} ${why}\n    ${indent(output)}`);
          break;
        }
      }
      resolve(failures);
    });
  });
}

const indent = (text: string): string => text.trim().split('\n').slice(0, 16).join('\n    ');

/** Runs each markdown file's snippets, a few files at a time; returns the failures in order. */
async function runAll(snippets: readonly Snippet[]): Promise<string[]> {
  writeFileSync(path.join(scratch, 'runner.mjs'), runner);
  writeFileSync(path.join(scratch, 'ai7-hooks.mjs'), ai7Hooks);
  writeFileSync(path.join(scratch, 'ai7-register.mjs'), ai7Register);
  // One process per markdown file and AI SDK major: ai7 snippets run with `ai` remapped.
  const byDoc = new Map<string, Snippet[]>();
  for (const s of snippets) {
    const key = `${s.doc}\u0000${s.ai}`;
    byDoc.set(key, [...(byDoc.get(key) ?? []), s]);
  }
  const groups = [...byDoc.values()];
  const results: string[][] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < groups.length) {
      const index = next++;
      const group = groups[index];
      if (group) results[index] = await runDoc(group, index);
    }
  };
  const width = Math.max(2, availableParallelism());
  await Promise.all(Array.from({ length: Math.min(width, groups.length) }, worker));
  return results.flat();
}

const seconds = (since: number): string => ((performance.now() - since) / 1000).toFixed(1);

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const noRun = args.includes('--no-run');
  const keep = args.includes('--keep');
  const only = args.filter((a) => !a.startsWith('--'));
  const problems: string[] = [];
  const snippets = (only.length > 0 ? only : markdownFiles()).flatMap((doc) =>
    extract(path.relative(root, path.resolve(doc)), problems),
  );
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(path.join(scratch, 'cwd'), { recursive: true });
  for (const s of snippets) {
    mkdirSync(path.dirname(s.file), { recursive: true });
    writeFileSync(s.file, s.code);
  }

  const started = performance.now();
  const checked = snippets.filter((s) => s.mode !== 'nocheck');
  const runnable = noRun ? [] : snippets.filter((s) => s.mode === 'run');
  // The runs (child processes) and the type-check (this process) overlap; each keeps its order.
  const running = runAll(runnable);
  problems.push(...(await typecheck(checked)));
  const checkedIn = seconds(started);
  problems.push(...(await running));
  if (!keep) rmSync(scratch, { recursive: true, force: true });

  const count = (mode: Snippet['mode']): number => snippets.filter((s) => s.mode === mode).length;
  const summary =
    `snippets: ${snippets.length} found, ${checked.length} type-checked ` +
    `(${settings.map((s) => s.name).join(' + ')}, ${checkedIn} s), ${runnable.length} run; ` +
    `marked norun ${count('norun')}, nocheck ${count('nocheck')}; ${seconds(started)} s in all`;
  if (problems.length > 0) {
    console.error(`${problems.join('\n')}\n\n${summary}: ${problems.length} problem(s)`);
    return 1;
  }
  console.log(`${summary}: all ok`);
  return 0;
}

process.exitCode = await main();
