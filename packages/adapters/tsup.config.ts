import type { Options } from 'tsup';

const config: Options = {
  entry: [
    'src/index.ts',
    'src/openai.ts',
    'src/anthropic.ts',
    'src/ai-sdk.ts',
    'src/langchain.ts',
    'src/mcp.ts',
    'src/stores.ts',
    'src/postgres.ts',
  ],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  // tsup's declaration build sets baseUrl, which TypeScript 6 deprecates.
  dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
  clean: true,
  sourcemap: true,
  treeshake: true,
};

export default config;
