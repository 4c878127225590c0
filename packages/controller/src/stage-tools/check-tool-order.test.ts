import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { checkToolOrder } from './check-tool-order.ts';
import { defineStageTool } from './define-stage-tool.ts';

function tool(name: string, prerequisites: string[], produces: string[]) {
  return defineStageTool({
    name,
    description: `The ${name} tool.`,
    input: z.strictObject({}),
    prerequisites,
    produces,
    run: () => ({ ok: true, confidence: 1, explanations: [], data: null }),
  });
}

// Seed 000's core tools, with what each needs and makes.
const seedTools = [
  tool('schedule_generator', ['roadmap', 'nodes_with_dependencies'], ['schedule']),
  tool('pattern_selector', ['plan_context'], ['pattern']),
  tool('node_generator', ['pattern'], ['plan_outline']),
  tool('grammar_validator', ['plan_outline'], ['outline_report']),
  tool('dependency_resolver', ['plan_outline'], ['nodes_with_dependencies']),
  tool('roadmap_builder', ['outline_report', 'nodes_with_dependencies'], ['roadmap']),
  tool('context_elicitor', [], ['plan_context']),
];

describe('checkToolOrder', () => {
  it('orders tools by their prerequisites, ties by name', () => {
    expect(checkToolOrder(seedTools)).toEqual({
      ok: true,
      order: [
        'context_elicitor',
        'pattern_selector',
        'node_generator',
        'dependency_resolver',
        'grammar_validator',
        'roadmap_builder',
        'schedule_generator',
      ],
      missing: [],
      cycles: [],
      blocked: [],
    });
  });

  it('finds prerequisites nobody produces, unless the host supplies them', () => {
    const tools = seedTools.filter((t) => t.name !== 'context_elicitor');
    const report = checkToolOrder(tools);
    expect(report.ok).toBe(false);
    expect(report.missing).toEqual([{ tool: 'pattern_selector', artifact: 'plan_context' }]);
    expect(report.blocked).toHaveLength(6);
    expect(report.cycles).toEqual([]);
    expect(checkToolOrder(tools, { available: ['plan_context'] }).ok).toBe(true);
  });

  it('finds cycles, self-loops included, and what they block', () => {
    const report = checkToolOrder([
      tool('a', ['y'], ['x']),
      tool('b', ['x'], ['y']),
      tool('c', ['x'], ['z']),
      tool('d', ['w'], ['w']),
      tool('e', [], ['v']),
    ]);
    expect(report).toEqual({
      ok: false,
      order: ['e'],
      missing: [],
      cycles: [['a', 'b'], ['d']],
      blocked: ['a', 'b', 'c', 'd'],
    });
  });

  it('refuses tools it did not make and repeated names', () => {
    expect(() => checkToolOrder([{ name: 'x' } as never])).toThrow(/defineStageTool/);
    const a = tool('a', [], []);
    expect(() => checkToolOrder([a, a])).toThrow(/repeats the name a/);
    expect(() => checkToolOrder([a], { available: [1] as never })).toThrow(/strings only/);
    expect(() => checkToolOrder([a], { known: [] } as never)).toThrow(/options.known/);
  });
});
