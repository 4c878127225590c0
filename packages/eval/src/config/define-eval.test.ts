import { describe, expect, it } from 'vitest';
import { aiSdkHost } from '../hosts/ai-sdk-host.ts';
import { PlankitEvalError } from '../plankit-eval-error.ts';
import { scriptedModel } from '../scripted/scripted-model.ts';
import { defineEval, type EvalConfig } from './define-eval.ts';

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
    ['no checker', { ...base, tasks: [{ id: 't', prompt: 'p' }] }, 'tasks[0].check'],
    [
      'an empty prompt',
      { ...base, tasks: [{ id: 't', prompt: '', check: () => true }] },
      'tasks[0].prompt',
    ],
    [
      'a fixture that is not text',
      { ...base, tasks: [{ id: 't', prompt: 'p', check: () => true, fixtures: { a: 1 } }] },
      'tasks[0].fixtures["a"]',
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
  ])('refuses %s, naming the field', (_name, config, field) => {
    expect(refusal(config)).toEqual({ code: 'config_invalid', field });
  });
});
