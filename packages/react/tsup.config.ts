import { copyFile } from 'node:fs/promises';
import type { Options } from 'tsup';
import { packageBuild } from '../../tsup.base.config.ts';

const config: Options = {
  ...packageBuild(['src/index.ts']),
  // The stylesheet ships as it is; no module imports it, so the JS stays free of side effects.
  onSuccess: async () => copyFile('src/styles.css', 'dist/styles.css'),
};

export default config;
