import { copyFile } from 'node:fs/promises';
import type { Options } from 'tsup';
import { packageBuild } from '../../tsup.base.config.ts';

const base = packageBuild(['src/index.ts']);

const config: Options = {
  ...base,
  // The stylesheet ships as it is; no module imports it, so the JS stays free of side effects.
  onSuccess: async () => {
    if (typeof base.onSuccess === 'function') await base.onSuccess();
    await copyFile('src/styles.css', 'dist/styles.css');
  },
};

export default config;
