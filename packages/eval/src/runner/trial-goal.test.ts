import { MemoryStore } from '@plankit/adapters/stores';
import { Session } from '@plankit/core';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { exampleTasks, solve } from '../../../../examples/eval-planning/src/tasks.ts';
import {
  defineEval,
  type EvalArm,
  type EvalConfig,
  type EvalTask,
  type GoalArm,
} from '../config/define-eval.ts';
import { llmJudge } from '../config/task-checker.ts';
import { aiSdkHost } from '../hosts/ai-sdk-host.ts';
import type { TranscriptEntry } from '../hosts/eval-host.ts';
import { scriptedModel } from '../scripted/scripted-model.ts';
import { runEval } from './run-eval.ts';
import { startTrialGoal } from './trial-goal.ts';

const prices = {
  scripted: { usdPerMillionInput: 1, usdPerMillionOutput: 4 },
  replanner: { usdPerMillionInput: 1, usdPerMillionOutput: 4 },
};

const scripted = (successRate: number) =>
  aiSdkHost({ model: scriptedModel({ modelId: 'scripted', successRate, solve }) });

function config(arms: EvalArm[], overrides: Partial<EvalConfig> = {}): EvalConfig {
  return defineEval({
    arms,
    tasks: exampleTasks,
    repetitions: 4,
    seed: 11,
    maxTurns: 40,
    maxOutputTokens: 512,
    prices,
    ...overrides,
  });
}

type Prompt = Parameters<MockLanguageModelV3['doGenerate']>[0]['prompt'];

/**
 * A model that only re-plans: every answer sets up a new plan (a new objective, no step done),
 * then says it is done; the files are never written.
 */
function replanner(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: 'test',
    modelId: 'replanner',
    doGenerate: async ({ prompt }: { prompt: Prompt }) => {
      // It alternates: a set-up call, then an answer.
      const calls = prompt.filter((m) => m.role === 'assistant').length;
      const answers = Math.floor(calls / 2);
      const usage = {
        inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 20, text: 20, reasoning: 0 },
      };
      if (calls % 2 === 1)
        return {
          content: [{ type: 'text', text: 'Planned; done for now.' }],
          finishReason: { unified: 'stop', raw: undefined },
          usage,
          warnings: [],
        };
      return {
        content: [
          {
            type: 'tool-call',
            toolCallId: `c${answers}`,
            toolName: 'planning_setup_plan',
            input: JSON.stringify({
              objective: `Approach ${answers + 1}`,
              initial_steps: [{ title: `Think about it, take ${answers + 1}` }],
            }),
          },
        ],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

describe('a goal arm', () => {
  it('continues after a failed answer until the check passes, and stops as achieved', async () => {
    const run = await runEval(
      config([
        { id: 'none', host: scripted(0.5), planning: false },
        { id: 'goal', host: scripted(0.5), planning: false, goal: { budget: { turns: 6 } } },
      ]),
      { store: new MemoryStore() },
    );
    const none = run.trials.filter((t) => t.armId === 'none');
    const goal = run.trials.filter((t) => t.armId === 'goal');
    expect(none.every((t) => t.goal === undefined)).toBe(true);
    expect(goal).toHaveLength(12);
    // Each trial has its own seed, so the goal arm's first answers fail like the other arm's;
    // the continuation line then has it fix the file until the task's own check passes.
    const achieved = goal.filter((t) => t.goal?.status === 'achieved');
    expect(achieved.length).toBeGreaterThan(none.filter((t) => t.pass).length);
    for (const trial of achieved) expect(trial.pass).toBe(true);
    const continued = goal.find((t) => (t.goal?.turns ?? 0) > 1);
    expect(continued).toBeDefined();
    const entries = continued?.transcript.filter((e) => e.kind === 'goal') ?? [];
    expect(entries[0]).toMatchObject({ status: 'active' });
    expect(entries[0]?.kind === 'goal' && entries[0].text).toMatch(
      /^Goal: .*Keep working toward it: the last check says not yet/,
    );
    // The line went to the model as the next user message.
    const lastGoal = entries.at(-1);
    expect(lastGoal?.kind === 'goal' && lastGoal.status).toMatch(/achieved|budget_limited/);
    for (const trial of goal) expect(trial.goal?.checks).toBe(trial.goal?.turns);
  }, 60_000);

  it('stops a model that only re-plans as blocked within the guard, far below its budget', async () => {
    const run = await runEval(
      config(
        [
          {
            id: 'goal',
            host: aiSdkHost({ model: replanner() }),
            planning: {},
            goal: { budget: { turns: 50, tokens: 1_000_000 } },
          },
        ],
        { repetitions: 1, maxTurns: 200 },
      ),
      { store: new MemoryStore() },
    );
    for (const trial of run.trials) {
      expect(trial.status).toBe('finished');
      expect(trial.goal?.status).toBe('blocked');
      expect(trial.goal?.reason).toMatch(
        /^Only re-planning: the plan was set up, re-planned or rewritten on 4 turns/,
      );
      // The first plan is not churn; four more set-ups trip the default guard.
      expect(trial.goal?.turns).toBe(5);
      expect(trial.turns).toBe(10);
      expect(trial.tokens).toBeLessThan(1_000_000 / 100);
      expect(trial.pass).toBe(false);
    }
  });

  it('a tighter guard stops sooner', async () => {
    const run = await runEval(
      config(
        [
          {
            id: 'goal',
            host: aiSdkHost({ model: replanner() }),
            planning: {},
            goal: { guard: { churnTurns: 2 } },
          },
        ],
        { repetitions: 1, tasks: exampleTasks.slice(0, 1) },
      ),
      { store: new MemoryStore() },
    );
    expect(run.trials[0]?.goal).toMatchObject({ status: 'blocked', turns: 3 });
  });

  it('stops as budget_limited once a cap is reached, and makes no call after it', async () => {
    const run = await runEval(
      config(
        [{ id: 'goal', host: scripted(0), planning: false, goal: { budget: { tokens: 5000 } } }],
        { repetitions: 1 },
      ),
      { store: new MemoryStore() },
    );
    for (const trial of run.trials) {
      expect(trial.goal?.status).toBe('budget_limited');
      expect(trial.goal?.reason).toMatch(
        /^Stopped: the token budget is spent \(\d+ of 5000 tokens\)\.$/,
      );
      // The answer that reached the cap was the last: its call is the trial's last.
      const decisions = trial.transcript.filter((e) => e.kind === 'goal');
      expect(decisions.at(-1)?.turn).toBe(trial.turns);
      const before = decisions.at(-2);
      expect(before?.kind === 'goal' && before.status).toBe('active');
      expect(trial.pass).toBe(false);
    }
  });

  it("stops on the wall-time budget, on the run's clock", async () => {
    let now = 0;
    const run = await runEval(
      config(
        [
          {
            id: 'goal',
            host: scripted(0),
            planning: false,
            goal: { budget: { wallTimeMs: 5_000 } },
          },
        ],
        { repetitions: 1, tasks: exampleTasks.slice(0, 1) },
      ),
      // Every reading of the clock moves it on a second.
      { store: new MemoryStore(), clock: () => (now += 1_000) },
    );
    const trial = run.trials[0];
    expect(trial?.goal?.status).toBe('budget_limited');
    expect(trial?.goal?.reason).toMatch(/^Stopped: the time budget is spent \(\d+ of 5000 ms\)\.$/);
  });

  it('errors the trial when the goal cannot hold its task', async () => {
    const run = await runEval(
      config([{ id: 'goal', host: scripted(1), planning: false, goal: true }], {
        repetitions: 1,
        tasks: [{ id: 'blank', prompt: '   ', check: () => true }],
      }),
      { store: new MemoryStore() },
    );
    expect(run.trials[0]).toMatchObject({ status: 'errored', turns: 0 });
    expect(run.trials[0]?.error).toMatch(
      /^createGoal: options.objective must be 1-2000 characters/,
    );
  });

  it('stops on a turn budget with all_steps_done as the verifier', async () => {
    const run = await runEval(
      config(
        [
          {
            id: 'goal',
            host: scripted(0),
            planning: { reminder: 'every_turn' },
            goal: { verifier: 'all_steps_done', budget: { turns: 3 } },
          },
        ],
        { repetitions: 1, tasks: exampleTasks.slice(1, 2) },
      ),
      { store: new MemoryStore() },
    );
    const trial = run.trials[0];
    expect(trial?.goal).toMatchObject({ status: 'budget_limited', turns: 3, checks: 3 });
    expect(trial?.goal?.reason).toBe('Stopped: the turn budget is spent (3 of 3 turns).');
    // The goal's line joins the plan reminder once the goal has moved.
    const reminders = trial?.transcript.filter((e) => e.kind === 'reminder') ?? [];
    expect(reminders.some((e) => e.kind === 'reminder' && /Goal \(active\): /.test(e.text))).toBe(
      true,
    );
  });

  it("keeps each trial's goal in the results log: a resumed run reports the same outcomes", async () => {
    const store = new MemoryStore();
    const arms: EvalArm[] = [
      { id: 'none', host: scripted(0.5), planning: false },
      { id: 'goal', host: scripted(0.5), planning: {}, goal: { budget: { turns: 3 } } },
    ];
    const first = await runEval(config(arms, { repetitions: 2 }), { store });
    const again = await runEval(config(arms, { repetitions: 2 }), { store, resume: true });
    expect(again.trials).toHaveLength(12);
    expect(again.report.arms[1]?.goal).toEqual(first.report.arms[1]?.goal);
    expect(again.report.goals).toEqual(first.report.goals);
    expect(again.report.arms[1]?.goal?.outcomes.achieved).toBeGreaterThan(0);
  }, 30_000);

  it('takes a verifier of its own, and an unmet verdict stops the goal', async () => {
    const seen: { objective: string; criteria: string | null }[] = [];
    const run = await runEval(
      config(
        [
          {
            id: 'goal',
            host: scripted(0),
            planning: false,
            goal: {
              verifier: async ({ goal }) => {
                seen.push({ objective: goal.objective, criteria: goal.criteria });
                return goal.counters.turns < 1
                  ? { verdict: 'not_yet', reason: 'Keep going.' }
                  : { verdict: 'unmet', reason: 'The fixture cannot be fixed.' };
              },
            },
          },
        ],
        { repetitions: 1, tasks: exampleTasks.slice(0, 1) },
      ),
      { store: new MemoryStore() },
    );
    expect(run.trials[0]?.goal).toMatchObject({
      status: 'unmet',
      turns: 2,
      reason: 'The verifier says the goal cannot be met: The fixture cannot be fixed.',
    });
    // The task's prompt is the objective, its criteria the goal's.
    expect(seen[0]).toEqual({
      objective: exampleTasks[0]?.prompt,
      criteria: exampleTasks[0]?.criteria,
    });
  });
});

describe('startTrialGoal', () => {
  const context = (task: EvalTask, verifier?: GoalArm['verifier']) => {
    const transcript: TranscriptEntry[] = [];
    let now = 1_000;
    const driver = startTrialGoal(verifier === undefined ? {} : { verifier }, {
      arm: { id: 'goal', host: scripted(1), planning: false, goal: true },
      task,
      session: new Session({ clock: () => now }),
      files: new Map(),
      transcript,
      record: (entry) => transcript.push(entry),
      now: () => (now += 10),
      used: () => ({ tokens: 0, usd: 0 }),
    });
    return { driver, transcript };
  };

  it('a checker that throws is an unknown verdict: the goal goes on, never achieved', async () => {
    const { driver, transcript } = context({
      id: 't',
      prompt: 'Do it.',
      check: () => {
        throw new Error('disk gone');
      },
    });
    const line = await driver.afterAnswer('Done.', 1);
    expect(line).toMatch(/Keep working toward it: the last check gave no readable verdict/);
    expect(driver.result()).toEqual({ status: 'active', reason: null, turns: 1, checks: 1 });
    expect(transcript).toEqual([{ kind: 'goal', turn: 1, status: 'active', text: line }]);
  });

  it("takes an LLM judge's rubric as the criteria when the task has none", async () => {
    const seen: (string | null)[] = [];
    const { driver } = context(
      {
        id: 't',
        prompt: 'Summarise the risks.',
        check: llmJudge({ rubric: 'Names all three risks.', judge: async () => 'VERDICT: PASS' }),
      },
      async ({ goal }) => {
        seen.push(goal.criteria);
        return { verdict: 'achieved' };
      },
    );
    expect(await driver.afterAnswer('Risks: a, b, c.', 1)).toBeUndefined();
    expect(seen).toEqual(['Names all three risks.']);
    expect(driver.result().status).toBe('achieved');
    // A goal that has stopped is not decided again.
    expect(await driver.afterAnswer('More.', 2)).toBeUndefined();
    expect(driver.result().turns).toBe(1);
  });

  it("an arm's own verifier that throws is unknown; one that resolves to no verdict is refused", async () => {
    const task: EvalTask = { id: 't', prompt: 'Do it.', check: () => true };
    const thrown = context(task, async () => {
      throw new Error('no network');
    });
    expect(await thrown.driver.afterAnswer('Done.', 1)).toMatch(/gave no readable verdict/);
    expect(thrown.driver.result()).toMatchObject({ status: 'active', checks: 1 });
    const junk = context(task, async () => ({ verdict: 'pass' }) as never);
    await expect(junk.driver.afterAnswer('Done.', 1)).rejects.toThrow(
      /input\.verdict\.verdict must be achieved, not_yet, unmet or unknown, got "pass"/,
    );
    expect(junk.driver.result().turns).toBe(0);
  });

  it('a judge reply without a verdict is unknown, not achieved', async () => {
    const { driver } = context({
      id: 't',
      prompt: 'Summarise the risks.',
      check: llmJudge({ rubric: 'Names all three risks.', judge: async () => 'Looks fine to me.' }),
    });
    expect(await driver.afterAnswer('Risks.', 1)).toMatch(/gave no readable verdict/);
    expect(driver.result().status).toBe('active');
  });
});
