import { setupWorkflowTests, teardownWorkflowTests } from '@workflow/vitest';
import { afterAll, beforeAll } from 'vitest';
import { EXAMPLE_DIR, WORKFLOW_DIRS } from './build-workflows.ts';

// Each test file gets a fresh in-process local world that runs the bundles built in setup.
beforeAll(async () => {
  await setupWorkflowTests({ cwd: EXAMPLE_DIR, ...WORKFLOW_DIRS });
});

afterAll(async () => {
  await teardownWorkflowTests();
});
