import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStore, MemoryStore } from '@plankit/adapters/stores';
import { afterEach, describe, expect, it } from 'vitest';
import { exampleTasks, solve } from '../../../../examples/eval-planning/src/tasks.ts';
import { defineEval, type EvalConfig } from '../config/define-eval.ts';
import { aiSdkHost } from '../hosts/ai-sdk-host.ts';
import type { EvalHost } from '../hosts/eval-host.ts';
import { PlankitEvalError } from '../plankit-eval-error.ts';
import { renderMarkdown } from '../report/render-markdown.ts';
import { scriptedModel } from '../scripted/scripted-model.ts';
import { runEval } from './run-eval.ts';

const prices = {
  good: { usdPerMillionInput: 1, usdPerMillionOutput: 4 },
  weak: { usdPerMillionInput: 1, usdPerMillionOutput: 4 },
};

function config(
  overrides: Partial<EvalConfig> & { good?: number; weak?: number } = {},
): EvalConfig {
  const { good = 0.8, weak = 0.5, ...rest } = overrides;
  return defineEval({
    arms: [
      {
        id: 'none',
        host: aiSdkHost({ model: scriptedModel({ modelId: 'weak', successRate: weak, solve }) }),
        planning: false,
      },
      {
        id: 'plan',
        host: aiSdkHost({ model: scriptedModel({ modelId: 'good', successRate: good, solve }) }),
        planning: { strategy: 'plan_act_reflect', reminder: 'every_turn', inProgress: 'any' },
      },
    ],
    tasks: exampleTasks,
    repetitions: 20,
    seed: 17,
    concurrency: 4,
    maxOutputTokens: 512,
    prices,
    ...rest,
  });
}

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe('runEval on scripted models', () => {
  it('recovers true rates of 0.8 and 0.5 within their intervals and calls the difference', async () => {
    const run = await runEval(config(), { store: new MemoryStore() });
    expect(run.outcome).toBe('completed');
    const [none, plan] = run.report.arms;
    expect(plan?.n).toBe(60);
    expect(none?.n).toBe(60);
    expect(plan?.successRate.low).toBeLessThanOrEqual(0.8);
    expect(plan?.successRate.high).toBeGreaterThanOrEqual(0.8);
    expect(none?.successRate.low).toBeLessThanOrEqual(0.5);
    expect(none?.successRate.high).toBeGreaterThanOrEqual(0.5);
    const pair = run.report.pairs[0];
    expect(pair?.significant).toBe(true);
    expect(pair?.difference.low).toBeGreaterThan(0);
    expect(pair?.difference.low).toBeLessThanOrEqual(0.3);
    expect(pair?.difference.high).toBeGreaterThanOrEqual(0.3);
    expect(run.report.verdict[0]).toMatch(/^plan succeeds more often than none/);
    // The planning arm really planned through the real tools; the other never did.
    expect(plan?.plan.stepsCreated.mean).toBeGreaterThan(1);
    expect(plan?.plan.planningCalls.mean).toBeGreaterThan(1);
    expect(none?.plan.planningCalls.mean).toBe(0);
    // every_turn reminders were sent to the planning arm.
    const trial = run.trials.find((t) => t.armId === 'plan');
    expect(trial?.transcript.some((entry) => entry.kind === 'reminder')).toBe(true);
    expect(trial?.verdict?.by).toBe('function');
  }, 60_000);

  it('does not call equal arms (0.6 vs 0.6) different on a few seeded full runs', async () => {
    for (const seed of [1, 2]) {
      const run = await runEval(config({ good: 0.6, weak: 0.6, seed, repetitions: 10 }), {
        store: new MemoryStore(),
      });
      expect(run.report.pairs[0]?.significant).toBe(false);
      expect(run.report.verdict[0]).toMatch(
        /^No significant difference between none and plan at n = 30 vs 30: plan - none = /,
      );
    }
  }, 30_000);

  it('the same seed gives the same trials, in the same order', async () => {
    const small = config({ repetitions: 2, concurrency: 1 });
    const a = await runEval(small, { store: new MemoryStore() });
    const b = await runEval(small, { store: new MemoryStore() });
    expect(a.trials.map((t) => [t.key, t.pass])).toEqual(b.trials.map((t) => [t.key, t.pass]));
  }, 30_000);
});

describe('budget', () => {
  it('never passes the total cap: stops cleanly and reports what ran', async () => {
    const run = await runEval(config({ budget: { totalUsd: 0.05 } }), { store: new MemoryStore() });
    expect(run.outcome).toBe('run_budget');
    expect(run.report.trials.usd).toBeLessThanOrEqual(0.05);
    expect(run.report.trials.finished).toBeGreaterThan(0);
    expect(run.report.trials.finished).toBeLessThan(120);
    expect(run.report.verdict.at(-1)).toMatch(/stopped early \(the total budget was reached\)/);
  });

  it('a trial over its own token cap stops and is checked as it stands', async () => {
    const run = await runEval(config({ repetitions: 1, budget: { perTrialTokens: 3000 } }), {
      store: new MemoryStore(),
    });
    expect(run.outcome).toBe('completed');
    for (const trial of run.trials) expect(trial.tokens).toBeLessThanOrEqual(3000);
    expect(run.trials.some((trial) => trial.stop === 'trial_budget')).toBe(true);
    expect(
      run.trials.filter((t) => t.stop === 'trial_budget').every((t) => t.status === 'finished'),
    ).toBe(true);
  });
});

describe('a custom host', () => {
  it('leaves the budget to callModel and gets the trial ids without parsing the key', async () => {
    const seen: string[] = [];
    const host: EvalHost = {
      kind: 'custom',
      modelId: 'weak',
      async runTrial(input) {
        seen.push(`${input.taskId}/${input.armId}/${input.repetition} ${input.trialKey}`);
        // A model that never stops calling: only the per-trial cap ends the trial.
        for (let turn = 1; turn <= input.maxTurns; turn++) {
          const reply = await input.callModel(
            { messages: ['go on'] },
            async () => ({ used: 700 }),
            (r) => ({ inputTokens: r.used, outputTokens: 100, cachedInputTokens: 0 }),
          );
          if (!reply.ok)
            return { text: '', stop: reply.stop, turns: reply.called ? turn : turn - 1 };
        }
        return { text: '', stop: 'max_turns', turns: input.maxTurns };
      },
    };
    const run = await runEval(
      defineEval({
        arms: [{ id: 'custom', host, planning: false }],
        tasks: exampleTasks.slice(0, 1),
        repetitions: 2,
        seed: 3,
        maxTurns: 50,
        maxOutputTokens: 100,
        budget: { perTrialTokens: 6000, totalUsd: 1 },
        prices,
      }),
      { store: new MemoryStore() },
    );
    for (const line of seen) {
      const [ids, key] = line.split(' ');
      expect(ids).toBe(key);
    }
    expect(seen).toHaveLength(2);
    for (const trial of run.trials) {
      expect(trial.stop).toBe('trial_budget');
      expect(trial.turns).toBeGreaterThan(1);
      expect(trial.tokens).toBe(trial.turns * 800);
      expect(trial.tokens).toBeLessThanOrEqual(6000);
      expect(trial.usd).toBeGreaterThan(0);
    }
  });
});

describe('results log and resume', () => {
  it('an aborted run resumes where it stopped and runs every trial exactly once', async () => {
    const out = await mkdtemp(join(tmpdir(), 'plankit-eval-'));
    folders.push(out);
    const abort = new AbortController();
    const first = await runEval(config({ repetitions: 4 }), {
      out,
      signal: abort.signal,
      onProgress: (p) => {
        if (p.done >= 7) abort.abort();
      },
    });
    expect(first.outcome).toBe('aborted');
    const finishedFirst = first.trials.filter((t) => t.status === 'finished').length;
    expect(finishedFirst).toBeGreaterThanOrEqual(7);
    expect(finishedFirst).toBeLessThan(24);
    await expect(runEval(config({ repetitions: 4 }), { out })).rejects.toMatchObject({
      code: 'run_exists',
      message: `runEval: the output folder ${JSON.stringify(out)} already holds a run; pass resume: true (--resume) to continue it, choose another folder, or delete this one to start over.`,
    });
    await expect(runEval(config({ repetitions: 5 }), { out, resume: true })).rejects.toSatisfy(
      (error) => PlankitEvalError.isInstance(error) && error.code === 'resume_mismatch',
    );
    const second = await runEval(config({ repetitions: 4 }), { out, resume: true });
    expect(second.outcome).toBe('completed');
    const store = new FileStore({ directory: join(out, 'log') });
    const loaded = await store.load('eval-run');
    await store.close();
    if (!loaded.ok) throw loaded.error;
    const finished = loaded.value.events
      .filter((event) => event.type === 'eval.trial')
      .map((event) => event.data as { key: string; status: string })
      .filter((trial) => trial.status === 'finished')
      .map((trial) => trial.key);
    expect(finished).toHaveLength(24);
    expect(new Set(finished).size).toBe(24);
    expect(second.report.trials.finished).toBe(24);
  }, 30_000);
});

describe('options', () => {
  const bad: readonly (readonly [string, unknown, string])[] = [
    ['an unknown key', { store: new MemoryStore(), output: 'x' }, 'options.output'],
    ['a __proto__ key', JSON.parse('{"__proto__": {"x": 1}}'), 'options.__proto__'],
    ['out that is not a string', { out: 42 }, 'options.out'],
    ['out beside store', { out: 'x', store: new MemoryStore() }, 'options.out'],
    ['a store that is not an object', { store: 'memory' }, 'options.store'],
    ['resume that is not a boolean', { store: new MemoryStore(), resume: 'yes' }, 'options.resume'],
    [
      'a signal that is not an AbortSignal',
      { store: new MemoryStore(), signal: {} },
      'options.signal',
    ],
    [
      'onProgress that is not a function',
      { store: new MemoryStore(), onProgress: 1 },
      'options.onProgress',
    ],
    ['a clock that is not a function', { store: new MemoryStore(), clock: 5 }, 'options.clock'],
    [
      'now, the removed old name of clock',
      { store: new MemoryStore(), now: () => 0 },
      'options.now',
    ],
    ['options that are not an object', null, 'options'],
  ];
  for (const [name, options, field] of bad) {
    it(`refuses ${name} (argument_invalid naming ${field}) before anything runs`, async () => {
      const given = (options as { store?: unknown } | null)?.store;
      const store = given instanceof MemoryStore ? given : new MemoryStore();
      const error = await runEval(config(), options as never).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toMatchObject({ code: 'argument_invalid', field });
      expect((error as Error).message).toMatch(/^runEval: options/);
      // Nothing was logged.
      expect(await store.list()).toEqual({ ok: true, value: [] });
    });
  }
});

describe('hostile hosts, checkers and callbacks', () => {
  const done = async (): Promise<{ text: string; stop: 'done'; turns: number }> => ({
    text: 'done',
    stop: 'done',
    turns: 1,
  });
  function custom(
    runTrial: EvalHost['runTrial'],
    rest: Partial<EvalConfig> = {},
    modelId = 'custom',
  ): EvalConfig {
    return defineEval({
      arms: [{ id: 'a', host: { kind: 'custom', modelId, runTrial }, planning: false }],
      tasks: [{ id: 't', prompt: 'do it', check: () => true }],
      repetitions: 4,
      seed: 3,
      ...rest,
    });
  }

  it('a failing onProgress rejects the run only once no trial is in flight', async () => {
    let inFlight = 0;
    const config = custom(
      async () => {
        inFlight++;
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        return done();
      },
      { concurrency: 3, repetitions: 6 },
    );
    const store = new MemoryStore();
    const error = await runEval(config, {
      store,
      onProgress: () => {
        throw new Error('progress failed');
      },
    }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect((error as Error).message).toBe('progress failed');
    expect(inFlight).toBe(0);
  });

  it('a host that ignores the abort signal is stopped at trialTimeoutMs: errored, and the run ends', async () => {
    let aborted = 0;
    const config = custom(
      (input) =>
        new Promise(() => {
          input.signal.addEventListener('abort', () => aborted++);
        }),
      { trialTimeoutMs: 20, concurrency: 2 },
    );
    const store = new MemoryStore();
    const run = await runEval(config, { store });
    expect(run.outcome).toBe('completed');
    expect(run.trials.map((trial) => [trial.status, trial.stop, trial.error])).toEqual(
      Array.from({ length: 4 }, () => [
        'errored',
        'error',
        'The trial ran past trialTimeoutMs (20 ms) and was stopped; it has no verdict.',
      ]),
    );
    // Each trial's own signal was aborted, for a host that listens.
    expect(aborted).toBe(4);
    // Timed-out trials are done, not cut short: resume runs none of them again.
    const resumed = await runEval(config, { store, resume: true });
    expect(resumed.trials).toHaveLength(4);
  });

  it('a checker that never answers is stopped at trialTimeoutMs too', async () => {
    const config = custom(done, {
      trialTimeoutMs: 20,
      tasks: [{ id: 't', prompt: 'do it', check: () => new Promise<boolean>(() => {}) }],
    });
    const run = await runEval(config, { store: new MemoryStore() });
    expect(run.trials.map((trial) => [trial.status, trial.verdict, trial.error])).toEqual(
      Array.from({ length: 4 }, () => [
        'errored',
        null,
        'The trial ran past trialTimeoutMs (20 ms) and was stopped; it has no verdict.',
      ]),
    );
  });

  it('a task tools factory that throws errors its trial, and the run goes on', async () => {
    const config = custom(done, {
      tasks: [
        {
          id: 't',
          prompt: 'do it',
          check: () => true,
          tools: () => {
            throw new Error('no tools today');
          },
        },
      ],
    });
    const store = new MemoryStore();
    const run = await runEval(config, { store });
    expect(run.outcome).toBe('completed');
    expect(run.trials.map((trial) => [trial.status, trial.error])).toEqual(
      Array.from({ length: 4 }, () => ['errored', 'no tools today']),
    );
    await expect(runEval(config, { store, resume: true })).resolves.toMatchObject({
      outcome: 'completed',
    });
  });

  it.each([
    [
      'a stop resume cannot read',
      { text: 'x', stop: 'finished', turns: 1 },
      /^The host's output is refused: stop: /,
    ],
    [
      'turns that are not a whole number',
      { text: 'x', stop: 'done', turns: Number.NaN },
      /refused: turns: .*NaN/,
    ],
    ['text that is not a string', { text: 42, stop: 'done', turns: 1 }, /refused: text: .*string/],
    ['nothing', undefined, /refused: record: .*object/],
  ])(
    'a host that returns %s errors its trial, and the log still resumes',
    async (_name, output, rule) => {
      const config = custom(async () => output as never);
      const store = new MemoryStore();
      const run = await runEval(config, { store });
      expect(run.outcome).toBe('completed');
      for (const trial of run.trials) {
        expect(trial.status).toBe('errored');
        expect(trial.stop).toBe('error');
        expect(trial.error).toMatch(rule);
      }
      // The records the run logged pass the checks resume applies.
      const resumed = await runEval(config, { store, resume: true });
      expect(resumed.trials).toHaveLength(4);
    },
  );

  it('a wall clock that steps back logs no negative duration, so the run still resumes', async () => {
    let time = 1_000_000;
    const config = custom(done);
    const store = new MemoryStore();
    const run = await runEval(config, { store, clock: () => (time -= 10) });
    expect(run.trials.every((trial) => trial.durationMs === 0)).toBe(true);
    const resumed = await runEval(config, { store, resume: true });
    expect(resumed.trials).toHaveLength(4);
  });

  it.each([
    [
      'a reason that is not a string',
      { pass: true, reason: 5 },
      /must return a boolean or \{ pass, reason\?: string \}/,
    ],
    ['nothing', undefined, /must return a boolean or \{ pass, reason\?: string \}/],
    ['null', null, /must return a boolean or \{ pass, reason\?: string \}/],
  ])(
    'a checker that returns %s errors its trial, and the log still resumes',
    async (_name, answer, rule) => {
      const config = custom(done, {
        tasks: [{ id: 't', prompt: 'do it', check: () => answer as never }],
      });
      const store = new MemoryStore();
      const run = await runEval(config, { store });
      for (const trial of run.trials) {
        expect(trial.status).toBe('errored');
        expect(trial.error).toMatch(rule);
      }
      await expect(runEval(config, { store, resume: true })).resolves.toMatchObject({
        outcome: 'completed',
      });
    },
  );

  it("a checker's reason is kept to 4,000 characters, as a judge's is", async () => {
    const config = custom(done, {
      tasks: [
        { id: 't', prompt: 'do it', check: () => ({ pass: true, reason: 'r'.repeat(1 << 20) }) },
      ],
    });
    const run = await runEval(config, { store: new MemoryStore() });
    for (const trial of run.trials) {
      expect(trial.pass).toBe(true);
      expect(trial.verdict?.reason).toHaveLength(4000);
    }
  });

  it.each([
    [
      'NaN tokens',
      () => ({ inputTokens: Number.NaN, outputTokens: 5, cachedInputTokens: 0 }),
      /usage is refused: inputTokens/,
    ],
    [
      'missing tokens',
      () => ({ outputTokens: 5, cachedInputTokens: 0 }) as never,
      /usage is refused: inputTokens/,
    ],
    [
      'a mapping that throws',
      () => {
        throw new Error('no usage in the reply');
      },
      /^no usage in the reply$/,
    ],
  ])(
    'a call whose usage is %s counts at its worst case and errors the trial',
    async (_name, usage, reason) => {
      const config = custom(
        async (input) => {
          const reply = await input.callModel({ messages: ['hi'] }, async () => 'reply', usage);
          if (!reply.ok) return { text: '', stop: reply.stop, turns: 0 };
          return { text: reply.value, stop: 'done', turns: 1 };
        },
        { repetitions: 2, maxOutputTokens: 100, budget: { totalTokens: 100_000 } },
      );
      const store = new MemoryStore();
      const run = await runEval(config, { store });
      for (const trial of run.trials) {
        expect(trial.status).toBe('errored');
        expect(trial.error).toMatch(reason);
        // The reserved worst case: at least maxOutputTokens, never NaN.
        expect(trial.outputTokens).toBe(100);
        expect(Number.isSafeInteger(trial.tokens)).toBe(true);
      }
      expect(renderMarkdown(run.report)).not.toContain('NaN');
      await expect(runEval(config, { store, resume: true })).resolves.toMatchObject({
        outcome: 'completed',
      });
    },
  );

  it('counts a call with an unknown usage at its own worst case while another call is held', async () => {
    const counted = { inputTokens: 7, outputTokens: 3, cachedInputTokens: 0 };
    const config = custom(
      async (input) => {
        // Two calls held at once: a big one whose usage is unknown, a small one that reports.
        const [big, small] = await Promise.all([
          input.callModel(
            { messages: ['x'.repeat(4000)] },
            async () => 'a',
            () => {
              throw new Error('no usage in the reply');
            },
          ),
          input.callModel(
            { messages: ['hi'] },
            async () => 'b',
            () => counted,
          ),
        ]);
        return { text: `${big.ok}${small.ok}`, stop: 'done', turns: 1 };
      },
      { repetitions: 1, maxOutputTokens: 100 },
    );
    const [trial] = (await runEval(config, { store: new MemoryStore() })).trials;
    expect(trial?.status).toBe('errored');
    // The big call's worst case: its 4,000 bytes sent and maxOutputTokens, plus the small call.
    expect(trial?.inputTokens).toBeGreaterThan(4000 + counted.inputTokens);
    expect(trial?.outputTokens).toBe(100 + counted.outputTokens);
  });
});
