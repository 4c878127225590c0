// Property: every trial the runner logs round-trips through the store, and resuming after any
// interruption never repeats or loses a trial and gives the uninterrupted run's report.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStore, MemoryStore, type SessionStore } from '@plankit/adapters/stores';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exampleTasks, solve } from '../../../../examples/eval-planning/src/tasks.ts';
import { defineEval, type EvalConfig } from '../config/define-eval.ts';
import { aiSdkHost } from '../hosts/ai-sdk-host.ts';
import type { EvalReport } from '../report/build-report.ts';
import { scriptedModel } from '../scripted/scripted-model.ts';
import { runEval } from './run-eval.ts';
import { RUN_SESSION_ID } from './trial-log.ts';
import type { TrialRecord } from './trial-record.ts';

const config: EvalConfig = defineEval({
  arms: [
    {
      id: 'plan',
      host: aiSdkHost({ model: scriptedModel({ modelId: 'good', successRate: 0.8, solve }) }),
      planning: { strategy: 'react', reminder: 'on_change' },
    },
    {
      id: 'none',
      host: aiSdkHost({ model: scriptedModel({ modelId: 'weak', successRate: 0.5, solve }) }),
      planning: false,
    },
  ],
  tasks: exampleTasks.slice(0, 2),
  repetitions: 2,
  seed: 11,
  maxOutputTokens: 256,
  prices: {
    good: { usdPerMillionInput: 1, usdPerMillionOutput: 4 },
    weak: { usdPerMillionInput: 1, usdPerMillionOutput: 4 },
  },
});
const TOTAL = 8;

async function loggedTrials(store: SessionStore): Promise<TrialRecord[]> {
  const loaded = await store.load(RUN_SESSION_ID);
  if (!loaded.ok) throw loaded.error;
  return loaded.value.events
    .filter((event) => event.type === 'eval.trial')
    .map((event) => event.data as unknown as TrialRecord);
}

/** What a SIGKILL leaves: the durable events of `store`, copied into a fresh store. */
async function survivorOf(store: MemoryStore): Promise<MemoryStore> {
  const loaded = await store.load(RUN_SESSION_ID);
  if (!loaded.ok) throw loaded.error;
  const copy = new MemoryStore();
  const events = loaded.value.events.map(({ type, at, data }) => ({ type, at, data }));
  const appended = await copy.append(RUN_SESSION_ID, 0, events);
  if (!appended.ok) throw appended.error;
  return copy;
}

let reference: { report: EvalReport; trials: readonly TrialRecord[] } | undefined;
async function uninterrupted(): Promise<{ report: EvalReport; trials: readonly TrialRecord[] }> {
  if (reference === undefined) {
    const run = await runEval(config, { store: new MemoryStore(), clock: () => 0 });
    reference = { report: run.report, trials: run.trials };
  }
  return reference;
}

describe('resume property', () => {
  it('for random interruption points and stores, resuming never repeats or loses a trial, and the report equals an uninterrupted run', async () => {
    const expected = await uninterrupted();
    expect(expected.trials).toHaveLength(TOTAL);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 0, max: TOTAL - 1 }), { maxLength: 3 }),
        fc.constantFrom('memory-kill', 'memory-abort', 'file-abort'),
        async (points, mode) => {
          const stops = [...points].sort((a, b) => a - b);
          const folder =
            mode === 'file-abort' ? await mkdtemp(join(tmpdir(), 'plankit-eval-prop-')) : '';
          const open = (): SessionStore =>
            mode === 'file-abort'
              ? new FileStore({ directory: join(folder, 'log') })
              : new MemoryStore();
          let store = open();
          try {
            let resume = false;
            let outcome = 'aborted';
            let last: Awaited<ReturnType<typeof runEval>> | undefined;
            for (let attempt = 0; outcome !== 'completed'; attempt++) {
              expect(attempt).toBeLessThanOrEqual(stops.length);
              const stopAt = stops[attempt];
              const abort = new AbortController();
              let killed: Promise<MemoryStore> | undefined;
              // Interrupt between trials: a kill keeps only what the store already holds; an
              // abort lets the run stop cleanly. Concurrency 1: nothing is in flight there.
              last = await runEval(config, {
                store,
                resume,
                clock: () => 0,
                signal: abort.signal,
                onProgress: (progress) => {
                  if (stopAt === undefined || progress.done < stopAt || abort.signal.aborted)
                    return;
                  if (mode === 'memory-kill') killed = survivorOf(store as MemoryStore);
                  abort.abort();
                },
              });
              outcome = last.outcome;
              if (killed !== undefined) store = await killed;
              else if (mode === 'file-abort') {
                await store.close();
                store = open();
              }
              resume = true;
            }
            const logged = await loggedTrials(store);
            // Round trip: what the store gives back is what the runner logged.
            expect(logged).toEqual(last?.trials.map((trial) => ({ ...trial })));
            const finished = logged.filter((trial) => trial.status === 'finished');
            expect(finished.map((trial) => trial.key).sort()).toEqual(
              expected.trials.map((trial) => trial.key).sort(),
            );
            expect(finished).toEqual(expected.trials);
            expect(last?.report).toEqual(expected.report);
          } finally {
            await store.close();
            if (folder !== '') await rm(folder, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 12, seed: 20_260_517 },
    );
  }, 60_000);
});
