import type { Options } from 'tsup';
import { buildDeclarations } from './scripts/build-declarations.mjs';

/**
 * The one build every package uses: ESM for Node 20, source maps, and one bundled `.d.ts` per
 * entry. The declarations come from `scripts/build-declarations.mjs` (isolated declarations,
 * no second type check) rather than tsup's `dts`, which type-checked every entry again.
 */
export function packageBuild(entry: string[]): Options {
  return {
    entry,
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    clean: true,
    sourcemap: true,
    treeshake: true,
    onSuccess: () => buildDeclarations(process.cwd(), entry),
  };
}
