import { describe, expect, it } from 'vitest';
import { renderMachineMermaid } from '../../engine/render-machine-mermaid.ts';
import { specTable, workflowsDoc } from '../testing/spec-table.ts';
import { workshopMachine } from './workshop-machine.ts';

describe('workshopMachine', () => {
  it('is the transition table of the spec, pair by pair, both ways', () => {
    const rows = specTable('## Planning workshop');
    const fromSpec = new Set<string>();
    for (const row of rows) {
      expect(workshopMachine.states[row.state as never]).toMatchObject({ kind: row.kind });
      if (row.outcome !== '') fromSpec.add(`${row.state} ${row.outcome} ${row.target}`);
    }
    const fromMachine = new Set<string>();
    for (const state of workshopMachine.stateNames) {
      for (const outcome of workshopMachine.states[state].outcomes) {
        for (const { target } of workshopMachine.states[state].on[outcome] ?? []) {
          fromMachine.add(`${state} ${outcome} ${target}`);
        }
      }
    }
    expect(fromMachine).toEqual(fromSpec);
    expect(new Set(rows.map((row) => row.state))).toEqual(new Set(workshopMachine.stateNames));
  });

  it("has the seed's five states, starting in draft, review_ready final", () => {
    expect(workshopMachine.stateNames).toEqual([
      'draft',
      'clarifying',
      'workshop',
      'formalizing',
      'review_ready',
    ]);
    expect(workshopMachine.initial).toBe('draft');
    expect(workshopMachine.states.review_ready.kind).toBe('final');
  });

  it('is drawn in the docs exactly as renderMachineMermaid renders it', () => {
    expect(workflowsDoc()).toContain(
      `\`\`\`mermaid\n${renderMachineMermaid(workshopMachine)}\`\`\``,
    );
  });
});
