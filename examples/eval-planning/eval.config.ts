import { aiSdkHost, defineEval, type EvalHost, openAIChatHost } from '@plankit/eval';
import { scriptedModel } from '@plankit/eval/scripted';
import { exampleTasks, solve } from './src/tasks.ts';

// Offline by default: two scripted models whose true success rates are known (0.8 with the
// plan, 0.5 without), so the report can be checked against the truth. Set PLANKIT_EVAL_LIVE=1
// (and OPENAI_API_KEY) to run the same config against a live model instead; see
// docs/evaluating-planning.md.
const live = process.env['PLANKIT_EVAL_LIVE'] === '1';

async function liveHost(): Promise<EvalHost> {
  // The real OpenAI client reads OPENAI_API_KEY; any other host (aiSdkHost with a provider
  // package, anthropicHost) fits here the same way.
  const { default: OpenAI } = await import('openai');
  return openAIChatHost({
    client: new OpenAI(),
    model: process.env['PLANKIT_EVAL_MODEL'] ?? 'gpt-5-mini',
  });
}

const planningHost = live
  ? await liveHost()
  : aiSdkHost({ model: scriptedModel({ modelId: 'scripted-planner', successRate: 0.8, solve }) });
const baselineHost = live
  ? planningHost
  : aiSdkHost({ model: scriptedModel({ modelId: 'scripted-baseline', successRate: 0.5, solve }) });

export default defineEval({
  name: live ? 'planning vs none (live)' : 'planning vs none (scripted)',
  arms: [
    { id: 'none', label: 'no planning', host: baselineHost, planning: false },
    {
      id: 'plan',
      label: 'plan (react, on change)',
      host: planningHost,
      planning: { strategy: 'react', reminder: 'on_change', inProgress: 'single' },
    },
  ],
  tasks: exampleTasks,
  repetitions: 20,
  seed: 17,
  concurrency: 4,
  maxTurns: 12,
  maxOutputTokens: 1024,
  budget: { totalUsd: 2, perTrialUsd: 0.1 },
  prices: {
    'scripted-planner': { usdPerMillionInput: 1, usdPerMillionOutput: 4 },
    'scripted-baseline': { usdPerMillionInput: 1, usdPerMillionOutput: 4 },
    'gpt-5-mini': { usdPerMillionInput: 0.25, usdPerMillionOutput: 2 },
  },
});
