import type { Workspace } from '@plankit/adapters/workspace';
import { describe, expectTypeOf, it } from 'vitest';
import type { PhaseFiles } from './phases/create-phase-tools.ts';
import type { InspectionFiles } from './review/create-inspection-tools.ts';

describe('the workspace module', () => {
  it('satisfies the ports of the phase and inspection tools', () => {
    expectTypeOf<Workspace>().toExtend<PhaseFiles>();
    expectTypeOf<Workspace>().toExtend<InspectionFiles>();
  });
});
