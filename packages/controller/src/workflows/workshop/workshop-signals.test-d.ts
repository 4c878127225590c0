import { describe, expectTypeOf, it } from 'vitest';
import type { RoundSignals } from './workshop-round.ts';
import type { WorkshopSignalName } from './workshop-signals.ts';

describe('WorkshopSignalName', () => {
  it('names exactly the keys of RoundSignals', () => {
    expectTypeOf<keyof RoundSignals>().toEqualTypeOf<WorkshopSignalName>();
  });
});
