import { defineConfig, type ViteUserConfig } from 'vitest/config';
import projects from './vitest.workspace.ts';

const config: ViteUserConfig = defineConfig({
  test: {
    projects,
    // One test file per core: vitest's default leaves one core to itself, which mostly idles
    // while the tests run (on 2 cores, one worker ran every file in turn).
    maxWorkers: '100%',
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});

export default config;
