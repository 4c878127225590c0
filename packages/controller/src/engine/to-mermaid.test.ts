import { describe, expect, it } from 'vitest';
import { defineMachine } from './define-machine.ts';
import { toMermaid } from './to-mermaid.ts';

describe('toMermaid', () => {
  it('renders a stateDiagram-v2 with guards, descriptions, wait states and exits', () => {
    function confident() {
      return true;
    }
    const machine = defineMachine({
      id: 'review',
      initial: 'draft',
      onCap: { default: 'aborted' },
      states: {
        draft: {
          description: 'the agent writes',
          on: { done: [{ target: 'review', guard: confident }, 'draft'] },
        },
        review: { kind: 'wait', on: { approve: 'approved', reject: 'draft' } },
        approved: { kind: 'final' },
        aborted: { kind: 'final' },
      },
    });
    expect(toMermaid(machine)).toBe(
      [
        'stateDiagram-v2',
        '  [*] --> draft',
        '  draft: the agent writes',
        '  draft --> review: done [confident]',
        '  draft --> draft: done',
        '  review: review (waits)',
        '  review --> approved: approve',
        '  review --> draft: reject',
        '  approved --> [*]',
        '  aborted --> [*]',
        '',
      ].join('\n'),
    );
  });

  it('refuses a value that is not a machine', () => {
    expect(() => toMermaid({ id: 'x' } as never)).toThrow(/must be made by defineMachine/);
  });
});
