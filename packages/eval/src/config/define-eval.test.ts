import { describe, expect, it } from 'vitest';
import { aiSdkHost } from '../hosts/ai-sdk-host.ts';
import { PlankitEvalError } from '../plankit-eval-error.ts';
import { scriptedModel } from '../scripted/scripted-model.ts';
import { defineEval, type EvalConfig } from './define-eval.ts';
import { MAX_TRIALS } from './eval-config-schema.ts';

const host = aiSdkHost({
  model: scriptedModel({ modelId: 'm', successRate: 0.5, solve: () => undefined }),
});
const base: EvalConfig = {
  arms: [{ id: 'a', host, planning: false }],
  tasks: [{ id: 't', prompt: 'p', check: () => true }],
  repetitions: 1,
  seed: 1,
};

function refusal(config: unknown): { code: string; field: string | undefined } {
  try {
    defineEval(config as EvalConfig);
  } catch (error) {
    if (PlankitEvalError.isInstance(error)) return { code: error.code, field: error.field };
    throw error;
  }
  throw new Error('accepted');
}

describe('defineEval', () => {
  it('accepts a valid config and freezes it', () => {
    expect(Object.isFrozen(defineEval(base))).toBe(true);
  });

  it.each([
    ['no arms', { ...base, arms: [] }, 'arms'],
    ['a bad arm id', { ...base, arms: [{ id: 'A B', host, planning: false }] }, 'arms[0].id'],
    ['a repeated arm id', { ...base, arms: [base.arms[0], base.arms[0]] }, 'arms[1].id'],
    [
      'a host that is not one',
      { ...base, arms: [{ id: 'a', host: {}, planning: false }] },
      'arms[0].host',
    ],
    [
      'an unknown strategy',
      { ...base, arms: [{ id: 'a', host, planning: { strategy: 'guess' } }] },
      'arms[0].planning.strategy',
    ],
    [
      'an unknown cadence',
      { ...base, arms: [{ id: 'a', host, planning: { reminder: 'sometimes' } }] },
      'arms[0].planning.reminder',
    ],
    [
      'a bad inProgress',
      { ...base, arms: [{ id: 'a', host, planning: { inProgress: 'many' } }] },
      'arms[0].planning.inProgress',
    ],
    [
      'an unknown text mode',
      { ...base, arms: [{ id: 'a', host, planning: { text: 'utf8' } }] },
      'arms[0].planning.text',
    ],
    ['no checker', { ...base, tasks: [{ id: 't', prompt: 'p' }] }, 'tasks[0].check'],
    [
      'an empty prompt',
      { ...base, tasks: [{ id: 't', prompt: '', check: () => true }] },
      'tasks[0].prompt',
    ],
    [
      'a fixture that is not text',
      { ...base, tasks: [{ id: 't', prompt: 'p', check: () => true, fixtures: { a: 1 } }] },
      'tasks[0].fixtures.a',
    ],
    ['NaN repetitions', { ...base, repetitions: Number.NaN }, 'repetitions'],
    ['a negative seed', { ...base, seed: -1 }, 'seed'],
    ['too much concurrency', { ...base, concurrency: 65 }, 'concurrency'],
    [
      'an Infinity cap',
      { ...base, budget: { totalTokens: Number.POSITIVE_INFINITY } },
      'budget.totalTokens',
    ],
    ['a USD cap without prices', { ...base, budget: { totalUsd: 1 } }, 'arms[0].host.modelId'],
    ['a trialTimeoutMs of 0', { ...base, trialTimeoutMs: 0 }, 'trialTimeoutMs'],
    ['a trialTimeoutMs past a timer', { ...base, trialTimeoutMs: 2 ** 31 }, 'trialTimeoutMs'],
  ])('refuses %s, naming the field', (_name, config, field) => {
    expect(refusal(config)).toEqual({ code: 'config_invalid', field });
  });

  it('refuses an unknown text mode in the words of the other planning options', () => {
    expect(() =>
      defineEval({
        arms: [{ id: 'a', host, planning: { text: 'utf8' } }],
        tasks: base.tasks,
      } as unknown as EvalConfig),
    ).toThrow('arms[0].planning.text: must be one of ascii, unicode, got "utf8"');
  });

  it('names every field at fault in one message, and stays under 2,000 characters', () => {
    try {
      defineEval({
        arms: [{ id: 'A', host: {}, planning: 'yes' }],
        tasks: 'none',
        repetitions: 0,
        seed: 1.5,
        budget: { totalUSD: 1 },
      } as unknown as EvalConfig);
      throw new Error('accepted');
    } catch (error) {
      if (!PlankitEvalError.isInstance(error)) throw error;
      expect(error.code).toBe('config_invalid');
      for (const field of [
        'arms[0].id',
        'arms[0].host',
        'arms[0].planning',
        'tasks',
        'repetitions',
        'seed',
        'budget.totalUSD: is not a config key',
      ])
        expect(error.message).toContain(`- ${field}`);
      expect(error.message).toContain('tasks: must be an array of 1 to 1000 tasks, got "none"');
    }
    const many = {
      ...base,
      tasks: Array.from({ length: 500 }, (_, i) => ({ id: `T${i}`, prompt: '', check: 1 })),
    };
    try {
      defineEval(many as unknown as EvalConfig);
      throw new Error('accepted');
    } catch (error) {
      if (!PlankitEvalError.isInstance(error)) throw error;
      expect(error.message.length).toBeLessThan(2000);
      expect(error.message).toMatch(/the config is invalid \(1500 problems\)/);
      expect(error.message).toMatch(/- and \d+ more$/);
    }
  });

  it('names a field whose key is 1 MiB long, clipped, and stays under 2,000 characters', () => {
    const long = 'k'.repeat(1 << 20);
    for (const [config, field] of [
      [{ ...base, [long]: 1 }, `["${'k'.repeat(64)}..."]`],
      [
        { ...base, tasks: [{ id: 't', prompt: 'p', check: () => true, fixtures: { [long]: 1 } }] },
        `tasks[0].fixtures["${'k'.repeat(64)}..."]`,
      ],
    ] as const) {
      try {
        defineEval(config as unknown as EvalConfig);
        throw new Error('accepted');
      } catch (error) {
        if (!PlankitEvalError.isInstance(error)) throw error;
        expect(error.field).toBe(field);
        expect(error.message).toContain(`\n- ${field}: `);
        expect(error.message.length).toBeLessThan(2000);
      }
    }
  });

  it('checks the keys it returns: an inherited arms list is refused, not lost', () => {
    const config = Object.assign(Object.create({ arms: base.arms }), {
      tasks: base.tasks,
      repetitions: 1,
      seed: 1,
    });
    expect(refusal(config)).toEqual({ code: 'config_invalid', field: 'arms' });
  });

  it('refuses more than MAX_TRIALS trials before anything runs, naming the product', async () => {
    const arms = Array.from({ length: 26 }, (_, i) => ({ id: `a${i}`, host, planning: false }));
    const tasks = Array.from({ length: 1000 }, (_, i) => ({
      id: `t${i}`,
      prompt: 'p',
      check: () => true,
    }));
    const huge = { ...base, arms, tasks, repetitions: 10_000 } as EvalConfig;
    expect(refusal(huge)).toEqual({ code: 'config_invalid', field: 'repetitions' });
    expect(() => defineEval(huge)).toThrow(
      'repetitions: makes 26 arms × 1000 tasks × 10000 repetitions = 260000000 trials, over the cap of 100000 trials per run; run fewer repetitions, arms or tasks, or split the eval into several runs',
    );
    const { runEval } = await import('../runner/run-eval.ts');
    const { MemoryStore } = await import('@plankit/adapters/stores');
    const store = new MemoryStore();
    await expect(runEval(huge, { store })).rejects.toMatchObject({ code: 'config_invalid' });
    expect((await store.load('eval-run')).ok).toBe(false);
    // The cap itself is allowed.
    expect(() => defineEval({ ...base, tasks, repetitions: MAX_TRIALS / 1000 })).not.toThrow();
  });

  it('runEval refuses a plain object with the same message, before anything runs', async () => {
    const { runEval } = await import('../runner/run-eval.ts');
    const { MemoryStore } = await import('@plankit/adapters/stores');
    const store = new MemoryStore();
    const refused = runEval({ arms: base.arms } as unknown as EvalConfig, { store });
    await expect(refused).rejects.toMatchObject({ code: 'config_invalid', field: 'tasks' });
    await expect(refused).rejects.toThrow(
      /^runEval: the config is invalid \(3 problems\):\n- tasks: .*\n- repetitions: .*\n- seed: /,
    );
    const loaded = await store.load('eval-run');
    expect(loaded.ok).toBe(false);
  });
});

describe('defineEval: a goal arm', () => {
  const goalArm = (goal: unknown) => ({
    ...base,
    arms: [{ id: 'a', host, planning: false, goal }],
  });
  const message = (config: unknown): string => {
    try {
      defineEval(config as EvalConfig);
    } catch (error) {
      if (PlankitEvalError.isInstance(error)) return error.message;
      throw error;
    }
    throw new Error('accepted');
  };

  it('accepts true, false, the defaults and every option', () => {
    for (const goal of [
      true,
      false,
      {},
      {
        verifier: 'all_steps_done',
        budget: { tokens: 10_000, costUsd: null, turns: 5, wallTimeMs: 60_000 },
        guard: { churnTurns: 3, repeats: 1 },
      },
      { verifier: async () => ({ verdict: 'achieved' as const }) },
    ])
      expect(() => defineEval(goalArm(goal) as EvalConfig)).not.toThrow();
    expect(() =>
      defineEval({ ...base, tasks: [{ id: 't', prompt: 'p', check: () => true, criteria: 'c' }] }),
    ).not.toThrow();
  });

  it.each([
    ['a goal that is a string', 'yes', 'arms[0].goal'],
    ['an unknown goal key', { budgets: {} }, 'arms[0].goal.budgets'],
    ['an unknown budget key', { budget: { usd: 1 } }, 'arms[0].goal.budget.usd'],
    ['a fractional token cap', { budget: { tokens: 1.5 } }, 'arms[0].goal.budget.tokens'],
    ['a negative turn cap', { budget: { turns: -1 } }, 'arms[0].goal.budget.turns'],
    [
      'an Infinity time cap',
      { budget: { wallTimeMs: Infinity } },
      'arms[0].goal.budget.wallTimeMs',
    ],
    ['a guard of 0 turns', { guard: { churnTurns: 0 } }, 'arms[0].goal.guard.churnTurns'],
    ['an unknown guard key', { guard: { turns: 3 } }, 'arms[0].goal.guard.turns'],
    ['an unknown verifier', { verifier: 'judge' }, 'arms[0].goal.verifier'],
  ])('refuses %s, naming the field', (_name, goal, field) => {
    expect(refusal(goalArm(goal))).toEqual({ code: 'config_invalid', field });
  });

  it('names the rule of each refusal', () => {
    expect(message(goalArm({ budget: { tokens: 1.5 } }))).toContain(
      'arms[0].goal.budget.tokens: must be null or a whole number >= 0, got 1.5',
    );
    expect(message(goalArm({ budgets: {} }))).toContain(
      'arms[0].goal.budgets: is not a config key',
    );
    expect(message(goalArm({ verifier: 'judge' }))).toContain(
      'arms[0].goal.verifier: must be check, all_steps_done or a GoalVerifier function',
    );
  });

  it('refuses a USD goal cap on a model without a price, which could never stop the goal', () => {
    const config = goalArm({ budget: { costUsd: 1 } });
    expect(refusal(config)).toEqual({
      code: 'config_invalid',
      field: 'arms[0].goal.budget.costUsd',
    });
    expect(message(config)).toContain(
      'arms[0].goal.budget.costUsd: needs a price for the arm\'s model in prices ("m")',
    );
    const priced = { ...config, prices: { m: { usdPerMillionInput: 1, usdPerMillionOutput: 1 } } };
    expect(() => defineEval(priced as EvalConfig)).not.toThrow();
  });

  it('refuses criteria of no text or over 2,000 characters', () => {
    for (const criteria of ['', 'x'.repeat(2001), 3])
      expect(
        refusal({ ...base, tasks: [{ id: 't', prompt: 'p', check: () => true, criteria }] }),
      ).toEqual({ code: 'config_invalid', field: 'tasks[0].criteria' });
  });
});
