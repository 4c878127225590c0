import { describe, expect, it } from 'vitest';
import { renderMachineMermaid } from '../../engine/render-machine-mermaid.ts';
import { specTable, workflowsDoc } from '../testing/spec-table.ts';
import { phaseController } from './phase-controller.ts';

describe('phaseController', () => {
  it('is the transition table of the spec, pair by pair, both ways', () => {
    const rows = specTable('## Phase alternation');
    expect(rows.length).toBeGreaterThan(5);
    const fromSpec = new Set<string>();
    for (const row of rows) {
      expect(phaseController.states[row.state as never]).toMatchObject({ kind: row.kind });
      if (row.outcome !== '') fromSpec.add(`${row.state} ${row.outcome} ${row.target}`);
    }
    const fromMachine = new Set<string>();
    for (const state of phaseController.stateNames) {
      for (const outcome of phaseController.states[state].outcomes) {
        for (const { target, guard } of phaseController.states[state].on[outcome] ?? []) {
          expect(guard).toBeNull();
          fromMachine.add(`${state} ${outcome} ${target}`);
        }
      }
    }
    expect(fromMachine).toEqual(fromSpec);
    expect(new Set(rows.map((row) => row.state))).toEqual(new Set(phaseController.stateNames));
  });

  it('has no caps: a job runs for days', () => {
    expect(Object.values(phaseController.caps).every((limit) => limit === null)).toBe(true);
  });

  it('is drawn in the docs exactly as renderMachineMermaid renders it', () => {
    expect(workflowsDoc()).toContain(
      `\`\`\`mermaid\n${renderMachineMermaid(phaseController)}\`\`\``,
    );
  });
});
