// Runs the peers' own strict-schema test files against plankit's converter and checks the
// classification in strict-schema-peer-cases.ts against the result: how its numbers were made.
//
//   node --import tsx packages/adapters/src/host/strict-schema/testing/run-peer-strict-tests.ts \
//     <openai-node checkout> <openai-agents-js checkout>
//
// The checkouts at the commits strict-schema-peer-cases.ts names (a clone, or `git archive`
// of `tests/lib`, `src/lib` and `src/internal`, and of `packages/agents-core`); about a minute.
// Each peer file runs unchanged
// but for two things: `.toThrow(...)` loses its argument (refusal wording is not compared), and
// the peer's converter is replaced by `toStrictJsonSchema` (openai-agents-js: its null
// stripping by `restore`, its depth error by plankit's depth refusal). For an openai-agents-js
// case, the same schemas also go through openai-node's converter (`src/lib/transform.ts` of the
// checkout), to tell a peer disagreement (openai-node refuses as plankit does) from a
// difference; and each openai-node case's schemas also go through openai-agents-js's converter
// (`packages/agents-core/src/utils/strictToolSchema.ts`), the other way round. Exits 1 when a
// case's result does not match its classification. PEER_DEBUG=1 shows vitest's own output.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  PEER_FILES,
  type PeerFile,
  STRICT_SCHEMA_DIFFERENCES,
  STRICT_SCHEMA_PEER_CASES,
} from './strict-schema-peer-cases.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../../../../..');
const converter = path.join(here, '..', 'to-strict-json-schema.ts');
const [nodeCheckout, agentsCheckout] = process.argv.slice(2);
if (nodeCheckout === undefined || agentsCheckout === undefined) {
  console.error(
    'usage: run-peer-strict-tests.ts <openai-node checkout> <openai-agents-js checkout>',
  );
  process.exit(2);
}

// `.toThrow(<anything>)` becomes `.toThrow()`: any refusal agrees with a refusal.
function withoutThrowArguments(source: string): string {
  let out = '';
  let from = 0;
  const pattern = /\.toThrow(Error)?\(/g;
  for (let match = pattern.exec(source); match !== null; match = pattern.exec(source)) {
    let depth = 1;
    let at = match.index + match[0].length;
    let quote: string | undefined;
    while (depth > 0 && at < source.length) {
      const char = source[at] as string;
      if (quote !== undefined) {
        if (char === '\\') at++;
        else if (char === quote) quote = undefined;
      } else if (char === '"' || char === "'" || char === '`') quote = char;
      else if (char === '(') depth++;
      else if (char === ')') depth--;
      at++;
    }
    out += `${source.slice(from, match.index)}.toThrow()`;
    from = at;
    pattern.lastIndex = at;
  }
  return out + source.slice(from);
}

const peer = (checkout: string, file: string) => readFileSync(path.join(checkout, file), 'utf8');
const sources = {
  transform: peer(nodeCheckout, 'tests/lib/transform.test.ts'),
  branches: peer(nodeCheckout, 'tests/lib/transform-branches.test.ts'),
  agents: peer(agentsCheckout, 'packages/agents-core/test/utils/strictToolSchema.test.ts'),
  converter: peer(nodeCheckout, 'src/lib/transform.ts'),
  jsonschema: peer(nodeCheckout, 'src/lib/jsonschema.ts'),
  agentsConverter: peer(agentsCheckout, 'packages/agents-core/src/utils/strictToolSchema.ts'),
  agentsZodCompat: peer(agentsCheckout, 'packages/agents-core/src/utils/zodCompat.ts'),
};
const dir = mkdtempSync(path.join(tmpdir(), 'plankit-peer-strict-'));
// Code both shims share: whether the other peer's converter answers a schema as plankit does,
// appended to `log` per test. An answer is the output as JSON with sorted keys (key order means
// nothing in a schema), or 'refused'.
const comparing = (log: string) => `const sorted = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(sorted)
  : typeof value === 'object' && value !== null
    ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted((value as any)[key])]))
    : value;
const outcome = (run: () => unknown) => { try { return JSON.stringify(sorted(run())); } catch { return 'refused'; } };
function compare(schema: any, other: (schema: any) => unknown): void {
  const same = outcome(() => plankit(schema).schema) === outcome(() => other(structuredClone(schema)));
  appendFileSync(${JSON.stringify(path.join(dir, log))}, JSON.stringify({ test: expect.getState().currentTestName?.split(' > ').pop(), same }) + '\\n');
}`;
const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
};

write('package.json', '{ "type": "module" }\n');
symlinkSync(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'));
write('node/transform.test.ts', withoutThrowArguments(sources.transform));
write('node/transform-branches.test.ts', withoutThrowArguments(sources.branches));
write('agents/test/utils/strictToolSchema.test.ts', withoutThrowArguments(sources.agents));
// A peer's source file, its extensionless relative imports given their `.ts` files.
const writeSource = (file: string, text: string, imports: Record<string, string>) => {
  let out = text;
  for (const [from, to] of Object.entries(imports))
    out = out.replace(`from '${from}'`, `from '${to}'`);
  write(file, out);
};
writeSource('peer/transform.ts', sources.converter, {
  '../internal/utils': './utils.ts',
  './jsonschema': './jsonschema.ts',
});
write('peer/jsonschema.ts', sources.jsonschema);
write(
  'peer/utils.ts',
  'export const hasOwn = (o: object, k: PropertyKey): boolean => Object.hasOwn(o, k);\n',
);
// Each schema an openai-node case converts also goes through openai-agents-js's converter (its
// `src/utils/strictToolSchema.ts`), to tell where the two peers' converters disagree.
writeSource('agents-peer/utils/strictToolSchema.ts', sources.agentsConverter, {
  '../errors': '../errors.ts',
  './zodCompat': './zodCompat.ts',
});
write('agents-peer/utils/zodCompat.ts', sources.agentsZodCompat);
write('agents-peer/errors.ts', 'export class UserError extends Error {}\n');
// openai-node's tests of its internal helpers have no counterpart: they fail here, and the
// case list names them `internal`.
write(
  'shim/transform.ts',
  `import { appendFileSync } from 'node:fs';
import { expect } from 'vitest';
import { toStrictJsonSchema as plankit } from ${JSON.stringify(converter)};
import { toOpenAIStrictToolSchema as agents } from '../agents-peer/utils/strictToolSchema.ts';
${comparing('node.log')}
export const toStrictJsonSchema = (schema: any): any => {
  compare(schema, agents);
  return structuredClone(plankit(schema).schema);
};
const internal = (name: string) => () => { throw new Error('no counterpart: ' + name); };
export const assertNoNestedSchemaIds = internal('assertNoNestedSchemaIds');
export const forEachJSONSchemaChild = internal('forEachJSONSchemaChild');
export const hasOnlyRefAndAnnotations = internal('hasOnlyRefAndAnnotations');
export const normalizeObjectAllOfForExclusivity = internal('normalizeObjectAllOfForExclusivity');
export const resolveLocalRef = internal('resolveLocalRef');
export const rewriteLocalRefsIntoMovedOneOfBranches = internal('rewriteLocalRefsIntoMovedOneOfBranches');
`,
);
write(
  'shim/values.ts',
  'export const hasOwn = (o: object, k: PropertyKey) => Object.hasOwn(o, k);\n',
);
// deep-object-diff's detailedDiff, as the peer's snapshots read it.
write(
  'shim/diff.ts',
  `const isObject = (v: any) => typeof v === 'object' && v !== null;
const has = (o: any, k: string) => Object.hasOwn(o, k);
function added(l: any, r: any, deleted: boolean): any {
  const out: any = {};
  for (const k of Object.keys(r)) {
    if (!has(l, k)) out[k] = deleted ? undefined : r[k];
    else if (isObject(l[k]) && isObject(r[k])) {
      const d = added(l[k], r[k], deleted);
      if (Object.keys(d).length > 0) out[k] = d;
    }
  }
  return out;
}
function updated(l: any, r: any): any {
  const out: any = {};
  for (const k of Object.keys(r)) {
    if (!has(l, k)) continue;
    if (isObject(l[k]) && isObject(r[k])) {
      const d = updated(l[k], r[k]);
      if (Object.keys(d).length > 0) out[k] = d;
    } else if (!Object.is(l[k], r[k])) out[k] = r[k];
  }
  return out;
}
export const detailedDiff = (l: any, r: any) =>
  ({ added: added(l, r, false), deleted: added(r, l, true), updated: updated(l, r) });
`,
);
write('agents/src/errors.ts', 'export class UserError extends Error {}\n');
write(
  'agents/src/utils/strictToolSchema.ts',
  `import { appendFileSync } from 'node:fs';
import { expect } from 'vitest';
import { z } from 'zod';
import { toStrictJsonSchema as plankit } from ${JSON.stringify(converter)};
import { toStrictJsonSchema as openaiNode } from '../../../peer/transform.ts';
import { UserError } from '../errors.ts';
const DEPTH = 'JSON schema is too deeply nested to process safely. Simplify or flatten the schema, or disable strict mode.';
${comparing('agents.log')}
function convert(schema: any) {
  compare(schema, openaiNode);
  try {
    return plankit(schema);
  } catch (error: any) {
    throw new UserError(/nested more than/.test(error.message) ? DEPTH : error.message);
  }
}
export const toOpenAIStrictToolSchema = (schema: any): any => structuredClone(convert(schema).schema);
export function prepareOpenAIStrictToolSchema(schema: any): any {
  const converted = convert(schema);
  return { schema: structuredClone(converted.schema), normalizeInput: converted.restore };
}
export const stripStrictNullsForJsonSchema = (schema: any, value: unknown): unknown => convert(schema).restore(value);
export const stripStrictNullsForZodSchema = (schema: any, value: unknown): unknown =>
  convert(z.toJSONSchema(schema, { io: 'input' })).restore(value);
`,
);
write(
  'vitest.config.ts',
  `import { defineConfig } from 'vitest/config';
const conditions = ['@plankit/source', 'import', 'module', 'node', 'default'];
export default defineConfig({
  resolve: {
    conditions,
    alias: [
      { find: 'openai/lib/transform', replacement: ${JSON.stringify(path.join(dir, 'shim/transform.ts'))} },
      { find: 'openai/internal/utils/values', replacement: ${JSON.stringify(path.join(dir, 'shim/values.ts'))} },
      { find: 'deep-object-diff', replacement: ${JSON.stringify(path.join(dir, 'shim/diff.ts'))} },
    ],
  },
  ssr: { resolve: { conditions } },
  // openai-node's converter runs beside plankit's on the agents-js cases: slower than alone.
  test: { root: ${JSON.stringify(dir)}, globals: true, include: ['**/*.test.ts'], testTimeout: 600000 },
});
`,
);

const report = path.join(dir, 'report.json');
spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--config',
    path.join(dir, 'vitest.config.ts'),
    '--reporter=json',
    `--outputFile=${report}`,
  ],
  { cwd: repo, stdio: process.env['PEER_DEBUG'] ? 'inherit' : 'ignore' },
);

interface Assertion {
  readonly title: string;
  readonly status: string;
}
const results = JSON.parse(readFileSync(report, 'utf8')) as {
  testResults: { name: string; assertionResults: Assertion[] }[];
};
const fileOf: Record<string, PeerFile> = {
  'transform.test.ts': 'node',
  'transform-branches.test.ts': 'nodeBranches',
  'strictToolSchema.test.ts': 'agents',
};
// Per test title: whether the other peer's converter answered every schema as plankit did.
function sameAsOtherPeer(log: string): Map<string, boolean> {
  const same = new Map<string, boolean>();
  for (const line of readFileSync(path.join(dir, log), 'utf8').trim().split('\n')) {
    const entry = JSON.parse(line) as { test: string; same: boolean };
    same.set(entry.test, (same.get(entry.test) ?? true) && entry.same);
  }
  return same;
}
const sameAsNode = sameAsOtherPeer('agents.log');
const sameAsAgents = sameAsOtherPeer('node.log');
const runs = new Map<string, Assertion[]>();
for (const file of results.testResults) {
  const peerFile = fileOf[path.basename(file.name)];
  if (peerFile === undefined) continue;
  for (const assertion of file.assertionResults) {
    const key = `${peerFile}\u0000${assertion.title}`;
    runs.set(key, [...(runs.get(key) ?? []), assertion]);
  }
}

const problems: string[] = [];
const seen = new Map<string, number>();
for (const [file, title, kind] of STRICT_SCHEMA_PEER_CASES) {
  const key = `${file}\u0000${title}`;
  const index = seen.get(key) ?? 0;
  seen.set(key, index + 1);
  const run = runs.get(key)?.[index];
  const label = `${PEER_FILES[file]}: ${title}`;
  if (run === undefined) problems.push(`not in the peer file any more: ${label}`);
  else if (kind === 'exact' && run.status !== 'passed')
    problems.push(`listed exact, differs: ${label}`);
  else if (kind !== 'exact' && kind !== 'internal' && run.status === 'passed')
    problems.push(`listed ${kind}, now exact: ${label}`);
  else if (kind === 'exact' || kind === 'internal') continue;
  else {
    const other = file === 'agents' ? sameAsNode : sameAsAgents;
    const agrees = other.get(run.title) === true;
    if (STRICT_SCHEMA_DIFFERENCES[kind].otherPeer && !agrees)
      problems.push(`listed ${kind} (the other peer agrees), but it answers otherwise: ${label}`);
    else if (!STRICT_SCHEMA_DIFFERENCES[kind].otherPeer && agrees)
      problems.push(`listed ${kind}, but the other peer answers as plankit: ${label}`);
  }
}
const listed = STRICT_SCHEMA_PEER_CASES.length;
const ran = [...runs.values()].reduce((total, list) => total + list.length, 0);
if (ran !== listed) problems.push(`the peer files have ${ran} cases, the list ${listed}`);
rmSync(dir, { recursive: true, force: true });
for (const problem of problems) console.log(problem);
console.log(
  problems.length === 0 ? `all ${listed} cases as listed` : `${problems.length} problems`,
);
process.exit(problems.length === 0 ? 0 : 1);
