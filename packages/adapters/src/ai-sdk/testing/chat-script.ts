/** Tool calls of the scripted conversations the AI SDK session tests run, shared by ai 6 and 7. */

export const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 2, text: 2, reasoning: 0 },
};

/** A tool-call content part as the mock models return it. */
export interface Call {
  readonly type: 'tool-call';
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: string;
}

export const toolCall = (id: string, toolName: string, input: unknown): Call => ({
  type: 'tool-call',
  toolCallId: id,
  toolName,
  input: JSON.stringify(input),
});

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** One conversation: set up a two-step plan for `objective`, then finish both steps in one step. */
export function chatScript(objective: string, prefix: string): Call[][] {
  return [
    [
      toolCall(`${prefix}-1`, 'planning_setup_plan', {
        objective,
        initial_steps: [{ title: `${objective}: draft` }, { title: `${objective}: ship` }],
      }),
    ],
    [
      toolCall(`${prefix}-2`, 'planning_mark_step', { step_id: 'S001', status: 'done' }),
      toolCall(`${prefix}-3`, 'planning_mark_step', { step_id: 'S002', status: 'done' }),
    ],
  ];
}

/** What a scripted model saw in one step: the prompt and the names of the tools offered. */
export interface SeenStep {
  readonly prompt: unknown[];
  readonly tools: string[];
}

/** A text content part, the answer of a mock model's step once its calls are used up. */
export interface TextPart {
  readonly type: 'text';
  readonly text: string;
}

/** What a mock model's `doGenerate` returns for one step. */
export interface StepResult {
  content: (Call | TextPart)[];
  finishReason: { unified: 'stop' | 'tool-calls'; raw: undefined };
  usage: typeof usage;
  warnings: never[];
}

/** One step's `doGenerate` result: the step's tool calls, or `text` when the script is done. */
export function stepResult(calls: Call[] | undefined, text: string): StepResult {
  return calls === undefined
    ? {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      }
    : {
        content: calls,
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      };
}

/** One step's `doStream` parts, as {@link stepResult} answers it. */
export function stepStreamParts(calls: Call[] | undefined, text: string): object[] {
  return [
    { type: 'stream-start', warnings: [] },
    ...(calls ?? [
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: text },
      { type: 'text-end', id: 't' },
    ]),
    {
      type: 'finish',
      finishReason: { unified: calls ? 'tool-calls' : 'stop', raw: undefined },
      usage,
    },
  ];
}
