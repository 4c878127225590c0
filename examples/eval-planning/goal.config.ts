import { aiSdkHost, defineEval, type EvalHost, openAIChatHost } from '@plankit/eval';
import { scriptedModel } from '@plankit/eval/scripted';
import { exampleTasks, solve } from './src/tasks.ts';

// A goal against no goal, offline: the same scripted model (true success rate 0.5 per attempt)
// and the same planning in both arms. The goal arm gives the agent each task as a goal: after
// an answer the task's own check is the verifier, and while it says "not yet" the goal's
// continuation line goes back as the next user message, as Codex's and Claude Code's /goal do,
// until the check passes or the goal's budget of 4 answers is spent. The report shows what the
// goal buys (success) and what it costs (tokens, model calls), with the same intervals as any pair.
// Set PLANKIT_EVAL_LIVE=1 (and OPENAI_API_KEY) to compare the two on a live model instead.
const live = process.env['PLANKIT_EVAL_LIVE'] === '1';

async function liveHost(): Promise<EvalHost> {
  const { default: OpenAI } = await import('openai');
  return openAIChatHost({
    client: new OpenAI(),
    model: process.env['PLANKIT_EVAL_MODEL'] ?? 'gpt-5-mini',
  });
}

const host = live
  ? await liveHost()
  : aiSdkHost({ model: scriptedModel({ modelId: 'scripted-agent', successRate: 0.5, solve }) });
const planning = { strategy: 'react', reminder: 'on_change', inProgress: 'single' } as const;

export default defineEval({
  name: live ? 'goal vs no goal (live)' : 'goal vs no goal (scripted)',
  arms: [
    { id: 'plan', label: 'plan, no goal', host, planning },
    {
      id: 'plan-goal',
      label: 'plan and a goal (check verifies, 4 answers at most)',
      host,
      planning,
      goal: { verifier: 'check', budget: { turns: 4, tokens: 200_000 } },
    },
  ],
  tasks: exampleTasks,
  repetitions: 20,
  seed: 17,
  concurrency: 4,
  maxTurns: 30,
  maxOutputTokens: 1024,
  budget: { totalUsd: 2, perTrialUsd: 0.1 },
  prices: {
    'scripted-agent': { usdPerMillionInput: 1, usdPerMillionOutput: 4 },
    'gpt-5-mini': { usdPerMillionInput: 0.25, usdPerMillionOutput: 2 },
  },
});
