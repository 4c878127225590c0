import type { Options } from 'tsup';
import { packageBuild } from '../../tsup.base.config.ts';

const config: Options = packageBuild([
  'src/index.ts',
  'src/budget/index.ts',
  'src/goal/index.ts',
  'src/policy/index.ts',
  'src/stage-tools/index.ts',
  'src/workflows/index.ts',
]);

export default config;
