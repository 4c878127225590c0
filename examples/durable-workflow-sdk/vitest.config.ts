import { workflowTransformPlugin } from '@workflow/rollup';
import { defineConfig, type ViteUserConfig } from 'vitest/config';
import { WORKFLOW_DIRS } from './src/testing/build-workflows.ts';

// The Workflow SDK's test runtime, set up by hand (its manual setup) so that its bundler reads
// the sources: compile "use workflow" and "use step", build the bundles once, and run the
// workflows in-process on a local world. No server, no network.
const config: ViteUserConfig = defineConfig({
  plugins: [workflowTransformPlugin({ exclude: [`${WORKFLOW_DIRS.outDir}/`] })],
  resolve: { conditions: ['@plankit/source'] },
  ssr: { resolve: { conditions: ['@plankit/source'] } },
  test: {
    name: 'durable-workflow-sdk',
    include: ['src/**/*.workflow.test.ts'],
    globalSetup: ['./src/testing/build-workflows.ts'],
    setupFiles: ['./src/testing/workflow-world.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});

export default config;
