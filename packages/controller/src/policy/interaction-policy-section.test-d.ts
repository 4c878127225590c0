import type { InteractionPolicyInput, InteractionPolicyParams } from '@plankit/prompt';
import { InteractionPolicySection } from '@plankit/prompt';
import { describe, expectTypeOf, it } from 'vitest';
import type { InteractionPolicy } from './interaction-policy.ts';
import { resolvePolicy } from './resolve-policy.ts';

describe('InteractionPolicy and @plankit/prompt', () => {
  it("satisfies InteractionPolicySection's input as is", () => {
    expectTypeOf<InteractionPolicy>().toMatchTypeOf<InteractionPolicyInput>();
    // Every slider the section reads has the controller's exact type, so neither can widen alone.
    expectTypeOf<InteractionPolicy[keyof InteractionPolicyInput]>().toEqualTypeOf<
      InteractionPolicyInput[keyof InteractionPolicyInput]
    >();
    const resolved = resolvePolicy({ override: { conversation_style: 'concise' } });
    if (resolved.ok) {
      const params: InteractionPolicyParams = { policy: resolved.value, style_known: true };
      expectTypeOf(new InteractionPolicySection().render(params)).toEqualTypeOf<string>();
    }
  });
});
