/**
 * The config `plankit-eval init` writes, and the package README's first code block (a test keeps
 * the two the same): two scripted models of known success rates, so it runs offline, with no key,
 * in seconds.
 */
export const STARTER_CONFIG: string = `// eval.config.mts
import { aiSdkHost, defineEval } from '@plankit/eval';
import { scriptedModel } from '@plankit/eval/scripted';

// Each task: a prompt, and the files that do it. The scripted models below write them through
// the real workspace tools, and the checkers decide pass or fail on the files they find.
const answers: Record<string, Record<string, string>> = {
  'Write hello.txt containing exactly: hello': { 'hello.txt': 'hello' },
  'Write a.txt containing 1 and b.txt containing 2': { 'a.txt': '1', 'b.txt': '2' },
};
const solve = (prompt: string) => answers[prompt];

// Stand-ins with known success rates: 0.5 without a plan, 0.8 with one. To measure your own
// model, use e.g. aiSdkHost({ model: openai('gpt-5-mini') }) from @ai-sdk/openai instead.
const scripted = (modelId: string, successRate: number) =>
  aiSdkHost({ model: scriptedModel({ modelId, successRate, solve }) });

export default defineEval({
  name: 'planning vs none (scripted)',
  arms: [
    { id: 'none', label: 'no planning', host: scripted('scripted-none', 0.5), planning: false },
    {
      id: 'react',
      label: 'plan (react)',
      host: scripted('scripted-react', 0.8),
      planning: { strategy: 'react', reminder: 'on_change' },
    },
  ],
  tasks: [
    {
      id: 'hello',
      prompt: 'Write hello.txt containing exactly: hello',
      check: ({ files }) => files.get('hello.txt') === 'hello',
    },
    {
      id: 'two-files',
      prompt: 'Write a.txt containing 1 and b.txt containing 2',
      check: ({ files }) => files.get('a.txt') === '1' && files.get('b.txt') === '2',
    },
  ],
  repetitions: 20,
  seed: 7,
  concurrency: 4,
  budget: { totalUsd: 1, perTrialUsd: 0.05 },
  prices: {
    'scripted-none': { usdPerMillionInput: 1, usdPerMillionOutput: 4 },
    'scripted-react': { usdPerMillionInput: 1, usdPerMillionOutput: 4 },
  },
});
`;
