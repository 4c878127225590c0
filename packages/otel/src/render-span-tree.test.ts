import { describe, expect, it } from 'vitest';
import { type FinishedSpan, renderSpanTree } from './render-span-tree.ts';

function span(
  id: string,
  name: string,
  start: number,
  more: Partial<Omit<FinishedSpan, 'spanContext'>> = {},
): FinishedSpan {
  return {
    name,
    spanContext: () => ({ spanId: id }),
    startTime: [0, start],
    attributes: {},
    events: [],
    status: { code: 0 },
    ...more,
  };
}

describe('renderSpanTree', () => {
  it('nests children under their parent in start order, whatever order the spans ended in', () => {
    const tree = renderSpanTree([
      span('c2', 'second child', 3, { parentSpanContext: { spanId: 'root' } }),
      span('c1', 'first child', 2, { parentSpanId: 'root' }),
      span('root', 'root', 1),
    ]);
    expect(tree).toBe(['root', '  first child', '  second child'].join('\n'));
  });

  it('prints attributes sorted by name, events with theirs, and an error status with its message', () => {
    const tree = renderSpanTree([
      span('a', 'execute_tool planning_mark_step', 1, {
        attributes: { 'z.last': 2, 'a.first': 'x', list: ['S001', 'S002'] },
        events: [{ name: 'plankit.plan.changed', attributes: { 'plankit.plan.revision': 3 } }],
        status: { code: 2, message: 'step_not_found' },
      }),
    ]);
    expect(tree).toBe(
      [
        'execute_tool planning_mark_step  ERROR: step_not_found',
        '  | a.first = "x"',
        '  | list = ["S001", "S002"]',
        '  | z.last = 2',
        '  @ plankit.plan.changed',
        '    | plankit.plan.revision = 3',
      ].join('\n'),
    );
  });

  it('treats a span whose parent was not exported as a root', () => {
    expect(renderSpanTree([span('a', 'orphan', 1, { parentSpanId: 'gone' })])).toBe('orphan');
  });
});
