import type { TrialRecord } from '../runner/trial-record.ts';

/**
 * A finished trial of task `t` for the report suites: `pass` as given, no usage unless
 * `usage` says otherwise.
 */
export function finishedTrial(
  armId: string,
  repetition: number,
  pass: boolean,
  usage: Partial<
    Pick<TrialRecord, 'toolCalls' | 'inputTokens' | 'outputTokens' | 'tokens' | 'usd'>
  > = {},
): TrialRecord {
  return {
    run: 'r',
    key: `t/${armId}/${repetition}`,
    taskId: 't',
    armId,
    repetition,
    seed: repetition,
    status: 'finished',
    stop: 'done',
    pass,
    verdict: null,
    error: null,
    turns: 1,
    toolCalls: 0,
    planningCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    tokens: 0,
    usd: 0,
    plan: { created: 0, completed: 0, abandoned: 0 },
    durationMs: 0,
    transcript: [],
    ...usage,
  };
}
