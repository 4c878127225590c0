import { invokeTool, Plan, Session, selectLatest } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import type { EvalArm, EvalTask } from '../config/define-eval.ts';
import { buildArm } from './build-arm.ts';

const host = {
  kind: 'custom',
  modelId: 'm',
  runTrial: async () => ({ text: '', stop: 'done' as const, turns: 0 }),
};
const task: EvalTask = { id: 't', prompt: 'p', check: () => true };

function setup(planning: EvalArm['planning'], session = new Session()) {
  return buildArm({ id: 'a', host, planning }, task, session, new Map());
}

describe('buildArm', () => {
  it('keeps the reference copy and rules by default, and for text ascii', () => {
    const byDefault = setup({});
    expect(setup({ text: 'ascii' }).system).toBe(byDefault.system);
    expect(byDefault.system).toContain('Stay brief, ASCII-only,');
  });

  it('builds the section and the tools in unicode mode for text unicode', async () => {
    const session = new Session();
    const { system, tools, reminder } = setup({ text: 'unicode', reminder: 'every_turn' }, session);
    expect(system).not.toMatch(/ascii/i);
    expect(system).toContain("write plans in the user's language");
    const setupPlan = tools.find((tool) => tool.name === 'planning_setup_plan');
    if (setupPlan === undefined) throw new Error('no planning_setup_plan');
    const result = await invokeTool(
      setupPlan,
      { objective: 'リリース準備', initial_steps: [{ title: '翻訳を確認する' }] },
      { session },
    );
    expect(result.ok).toBe(true);
    expect(selectLatest(session, Plan)?.steps[0]?.title).toBe('翻訳を確認する');
    expect(reminder(1)).toContain('S001 [pending] 翻訳を確認する');
  });
});
