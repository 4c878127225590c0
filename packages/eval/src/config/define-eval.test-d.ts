import type { Goal, GoalCheckInput } from '@plankit/controller/goal';
import type { Plan, Session } from '@plankit/core';
import { describe, expectTypeOf, it } from 'vitest';
import type { EvalHost, TranscriptEntry } from '../hosts/eval-host.ts';
import {
  defineEval,
  type EvalArm,
  type EvalConfig,
  type EvalTask,
  type GoalArm,
} from './define-eval.ts';
import { type CheckInput, type CheckVerdict, type JudgeChecker, llmJudge } from './task-checker.ts';

declare const host: EvalHost;

describe('defineEval types', () => {
  it('returns the config type; arms and tasks are typed', () => {
    const config = defineEval({
      arms: [
        { id: 'none', host, planning: false },
        {
          id: 'react',
          host,
          planning: { strategy: 'react', reminder: 'every_turn', inProgress: 'any' },
        },
      ],
      tasks: [{ id: 't', prompt: 'p', check: () => true }],
      repetitions: 1,
      seed: 1,
    });
    expectTypeOf(config).toEqualTypeOf<EvalConfig>();
    expectTypeOf(config.arms).toEqualTypeOf<readonly EvalArm[]>();
    expectTypeOf(config.tasks).toEqualTypeOf<readonly EvalTask[]>();
    expectTypeOf<EvalArm['planning']>().toExtend<false | object>();
    // @ts-expect-error an unknown strategy is refused
    const strategy: EvalArm = { id: 'a', host, planning: { strategy: 'tot' } };
    // @ts-expect-error an unknown reminder cadence is refused
    const cadence: EvalArm = { id: 'a', host, planning: { reminder: 'sometimes' } };
    // @ts-expect-error an arm needs a host
    const hostless: EvalArm = { id: 'a', planning: false };
    // @ts-expect-error a task needs a checker
    const unchecked: EvalTask = { id: 't', prompt: 'p' };
    expectTypeOf([strategy, cadence, hostless]).toEqualTypeOf<EvalArm[]>();
    expectTypeOf(unchecked).toEqualTypeOf<EvalTask>();
  });

  it("infers a checker's argument and checks its result", () => {
    defineEval({
      arms: [{ id: 'a', host, planning: false }],
      tasks: [
        {
          id: 't',
          prompt: 'p',
          check: (input) => {
            expectTypeOf(input).toEqualTypeOf<CheckInput>();
            expectTypeOf(input.files).toEqualTypeOf<ReadonlyMap<string, string>>();
            expectTypeOf(input.plan).toEqualTypeOf<Plan | undefined>();
            expectTypeOf(input.session).toEqualTypeOf<Session>();
            expectTypeOf(input.transcript).toEqualTypeOf<readonly TranscriptEntry[]>();
            expectTypeOf(input.text).toBeString();
            return { pass: input.files.has('a'), reason: 'a' } satisfies CheckVerdict;
          },
          tools: (context) => {
            expectTypeOf(context.files).toEqualTypeOf<Map<string, string>>();
            expectTypeOf(context.session).toEqualTypeOf<Session>();
            return [];
          },
        },
        { id: 'u', prompt: 'p', check: async ({ text }) => text.length > 0 },
        // @ts-expect-error a checker returns a boolean or a verdict
        { id: 'v', prompt: 'p', check: () => 'yes' },
      ],
      repetitions: 1,
      seed: 1,
    });
  });

  it('llmJudge builds a judge checker whose judge gets the prompt', () => {
    const checker = llmJudge({
      rubric: 'r',
      judge: async (request) => {
        expectTypeOf(request.prompt).toBeString();
        expectTypeOf(request.input).toEqualTypeOf<CheckInput>();
        return 'VERDICT: PASS';
      },
    });
    expectTypeOf(checker).toEqualTypeOf<JudgeChecker>();
    // @ts-expect-error the judge resolves to text
    llmJudge({ rubric: 'r', judge: async () => true });
  });

  it("types a goal arm's options, its verifier's input included", () => {
    const arm: EvalArm = {
      id: 'goal',
      host,
      planning: false,
      goal: {
        verifier: async (input) => {
          expectTypeOf(input).toEqualTypeOf<GoalCheckInput>();
          expectTypeOf(input.goal).toEqualTypeOf<Goal>();
          return { verdict: 'not_yet', reason: 'r' };
        },
        budget: { tokens: 1000, costUsd: null, turns: 4 },
        guard: { churnTurns: 3 },
      },
    };
    expectTypeOf(arm.goal).toEqualTypeOf<boolean | GoalArm | undefined>();
    const flag: EvalArm = { id: 'g', host, planning: false, goal: true };
    // @ts-expect-error a verifier is check, all_steps_done or a function
    const judged: EvalArm = { id: 'g', host, planning: false, goal: { verifier: 'judge' } };
    const passed: EvalArm = {
      id: 'g',
      host,
      planning: false,
      // @ts-expect-error a verdict kind is achieved, not_yet, unmet or unknown
      goal: { verifier: async () => ({ verdict: 'pass' }) },
    };
    // @ts-expect-error a cap is a number or null
    const text: EvalArm = { id: 'g', host, planning: false, goal: { budget: { turns: '4' } } };
    expectTypeOf([flag, judged, passed, text]).toEqualTypeOf<EvalArm[]>();
    const task: EvalTask = { id: 't', prompt: 'p', check: () => true, criteria: 'c' };
    expectTypeOf(task.criteria).toEqualTypeOf<string | undefined>();
  });
});
