import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/** A test call at the start of a line: `it(`, `test(`, `it.each(...)(`. */
const TYPE_TEST = /^\s*(?:it|test)(?:\.\w+)*(?:\([^)]*\))?\(/gm;

/**
 * The type tests of the repository: each `it`/`test` in a `*.test-d.ts` file under
 * `packages/<name>/src`. They are checked by `npm run typecheck`, not by this run.
 */
export function countTypeTests(root: string): { files: number; tests: number } {
  let files = 0;
  let tests = 0;
  const packages = join(root, 'packages');
  for (const name of readdirSync(packages)) {
    let entries: string[];
    try {
      entries = readdirSync(join(packages, name, 'src'), { recursive: true, encoding: 'utf8' });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.endsWith('.test-d.ts')) continue;
      files++;
      tests +=
        readFileSync(join(packages, name, 'src', entry), 'utf8').match(TYPE_TEST)?.length ?? 0;
    }
  }
  return { files, tests };
}

/**
 * Ends the run with one plain `vitest: N passed, N failed` line, the closing line CI reads to
 * count tests whatever the runner, then the count of type tests, which `npm run typecheck`
 * checks once (vitest's own typecheck would run tsc over the repository again per package).
 */
export default class SummaryReporter implements Reporter {
  #root = process.cwd();
  /** Whether this run checks the type tests itself (`npx vitest run --typecheck`). */
  #typecheck = false;

  onInit(vitest: Vitest): void {
    this.#root = vitest.config.root;
    this.#typecheck = vitest.projects.some((project) => project.config.typecheck.enabled);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    const tail = skipped > 0 ? `, ${skipped} skipped` : '';
    process.stdout.write(`\nvitest: ${passed} passed, ${failed} failed${tail}\n`);
    if (this.#typecheck) return;
    const types = countTypeTests(this.#root);
    process.stdout.write(
      `type tests: ${types.tests} in ${types.files} *.test-d.ts files, checked by npm run typecheck (tsc), not in this run\n`,
    );
  }
}
