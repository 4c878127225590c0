import { describe, expect, it } from 'vitest';
import { defineMachine } from './define-machine.ts';
import { renderMachineMermaid } from './render-machine-mermaid.ts';

describe('renderMachineMermaid', () => {
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
    expect(renderMachineMermaid(machine)).toBe(
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

  it('writes a state named like a Mermaid keyword under a declared id, so the diagram parses', () => {
    const machine = defineMachine({
      id: 'keywords',
      initial: 'state',
      onCap: { default: 'end' },
      states: {
        state: { on: { next: 'Note' } },
        Note: { kind: 'wait', on: { go: 'state_end' } },
        state_end: { on: { go: 'end' } },
        end: { kind: 'final' },
      },
    });
    expect(renderMachineMermaid(machine)).toBe(
      [
        'stateDiagram-v2',
        '  state "state" as state_state',
        '  state "Note" as state_Note',
        '  state "end" as state_end_2',
        '  [*] --> state_state',
        '  state_state --> state_Note: next',
        '  state_Note: Note (waits)',
        '  state_Note --> state_end: go',
        '  state_end --> state_end_2: go',
        '  state_end_2 --> [*]',
        '',
      ].join('\n'),
    );
  });

  it('keeps guard names and descriptions from reconfiguring or adding lines to the diagram', () => {
    const sneaky = () => true;
    Object.defineProperty(sneaky, 'name', { value: 'x]\n%%{init: {"theme":"dark"}}%%\nA --> B' });
    const machine = defineMachine({
      id: 'hostile',
      initial: 'draft',
      onCap: { default: 'done' },
      states: {
        draft: {
          description: '%%{init: {"theme":"forest"}}%% <b>"#1"</b>',
          on: { go: [{ target: 'done', guard: sneaky }, 'draft'] },
        },
        done: { kind: 'final' },
      },
    });
    const diagram = renderMachineMermaid(machine);
    expect(diagram.split('\n')).toHaveLength(7);
    expect(diagram).not.toMatch(/%|<b|"/);
    expect(diagram).toContain(
      '  draft: #37;#37;{init: {#34;theme#34;:#34;forest#34;}}#37;#37; #60;b#62;#34;#35;1#34;#60;/b#62;',
    );
    expect(diagram).toContain('  draft --> done: go [guard]');
    expect(machine.states.draft.on.go?.[0]?.guard).toBe('guard');
  });

  it('refuses a value that is not a machine', () => {
    expect(() => renderMachineMermaid({ id: 'x' } as never)).toThrow(
      /must be made by defineMachine/,
    );
  });
});
