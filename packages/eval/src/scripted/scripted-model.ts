import { MockLanguageModelV3 } from 'ai/test';
import { deriveSeed, seededRandom } from '../runner/seeded-random.ts';

type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

/** Options of {@link scriptedModel}. @public */
export interface ScriptedModelOptions {
  /** The model id (a key of the price table). */
  readonly modelId: string;
  /** The true probability that a trial is solved, in [0, 1]. */
  readonly successRate: number;
  /**
   * The files that solve a task, from its prompt: a solved trial writes them all; a failed one
   * writes one of them wrong. `undefined` for a prompt the model does not know (it gives up).
   */
  readonly solve: (prompt: string) => Readonly<Record<string, string>> | undefined;
}

interface Turn {
  readonly calls: readonly { readonly name: string; readonly input: unknown }[];
  readonly text: string;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      (part as { type?: string; text?: string }).type === 'text'
        ? (part as { text: string }).text
        : '',
    )
    .join('');
}

function tokens(value: unknown): number {
  return Math.ceil(Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8') / 4);
}

/**
 * A scripted AI SDK model (a `MockLanguageModelV3` from `ai/test`) whose true success rate is
 * known: it solves a trial with probability `successRate`, drawn from the trial's seed (the
 * `providerOptions.plankitEval.seed` that `aiSdkHost` from `@plankit/eval` sends), so a trial replays the same
 * way whatever the order or concurrency. It does the work through the real tools: when the
 * planning tools are offered it sets up a plan with one step per file and marks each step done
 * as it writes the file; a failed trial writes one file wrong (and, when planning, leaves its step
 * open). Usage is reported as about one token per four bytes, so arms that plan cost more.
 * Success is then decided by the task's own checker on the files, not by the script. A user
 * message after its answer (a goal arm's continuation line) starts another attempt, which fixes
 * the wrong file with probability `successRate`, drawn afresh, so a goal that continues until
 * the check passes raises the rate the way it would with a real agent.
 *
 * @example
 * ```ts
 * const host = aiSdkHost({ model: scriptedModel({ modelId: 'scripted', successRate: 0.8, solve }) });
 * ```
 * @public
 */
export function scriptedModel(options: ScriptedModelOptions): MockLanguageModelV3 {
  if (!(options.successRate >= 0 && options.successRate <= 1))
    throw new RangeError('scriptedModel: successRate must be in [0, 1]');
  return new MockLanguageModelV3({
    provider: 'plankit-scripted',
    modelId: options.modelId,
    doGenerate: async (call: CallOptions): Promise<GenerateResult> => {
      const meta = call.providerOptions?.['plankitEval'] as { seed?: unknown } | undefined;
      const seed = typeof meta?.seed === 'number' ? meta.seed : 0;
      const prompt = call.prompt.find((message) => message.role === 'user');
      const task = prompt === undefined ? '' : textOf(prompt.content);
      const planning = (call.tools ?? []).some((tool) => tool.name === 'planning_setup_plan');
      // Answers given so far (assistant messages without a tool call): each later user
      // message (a goal's continuation line) starts another attempt.
      let attempt = 0;
      let turn = 0;
      for (const message of call.prompt) {
        if (message.role !== 'assistant') continue;
        turn++;
        const parts = Array.isArray(message.content) ? message.content : [];
        if (!parts.some((part) => (part as { type?: string }).type === 'tool-call')) {
          attempt++;
          turn = 0;
        }
      }
      const script =
        attempt === 0
          ? scriptFor(options, task, seed, planning)
          : retryFor(options, task, seed, planning, attempt);
      const step = script[Math.min(turn, script.length - 1)] as Turn;
      const content: GenerateResult['content'] = [];
      if (step.text.length > 0) content.push({ type: 'text', text: step.text });
      for (const [index, c] of step.calls.entries())
        content.push({
          type: 'tool-call',
          toolCallId: `t${turn}-${index}`,
          toolName: c.name,
          input: JSON.stringify(c.input),
        });
      const input = tokens(call.prompt) + tokens(call.tools ?? []);
      const output = tokens(content) + 8;
      return {
        content,
        finishReason: { unified: step.calls.length > 0 ? 'tool-calls' : 'stop', raw: undefined },
        usage: {
          inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: output, text: output, reasoning: 0 },
        },
        warnings: [],
      };
    },
  });
}

/** Whether the first attempt solves the trial, and which file it writes wrong if not. */
function firstDraw(seed: number, successRate: number, paths: readonly string[]): number {
  const random = seededRandom(seed);
  const solved = random() < successRate;
  return solved ? -1 : Math.floor(random() * paths.length);
}

/**
 * A later attempt (after a goal's continuation line): with probability `successRate`, drawn
 * afresh for the attempt, it rewrites the file the first attempt wrote wrong (and marks its step
 * done when planning); else it writes it wrong again.
 */
function retryFor(
  options: ScriptedModelOptions,
  prompt: string,
  seed: number,
  planning: boolean,
  attempt: number,
): Turn[] {
  const files = options.solve(prompt);
  if (files === undefined) return [{ calls: [], text: 'I still do not know how to do this task.' }];
  const paths = Object.keys(files);
  const wrong = firstDraw(seed, options.successRate, paths);
  if (wrong === -1) return [{ calls: [], text: 'Done: every file is written.' }];
  const path = paths[wrong] as string;
  const fixed = seededRandom(deriveSeed(seed, `attempt-${attempt}`))() < options.successRate;
  const calls: { name: string; input: unknown }[] = [
    { name: 'workspace_write', input: { path, content: fixed ? files[path] : 'TODO' } },
  ];
  if (planning && fixed)
    calls.push({
      name: 'planning_mark_step',
      input: { step_id: `S${String(wrong + 1).padStart(3, '0')}`, status: 'done' },
    });
  return [
    { calls, text: '' },
    { calls: [], text: fixed ? `Done: ${path} is fixed.` : 'Done.' },
  ];
}

function scriptFor(
  options: ScriptedModelOptions,
  prompt: string,
  seed: number,
  planning: boolean,
): Turn[] {
  const files = options.solve(prompt);
  if (files === undefined) return [{ calls: [], text: 'I do not know how to do this task.' }];
  const paths = Object.keys(files);
  const wrong = firstDraw(seed, options.successRate, paths);
  const solved = wrong === -1;
  const turns: Turn[] = [{ calls: [{ name: 'workspace_list', input: {} }], text: '' }];
  if (planning)
    turns.push({
      calls: [
        {
          name: 'planning_setup_plan',
          input: {
            objective: prompt.slice(0, 200),
            initial_steps: paths.map((path) => ({ title: `Write ${path}` })),
          },
        },
      ],
      text: '',
    });
  paths.forEach((path, index) => {
    const content = index === wrong ? 'TODO' : (files[path] as string);
    const calls: { name: string; input: unknown }[] = [
      { name: 'workspace_write', input: { path, content } },
    ];
    if (planning && index !== wrong)
      calls.push({
        name: 'planning_mark_step',
        input: { step_id: `S${String(index + 1).padStart(3, '0')}`, status: 'done' },
      });
    turns.push({ calls, text: '' });
  });
  turns.push({ calls: [], text: solved ? 'Done: every file is written.' : 'Done.' });
  return turns;
}
