import { type JsonValue, MemoryStore } from '@plankit/adapters/stores';
import { describe, expect, it } from 'vitest';
import { exampleTasks, solve } from '../../../../examples/eval-planning/src/tasks.ts';
import { defineEval, type EvalConfig } from '../config/define-eval.ts';
import { aiSdkHost } from '../hosts/ai-sdk-host.ts';
import { PlankitEvalError } from '../plankit-eval-error.ts';
import { scriptedModel } from '../scripted/scripted-model.ts';
import { runEval } from './run-eval.ts';
import { RUN_SESSION_ID } from './trial-log.ts';
import type { TrialRecord } from './trial-record.ts';

const prices = {
  good: { usdPerMillionInput: 1, usdPerMillionOutput: 4 },
  weak: { usdPerMillionInput: 1, usdPerMillionOutput: 4 },
};

function config(budget: EvalConfig['budget'] = {}): EvalConfig {
  return defineEval({
    arms: [
      {
        id: 'none',
        host: aiSdkHost({ model: scriptedModel({ modelId: 'weak', successRate: 0.5, solve }) }),
        planning: false,
      },
      {
        id: 'plan',
        host: aiSdkHost({ model: scriptedModel({ modelId: 'good', successRate: 0.8, solve }) }),
        planning: { strategy: 'react' },
      },
    ],
    tasks: exampleTasks.slice(0, 2),
    repetitions: 2,
    seed: 5,
    maxOutputTokens: 256,
    budget,
    prices,
  });
}

/** A store holding a finished run of `config()`, and its records. */
async function finishedRun(): Promise<{ store: MemoryStore; trials: readonly TrialRecord[] }> {
  const store = new MemoryStore();
  const run = await runEval(config(), { store });
  expect(run.outcome).toBe('completed');
  return { store, trials: run.trials };
}

async function appendRecord(store: MemoryStore, data: unknown): Promise<number> {
  const loaded = await store.load(RUN_SESSION_ID);
  if (!loaded.ok) throw loaded.error;
  const appended = await store.append(RUN_SESSION_ID, loaded.value.version, [
    { type: 'eval.trial', at: 1, data: data as JsonValue },
  ]);
  if (!appended.ok) throw appended.error;
  return appended.value;
}

async function refusal(store: MemoryStore): Promise<PlankitEvalError> {
  try {
    await runEval(config(), { store, resume: true });
  } catch (error) {
    if (PlankitEvalError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('resumed');
}

describe('resume checks every logged record', () => {
  it.each([
    ['a duplicate of a finished trial', (t: TrialRecord) => t, /already ended at event 2/],
    [
      'a record of another run',
      (t: TrialRecord) => ({ ...t, run: 'feedfacefeedface' }),
      /another run/,
    ],
    [
      'an unknown arm',
      (t: TrialRecord) => ({ ...t, armId: 'ghost', key: `${t.taskId}/ghost/1` }),
      /"ghost" is not an arm/,
    ],
    [
      'a repetition above k',
      (t: TrialRecord) => ({ ...t, repetition: 3, key: `${t.taskId}/${t.armId}/3` }),
      /repetition: 3 is above k = 2/,
    ],
    ['a key that does not match', (t: TrialRecord) => ({ ...t, key: 'x/y/1' }), /key: "x\/y\/1"/],
    ['a null cost', (t: TrialRecord) => ({ ...t, usd: null }), /usd:/],
    ['a negative cost', (t: TrialRecord) => ({ ...t, usd: -1 }), /usd:/],
    ['fractional tokens', (t: TrialRecord) => ({ ...t, tokens: 1.5 }), /tokens:/],
    ['no record at all', () => 'hello', /record:/],
    [
      'a goal of an unknown status',
      (t: TrialRecord) => ({
        ...t,
        goal: { status: 'paused', reason: null, turns: 1, checks: 1 },
      }),
      /goal\.status:/,
    ],
    [
      'a goal of fractional turns',
      (t: TrialRecord) => ({
        ...t,
        goal: { status: 'achieved', reason: 'ok', turns: 1.5, checks: 1 },
      }),
      /goal\.turns:/,
    ],
  ])(
    'refuses %s, naming the line, and counts nothing',
    async (_name, forge, rule) => {
      const { store, trials } = await finishedRun();
      const first = trials[0] as TrialRecord;
      const sequence = await appendRecord(store, forge(first));
      const error = await refusal(store);
      expect(error.code).toBe('log_invalid');
      expect(error.field).toBe(`log event ${sequence}`);
      expect(error.message).toContain(`event ${sequence} (line ${sequence} of events.jsonl`);
      expect(error.message).toMatch(rule);
      expect(error.message.length).toBeLessThan(2000);
      // Nothing was appended by the refused resume.
      const loaded = await store.load(RUN_SESSION_ID);
      expect(loaded.ok && loaded.value.version).toBe(sequence);
    },
    30_000,
  );

  it('accepts a cut-short record before the one that ended the trial', async () => {
    const { store, trials } = await finishedRun();
    const first = trials[0] as TrialRecord;
    // A cut-short retry logged after a finished trial would repeat it: refused.
    await appendRecord(store, { ...first, status: 'cut_short', stop: 'aborted', pass: false });
    expect((await refusal(store)).code).toBe('log_invalid');

    const fresh = new MemoryStore();
    const abort = new AbortController();
    const stopped = await runEval(config(), {
      store: fresh,
      signal: abort.signal,
      onProgress: (p) => {
        if (p.done >= 2) abort.abort();
      },
    });
    expect(stopped.outcome).toBe('aborted');
    const resumed = await runEval(config(), { store: fresh, resume: true });
    expect(resumed.outcome).toBe('completed');
    expect(resumed.report.trials.finished).toBe(8);
  }, 30_000);

  it('counts every logged spend against the total cap', async () => {
    const { store, trials } = await finishedRun();
    const spent = trials.reduce((sum, trial) => sum + trial.usd, 0);
    expect(spent).toBeGreaterThan(0);
    // Same run (the fingerprint leaves the budget out), now capped at what was already spent,
    // with one trial's record taken out so one trial is left to run: the cap refuses its call.
    const shortened = new MemoryStore();
    const loaded = await store.load(RUN_SESSION_ID);
    if (!loaded.ok) throw loaded.error;
    const events = loaded.value.events
      .slice(0, -1)
      .map(({ type, at, data }) => ({ type, at, data }));
    const copied = await shortened.append(RUN_SESSION_ID, 0, events);
    if (!copied.ok) throw copied.error;
    const kept = trials.slice(0, -1).reduce((sum, trial) => sum + trial.usd, 0);
    const run = await runEval(config({ totalUsd: kept }), { store: shortened, resume: true });
    expect(run.outcome).toBe('run_budget');
    expect(run.report.trials.finished).toBe(7);
    expect(run.report.trials.usd).toBeCloseTo(kept, 6);
  }, 30_000);
});
