import { fromPlanAnchor } from '@plankit/prompt';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../testing/unwrap.ts';
import { compactionSignal } from './compaction-signal.ts';
import { completeTodo } from './complete-todo.ts';
import { startPhaseJob } from './start-phase-job.ts';
import { todosPlan } from './todos-plan.ts';

describe('compactionSignal', () => {
  const job = unwrap(completeTodo(startPhaseJob({ jobId: 'j', now: 0 }), { id: 1, now: 0 }));

  it('stays quiet up to the threshold (80,000 by default) and signals past it', () => {
    expect(compactionSignal(job, { contextTokens: 0 })).toBeNull();
    expect(compactionSignal(job, { contextTokens: 80_000 })).toBeNull();
    const due = compactionSignal(job, { contextTokens: 80_001 });
    expect(due).toMatchObject({ type: 'compaction_due', contextTokens: 80_001, threshold: 80_000 });
    const low = startPhaseJob({ jobId: 'j', now: 0, compactionThreshold: 100 });
    expect(compactionSignal(low, { contextTokens: 101 })?.threshold).toBe(100);
  });

  it('keeps the plan anchor: the todos, read back exactly', () => {
    const due = compactionSignal(job, { contextTokens: 90_000 });
    const plan = unwrap(fromPlanAnchor(`Summary of the work so far.\n\n${due?.anchor}`));
    expect(plan).toEqual(todosPlan(job));
    expect(plan.objective).toBe('Strategic phase 1');
    expect(plan.steps.map((step) => [step.step_id, step.status, step.details])).toEqual([
      ['S001', 'done', 'todo id 1'],
      ['S002', 'pending', 'todo id 2'],
      ['S003', 'pending', 'todo id 3'],
      ['S004', 'pending', 'todo id 4'],
    ]);
  });

  it('keeps todos of any text readable in the anchor, held to the tools text rules', () => {
    const todos = [
      { id: 1, content: 'Read the brief\nthen the notes' },
      { id: 2, content: 'R\u00e9sum\u00e9 \u2014 check' },
      { id: 3, content: 'x'.repeat(400) },
    ];
    const custom = startPhaseJob({ jobId: 'j', now: 0, todos: { initial: todos } });
    const due = compactionSignal(custom, { contextTokens: 90_000 });
    const plan = unwrap(fromPlanAnchor(due?.anchor ?? ''));
    expect(plan).toEqual(todosPlan(custom));
    expect(plan.steps.map((step) => step.title)).toEqual([
      'Read the brief\\nthen the notes',
      'R\\u00e9sum\\u00e9 \\u2014 check',
      `${'x'.repeat(157)}...`,
    ]);
  });

  it('keeps todos in any language as they are in unicode mode, composed, unsafe characters escaped', () => {
    const todos = [
      { id: 1, content: '翻訳を確認する' },
      { id: 2, content: 'R\u00e9sum\u00e9 \u2014 check \ud83d\ude80' },
      { id: 3, content: 'Cafe\u0301 menu' },
      { id: 4, content: 'Read the brief\nthen \u202Ethe notes' },
    ];
    const custom = startPhaseJob({ jobId: 'j', now: 0, todos: { initial: todos } });
    const due = compactionSignal(custom, { contextTokens: 90_000, text: 'unicode' });
    const plan = unwrap(fromPlanAnchor(due?.anchor ?? ''));
    expect(plan).toEqual(todosPlan(custom, { text: 'unicode' }));
    expect(plan.steps.map((step) => step.title)).toEqual([
      '翻訳を確認する',
      'R\u00e9sum\u00e9 \u2014 check \ud83d\ude80',
      'Caf\u00e9 menu',
      'Read the brief\\nthen \\u202ethe notes',
    ]);
    // The default is the reference's: ASCII, as before.
    expect(todosPlan(custom, { text: 'ascii' })).toEqual(todosPlan(custom));
    expect(compactionSignal(custom, { contextTokens: 90_000, text: 'ascii' })?.anchor).toBe(
      compactionSignal(custom, { contextTokens: 90_000 })?.anchor,
    );
  });

  it("refuses a text mode that is not one, in core's words", () => {
    expect(() => compactionSignal(job, { contextTokens: 1, text: 'utf8' as never })).toThrow(
      'compactionSignal: input.text must be one of ascii, unicode.',
    );
    expect(() => todosPlan(job, { text: 'utf8' as never })).toThrow(
      'todosPlan: options.text must be one of ascii, unicode.',
    );
    expect(() => todosPlan(job, { txt: 'unicode' } as never)).toThrow(
      /options.txt is not an option/,
    );
  });

  it("anchors the agent's own plan when given", () => {
    const plan = { objective: 'Mine', status: 'active' as const, steps: [] };
    const due = compactionSignal(job, { contextTokens: 90_000, plan });
    expect(unwrap(fromPlanAnchor(due?.anchor ?? ''))).toEqual(plan);
  });

  it('refuses bad input', () => {
    expect(() => compactionSignal(job, { contextTokens: -1 })).toThrow(/contextTokens/);
    expect(() => compactionSignal(job, { contextTokens: 1, plan: {} as never })).toThrow(/plan/);
    expect(() => compactionSignal(job, { tokens: 1 } as never)).toThrow(
      /input.tokens is not an option/,
    );
  });
});
