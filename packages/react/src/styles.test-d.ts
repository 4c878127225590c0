// Checked by tsc (npm run typecheck), which refuses a side-effect import it cannot resolve to
// a module or its types: so this import fails to type-check unless the stylesheet ships its
// declaration.
import '@plankit/react/styles.css';
import { describe, expectTypeOf, it } from 'vitest';

describe('@plankit/react/styles.css', () => {
  it('type-checks as an import for its effect only: a module with no exports', () => {
    expectTypeOf<keyof typeof import('@plankit/react/styles.css')>().toBeNever();
  });
});
