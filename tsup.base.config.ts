import type { Options } from 'tsup';

/** The one build every package uses: ESM for Node 20, bundled declarations, source maps. */
export function packageBuild(entry: string[]): Options {
  return {
    entry,
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    // tsup's declaration build sets baseUrl, which TypeScript 6 deprecates.
    dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
    clean: true,
    sourcemap: true,
    treeshake: true,
  };
}
