import type { Options } from 'tsup';
import { packageBuild } from '../../tsup.base.config.ts';

const config: Options = packageBuild([
  'src/index.ts',
  'src/internal-unstable.ts',
  'src/constants.ts',
  'src/plan-model.ts',
  'src/plan-view.ts',
  'src/diagnostics/index.ts',
  'src/interop/index.ts',
]);

export default config;
