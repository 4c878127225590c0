import { mkdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseBuilder, createBaseBuilderConfig } from '@workflow/builders';
import { initDataDir } from '@workflow/world-local';

/** The example's folder: the builder's working directory. */
export const EXAMPLE_DIR: string = fileURLToPath(new URL('../..', import.meta.url));
/** Where the bundles go, and where the local world keeps its runs. */
export const WORKFLOW_DIRS: { readonly outDir: string; readonly dataDir: string } = {
  outDir: join(EXAMPLE_DIR, '.workflow-vitest'),
  dataDir: join(EXAMPLE_DIR, '.workflow-data'),
};

/**
 * The builder of `@workflow/vitest`, with one change: it hands esbuild the example's
 * tsconfig.json, whose paths point `@plankit/*` at the sources (the packages are not built in
 * this repository, and the Workflow SDK's bundler has its own export conditions).
 */
class SourceBuilder extends BaseBuilder {
  constructor() {
    // Workflow names are paths from the working directory, and the transform of the test files
    // names them from the process's: the same directory on both sides, wherever vitest starts.
    const workingDir = process.cwd();
    super({
      ...createBaseBuilderConfig({
        workingDir,
        dirs: [relative(workingDir, join(EXAMPLE_DIR, 'src'))],
      }),
      buildTarget: 'next',
      suppressCreateWorkflowsBundleLogs: true,
      suppressCreateWebhookBundleLogs: true,
      suppressCreateManifestLogs: true,
    });
  }

  override async build(): Promise<void> {
    const inputFiles = await this.getInputFiles();
    const tsconfigPath = join(EXAMPLE_DIR, 'tsconfig.json');
    await mkdir(WORKFLOW_DIRS.outDir, { recursive: true });
    await this.createWorkflowsBundle({
      outfile: join(WORKFLOW_DIRS.outDir, 'workflows.mjs'),
      bundleFinalOutput: false,
      format: 'esm',
      inputFiles,
      tsconfigPath,
    });
    await this.createStepsBundle({
      outfile: join(WORKFLOW_DIRS.outDir, 'steps.mjs'),
      externalizeNonSteps: true,
      rewriteTsExtensions: true,
      format: 'esm',
      inputFiles,
      tsconfigPath,
      bundleTransitiveLocalStepDependencies: true,
    });
  }
}

/** Vitest's global setup: builds the workflow and step bundles once, before any test file. */
export async function setup(): Promise<void> {
  await new SourceBuilder().build();
  await initDataDir(WORKFLOW_DIRS.dataDir);
}
