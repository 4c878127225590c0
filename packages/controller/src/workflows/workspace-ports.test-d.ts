import type { Workspace } from '@plankit/adapters/workspace';
import { describe, expectTypeOf, it } from 'vitest';
import type { InspectionFiles } from './create-inspection-tools.ts';
import type { PhaseFiles } from './create-phase-tools.ts';

describe('the workspace module', () => {
  it('satisfies the ports of the phase and inspection tools', () => {
    expectTypeOf<Workspace>().toExtend<PhaseFiles>();
    expectTypeOf<Workspace>().toExtend<InspectionFiles>();
  });
});
