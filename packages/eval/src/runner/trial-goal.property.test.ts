import { MemoryStore } from '@plankit/adapters/stores';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exampleTasks, solve } from '../../../../examples/eval-planning/src/tasks.ts';
import { defineEval } from '../config/define-eval.ts';
import { aiSdkHost } from '../hosts/ai-sdk-host.ts';
import { scriptedModel } from '../scripted/scripted-model.ts';
import { runEval } from './run-eval.ts';

const scripted = (successRate: number) =>
  aiSdkHost({ model: scriptedModel({ modelId: 'scripted', successRate, solve }) });

describe('a goal arm, over random models and caps', () => {
  it('never decides past its turn cap, logs one decision per goal turn, and an achieved goal passes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 5 }),
        fc.option(fc.integer({ min: 1_000, max: 20_000 }), { nil: null }),
        fc.integer({ min: 0, max: 0xffff }),
        async (successRate, turns, tokens, seed) => {
          const run = await runEval(
            defineEval({
              arms: [
                {
                  id: 'goal',
                  host: scripted(successRate),
                  planning: {},
                  goal: { budget: { turns, tokens } },
                },
              ],
              tasks: exampleTasks.slice(1, 2),
              repetitions: 2,
              seed,
              maxTurns: 100,
              maxOutputTokens: 512,
            }),
            { store: new MemoryStore() },
          );
          for (const trial of run.trials) {
            const goal = trial.goal;
            if (goal === undefined || goal === null) throw new Error('no goal logged');
            expect(trial.status).toBe('finished');
            expect(goal.status).not.toBe('active');
            expect(goal.turns).toBeLessThanOrEqual(turns);
            const decisions = trial.transcript.filter((e) => e.kind === 'goal');
            expect(decisions).toHaveLength(goal.turns);
            expect(
              decisions.slice(0, -1).every((e) => e.kind === 'goal' && e.status === 'active'),
            ).toBe(true);
            expect(decisions.at(-1)).toMatchObject({ status: goal.status });
            // The check is the verifier: the goal is achieved exactly when the trial passes.
            expect(goal.status === 'achieved').toBe(trial.pass);
            // No model call after the goal stopped: the last decision is on the last call.
            expect(decisions.at(-1)?.turn).toBe(trial.turns);
          }
        },
      ),
      { numRuns: 15, seed: 20_261_207 },
    );
  }, 120_000);
});
