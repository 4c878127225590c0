import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with one plain `vitest: N passed, N failed` line, the closing line CI reads to
 * count tests whatever the runner.
 */
export default class SummaryReporter implements Reporter {
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
  }
}
