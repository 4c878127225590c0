import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, defaultClientConditions } from 'vite';

/** The page's sources: `index.html` and the React app beside it. */
export const CLIENT_ROOT: string = fileURLToPath(new URL('../client', import.meta.url));

/**
 * Builds the page with Vite into `outDir`, offline. The workspace packages resolve to their
 * TypeScript sources (the `@plankit/source` condition), so a fresh clone needs no package build
 * first; a published app imports their built `dist` the same way.
 */
export async function buildClient(outDir: string): Promise<void> {
  await build({
    configFile: false,
    root: CLIENT_ROOT,
    logLevel: 'warn',
    plugins: [react()],
    resolve: { conditions: ['@plankit/source', ...defaultClientConditions] },
    // One chunk: React, the AI SDK's client and zod (about 460 KB, 130 KB gzipped; more with
    // React's development build, which a test's NODE_ENV selects and which reports React's
    // warnings to the console). A demo page has no use for code splitting.
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 2048 },
  });
}
