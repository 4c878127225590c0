import { z } from 'zod';
import type { TrialRecord } from './trial-record.ts';

const count = z.number().int().min(0);
// zod's number refuses NaN and the infinities.
const finite = z.number().min(0);

const stops = ['done', 'max_turns', 'trial_budget', 'run_budget', 'aborted'] as const;

/** What a host's `runTrial` must resolve to. */
export const hostOutputSchema: z.ZodType = z.object({
  text: z.string(),
  stop: z.enum(stops),
  turns: count,
});

/** A model call's usage as a host reports it: whole counts. */
export const usageSchema: z.ZodType = z.object({
  inputTokens: count,
  outputTokens: count,
  cachedInputTokens: count,
});

/** The first problem `schema` finds in `value` (`field: rule`), or null. */
export function problemOf(schema: z.ZodType, value: unknown): string | null {
  const parsed = schema.safeParse(value);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  return `${issue?.path.map(String).join('.') || 'record'}: ${issue?.message ?? 'is invalid'}`;
}

/** The shape of an `eval.trial` record; the run-specific rules are checked after it. */
const recordSchema = z.object({
  run: z.string(),
  key: z.string(),
  taskId: z.string(),
  armId: z.string(),
  repetition: z.number().int().min(1),
  seed: count,
  status: z.enum(['finished', 'errored', 'cut_short']),
  stop: z.enum([...stops, 'error']),
  pass: z.boolean(),
  verdict: z
    .object({ pass: z.boolean(), reason: z.string(), by: z.enum(['function', 'llm_judge']) })
    .nullable(),
  error: z.string().nullable(),
  turns: count,
  toolCalls: count,
  planningCalls: count,
  inputTokens: count,
  outputTokens: count,
  tokens: count,
  usd: finite,
  plan: z.object({ created: count, completed: count, abandoned: count }),
  goal: z
    .object({
      status: z.enum(['active', 'achieved', 'unmet', 'blocked', 'budget_limited']),
      reason: z.string().nullable(),
      turns: count,
      checks: count,
    })
    .nullable()
    .optional(),
  durationMs: finite,
  transcript: z.array(z.unknown()),
});

/** What a logged record is checked against: the run it must belong to. */
export interface LogExpectations {
  /** The run's config hash. */
  readonly runId: string;
  readonly arms: ReadonlySet<string>;
  readonly tasks: ReadonlySet<string>;
  readonly repetitions: number;
}

/**
 * Checks one logged `eval.trial` record against its schema and the run: the run's hash, a known
 * arm and task, a repetition within k, the key they make, a finite non-negative cost and whole
 * token counts, and a pass only on a finished trial. Returns the rule it breaks, or the record.
 */
export function checkLoggedTrial(
  data: unknown,
  expected: LogExpectations,
): { ok: true; record: TrialRecord } | { ok: false; rule: string } {
  const problem = problemOf(recordSchema, data);
  if (problem !== null) return { ok: false, rule: problem };
  const record = data as TrialRecord;
  if (record.run !== expected.runId)
    return { ok: false, rule: `run: belongs to another run (${JSON.stringify(record.run)})` };
  if (!expected.arms.has(record.armId))
    return { ok: false, rule: `armId: ${JSON.stringify(record.armId)} is not an arm of this run` };
  if (!expected.tasks.has(record.taskId))
    return {
      ok: false,
      rule: `taskId: ${JSON.stringify(record.taskId)} is not a task of this run`,
    };
  if (record.repetition > expected.repetitions)
    return {
      ok: false,
      rule: `repetition: ${record.repetition} is above k = ${expected.repetitions}`,
    };
  const key = `${record.taskId}/${record.armId}/${record.repetition}`;
  if (record.key !== key)
    return { ok: false, rule: `key: ${JSON.stringify(record.key)} is not ${JSON.stringify(key)}` };
  if (record.pass && record.status !== 'finished')
    return { ok: false, rule: 'pass: only a finished trial can pass' };
  return { ok: true, record: data as TrialRecord };
}
