import type { Plan, Session } from '@plankit/core';
import type { TranscriptEntry } from '../hosts/eval-host.ts';

/** What a checker sees: the trial's final state and its transcript. @public */
export interface CheckInput {
  /** The task's id. */
  readonly taskId: string;
  /** The workspace files at the end of the trial (path to text). */
  readonly files: ReadonlyMap<string, string>;
  /** The plan at the end of the trial, if the arm planned and the model made one. */
  readonly plan: Plan | undefined;
  /** The trial's session. */
  readonly session: Session;
  /** Everything that happened, in order. */
  readonly transcript: readonly TranscriptEntry[];
  /** The model's last text. */
  readonly text: string;
}

/** A checker's verdict. @public */
export interface CheckVerdict {
  /** Whether the task was done. */
  readonly pass: boolean;
  /** Why, in a sentence (kept with the trial). */
  readonly reason?: string | undefined;
}

/**
 * A deterministic checker: a function of the final state and transcript.
 *
 * @public
 */
export type CheckFunction = (
  input: CheckInput,
) => boolean | CheckVerdict | Promise<boolean | CheckVerdict>;

/** What an LLM judge is asked. @public */
export interface JudgeRequest {
  /** The full prompt for the judge: rubric, task, final files, transcript, answer format. */
  readonly prompt: string;
  /** The trial's input, for judges that want more than the prompt. */
  readonly input: CheckInput;
}

/**
 * A checker that asks a language model to grade the trial against a rubric. Build it with
 * {@link llmJudge}. Its verdicts are stored with the judge's reasoning.
 *
 * @public
 */
export interface JudgeChecker {
  /** Always `llm_judge`. */
  readonly kind: 'llm_judge';
  /** What a passing trial looks like. */
  readonly rubric: string;
  /** Asks the judge model; resolves to its reply text. */
  readonly judge: (request: JudgeRequest) => Promise<string>;
}

/** A task's checker: deterministic or an LLM judge. @public */
export type TaskChecker = CheckFunction | JudgeChecker;

/** A verdict as stored with a trial. @public */
export interface StoredVerdict {
  /** Whether the task was done. */
  readonly pass: boolean;
  /** The checker's reason, or the judge's reasoning (at most 4,000 characters). */
  readonly reason: string;
  /** Who decided. */
  readonly by: 'function' | 'llm_judge';
}

/** Options of {@link llmJudge}. @public */
export interface LlmJudgeOptions {
  /** What a passing trial looks like, in plain words. */
  readonly rubric: string;
  /**
   * Sends the judge prompt to a model and resolves to its text, for example
   * `async ({ prompt }) => (await generateText({ model, prompt })).text`.
   */
  readonly judge: (request: JudgeRequest) => Promise<string>;
}

/**
 * An LLM judge checker. The judge is asked to reason first and end with a line
 * `VERDICT: PASS` or `VERDICT: FAIL`; a reply without that line fails the trial, and the
 * reason says so. Its reasoning is stored with the trial.
 *
 * @example
 * ```ts
 * check: llmJudge({
 *   rubric: 'The summary names all three risks.',
 *   judge: async ({ prompt }) => (await generateText({ model, prompt })).text,
 * }),
 * ```
 * @public
 */
export function llmJudge(options: LlmJudgeOptions): JudgeChecker {
  return { kind: 'llm_judge', rubric: options.rubric, judge: options.judge };
}

/** The prompt a judge gets. */
export function judgePrompt(rubric: string, input: CheckInput, taskPrompt: string): string {
  const files = [...input.files]
    .map(([path, text]) => `--- ${path}\n${text.slice(0, 4000)}`)
    .join('\n');
  const transcript = input.transcript
    .map((entry) =>
      entry.kind === 'tool'
        ? `[turn ${entry.turn}] tool ${entry.name}(${JSON.stringify(entry.input)}) -> ${entry.ok ? 'ok' : 'refused'}: ${entry.output.slice(0, 300)}`
        : `[turn ${entry.turn}] ${entry.kind}: ${entry.text.slice(0, 1000)}`,
    )
    .join('\n')
    .slice(-12000);
  return [
    'You grade one run of an AI agent against a rubric.',
    `Rubric: ${rubric}`,
    `Task given to the agent: ${taskPrompt}`,
    `Final files:\n${files || '(none)'}`,
    `Transcript:\n${transcript || '(empty)'}`,
    `The agent's final answer: ${input.text}`,
    'Reason briefly, then end with exactly one line: VERDICT: PASS or VERDICT: FAIL.',
  ].join('\n\n');
}

/** Runs a checker and turns its answer into a stored verdict. */
export async function runChecker(
  checker: TaskChecker,
  input: CheckInput,
  taskPrompt: string,
): Promise<StoredVerdict> {
  if (typeof checker === 'function') {
    const answer = await checker(input);
    if (typeof answer === 'boolean') return { pass: answer, reason: '', by: 'function' };
    return { pass: answer.pass === true, reason: answer.reason ?? '', by: 'function' };
  }
  const reply = await checker.judge({
    prompt: judgePrompt(checker.rubric, input, taskPrompt),
    input,
  });
  const match = /VERDICT:\s*(PASS|FAIL)\s*$/i.exec(reply.trim());
  const reason = reply.trim().slice(0, 4000);
  if (match === null)
    return {
      pass: false,
      reason: `The judge gave no VERDICT line; counted as a failure. ${reason}`.slice(0, 4000),
      by: 'llm_judge',
    };
  return { pass: match[1]?.toUpperCase() === 'PASS', reason, by: 'llm_judge' };
}
