import type { InteractionPolicy } from './interaction-policy.ts';
import { checkPolicy } from './resolve-policy.ts';

/**
 * How many variants to offer (2 or 3): 2 for `concise`; 3 for
 * `conversational` and `coach`; for `standard`, 3 when `talkativeness >= 0.5`, else 2.
 *
 * @throws ControllerError `argument_invalid` for an invalid policy
 * @public
 */
export function variantCount(policy: InteractionPolicy): 2 | 3 {
  const { conversation_style, talkativeness } = checkPolicy('variantCount', policy);
  switch (conversation_style) {
    case 'concise':
      return 2;
    case 'conversational':
    case 'coach':
      return 3;
    case 'standard':
      return talkativeness >= 0.5 ? 3 : 2;
    default: {
      const never: never = conversation_style;
      return never;
    }
  }
}
