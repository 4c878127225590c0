import type { Options } from 'tsup';
import { packageBuild } from '../../tsup.base.config.ts';

const config: Options = packageBuild([
  'src/index.ts',
  'src/internal.ts',
  'src/constants.ts',
  'src/plan-model.ts',
]);

export default config;
