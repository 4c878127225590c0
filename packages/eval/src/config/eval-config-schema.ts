import { TEXT_MODES } from '@plankit/core/constants';
import { plural } from '@plankit/core/internal-unstable';
import { PLANNING_STRATEGIES } from '@plankit/prompt';
import { z } from 'zod';
import { PlankitEvalError } from '../plankit-eval-error.ts';

const ID = /^[a-z0-9_-]{1,64}$/;

/**
 * The most trials (arms × tasks × repetitions) one run may have. A run lists its trials and
 * keeps every record in memory, so a config past this is refused before anything runs.
 *
 * @public
 */
export const MAX_TRIALS: number = 100_000;

/** Refusal text stays under this, however many fields are wrong. */
const MAX_MESSAGE = 2000;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

const whole = (low: number, high: number) =>
  z
    .number({ error: `must be a whole number from ${low} to ${high}` })
    .int({ error: `must be a whole number from ${low} to ${high}` })
    .min(low, { error: `must be a whole number from ${low} to ${high}` })
    .max(high, { error: `must be a whole number from ${low} to ${high}` });

// zod's number refuses NaN and the infinities.
const amount = z
  .number({ error: 'must be a finite number >= 0' })
  .min(0, { error: 'must be a finite number >= 0' });

const id = z.string({ error: 'must match [a-z0-9_-]{1,64}' }).regex(ID, {
  error: 'must match [a-z0-9_-]{1,64}',
});

const text = (rule: string, min: number, max: number) =>
  z.string({ error: rule }).min(min, { error: rule }).max(max, { error: rule });

const host = z.custom<unknown>(
  (value) =>
    isObject(value) &&
    typeof value['runTrial'] === 'function' &&
    typeof value['modelId'] === 'string' &&
    typeof value['kind'] === 'string',
  {
    error:
      'must be a host (aiSdkHost, openAIChatHost, anthropicHost, or { kind, modelId, runTrial })',
  },
);

const planning = z.union(
  [
    z.literal(false),
    z.strictObject({
      strategy: z
        .enum(PLANNING_STRATEGIES as [string, ...string[]], {
          error: `must be one of ${PLANNING_STRATEGIES.join(', ')}`,
        })
        .optional(),
      reminder: z
        .enum(['every_turn', 'on_change', 'never'], {
          error: 'must be one of every_turn, on_change, never',
        })
        .optional(),
      inProgress: z.enum(['single', 'any'], { error: 'must be single or any' }).optional(),
      text: z.enum(TEXT_MODES, { error: `must be one of ${TEXT_MODES.join(', ')}` }).optional(),
    }),
  ],
  { error: 'must be false or an object { strategy, reminder, inProgress, text }' },
);

const cap = (rule: string, of: z.ZodNumber) => z.union([of, z.null()], { error: rule }).optional();
const CAP_COUNT = 'must be null or a whole number >= 0';
const count = z
  .number({ error: CAP_COUNT })
  .int({ error: CAP_COUNT })
  .min(0, { error: CAP_COUNT })
  .max(Number.MAX_SAFE_INTEGER, { error: CAP_COUNT });
const CAP_USD = 'must be null or a USD amount from 0 to 1,000,000,000';
const usd = z
  .number({ error: CAP_USD })
  .min(0, { error: CAP_USD })
  .max(1_000_000_000, { error: CAP_USD });

const goal = z.union(
  [
    z.boolean(),
    z.strictObject({
      verifier: z
        .union(
          [
            z.enum(['check', 'all_steps_done']),
            z.custom<unknown>((value) => typeof value === 'function'),
          ],
          { error: 'must be check, all_steps_done or a GoalVerifier function' },
        )
        .optional(),
      budget: z
        .strictObject(
          {
            tokens: cap(CAP_COUNT, count),
            costUsd: cap(CAP_USD, usd),
            turns: cap(CAP_COUNT, count),
            wallTimeMs: cap(CAP_COUNT, count),
          },
          { error: 'must be an object { tokens, costUsd, turns, wallTimeMs }' },
        )
        .optional(),
      guard: z
        .strictObject(
          { churnTurns: whole(1, 1000).optional(), repeats: whole(1, 1000).optional() },
          { error: 'must be an object { churnTurns, repeats }' },
        )
        .optional(),
    }),
  ],
  { error: 'must be a boolean or an object { verifier, budget, guard }' },
);

// Arms and tasks may carry fields of the user's own (a task's reference solution, say).
const arm = z.object(
  {
    id,
    label: text('must be a string of 1 to 200 characters', 1, 200).optional(),
    host,
    planning,
    system: z.string({ error: 'must be a string' }).optional(),
    goal: goal.optional(),
  },
  { error: 'must be an object { id, host, planning }' },
);

const check = z.custom<unknown>(
  (value) => typeof value === 'function' || (isObject(value) && value['kind'] === 'llm_judge'),
  { error: 'must be a function or llmJudge(...)' },
);

const task = z.object(
  {
    id,
    prompt: text('must be a non-empty string', 1, Number.MAX_SAFE_INTEGER),
    fixtures: z
      .record(z.string(), z.string({ error: 'must be a string' }), {
        error: 'must be an object of path to text',
      })
      .optional(),
    tools: z
      .custom<unknown>((value) => typeof value === 'function', {
        error: 'must be a function returning tools',
      })
      .optional(),
    check,
    criteria: text('must be a string of 1 to 2000 characters', 1, 2000).optional(),
  },
  { error: 'must be an object { id, prompt, check }' },
);

const price = z.looseObject(
  {
    usdPerMillionInput: amount,
    usdPerMillionOutput: amount,
    usdPerMillionCachedInput: amount.optional(),
  },
  { error: 'must be { usdPerMillionInput, usdPerMillionOutput }' },
);

const schema = z
  .strictObject(
    {
      name: text('must be a string of 1 to 200 characters', 1, 200).optional(),
      arms: z
        .array(arm, { error: 'must be an array of 1 to 26 arms' })
        .min(1, { error: 'must be an array of 1 to 26 arms' })
        .max(26, { error: 'must be an array of 1 to 26 arms' }),
      tasks: z
        .array(task, { error: 'must be an array of 1 to 1000 tasks' })
        .min(1, { error: 'must be an array of 1 to 1000 tasks' })
        .max(1000, { error: 'must be an array of 1 to 1000 tasks' }),
      repetitions: whole(1, 10_000),
      seed: whole(0, 0xffffffff),
      concurrency: whole(1, 64).optional(),
      maxTurns: whole(1, 1000).optional(),
      maxOutputTokens: whole(1, 1_000_000).optional(),
      trialTimeoutMs: whole(1, 2_147_483_647).optional(),
      budget: z
        .strictObject(
          {
            totalUsd: amount.optional(),
            totalTokens: amount.optional(),
            perTrialUsd: amount.optional(),
            perTrialTokens: amount.optional(),
          },
          { error: 'must be an object { totalUsd, totalTokens, perTrialUsd, perTrialTokens }' },
        )
        .optional(),
      prices: z
        .record(z.string(), price, { error: 'must be an object of model id to prices' })
        .optional(),
    },
    { error: 'must be an object (export default defineEval({ arms, tasks, repetitions, seed }))' },
  )
  .superRefine((config, context) => {
    const seen = (items: readonly { readonly id: string }[], field: 'arms' | 'tasks'): void => {
      const ids = new Set<string>();
      items.forEach((item, index) => {
        if (ids.has(item.id))
          context.addIssue({
            code: 'custom',
            path: [field, index, 'id'],
            message: `repeats the id ${show(item.id)}`,
          });
        ids.add(item.id);
      });
    };
    seen(config.arms, 'arms');
    seen(config.tasks, 'tasks');
    // Checked before any trial is listed: a run is planned in memory, trial by trial.
    const trials = config.arms.length * config.tasks.length * config.repetitions;
    if (trials > MAX_TRIALS)
      context.addIssue({
        code: 'custom',
        path: ['repetitions'],
        message: `makes ${config.arms.length} arms × ${config.tasks.length} tasks × ${config.repetitions} repetitions = ${trials} trials, over the cap of ${MAX_TRIALS} trials per run; run fewer repetitions, arms or tasks, or split the eval into several runs`,
      });
    config.arms.forEach((item, index) => {
      const usdCap = (item.goal as { budget?: { costUsd?: unknown } } | boolean | undefined) ?? {};
      if (typeof usdCap !== 'object' || typeof usdCap.budget?.costUsd !== 'number') return;
      const model = (item.host as { modelId: string }).modelId;
      if (config.prices === undefined || !Object.hasOwn(config.prices, model))
        context.addIssue({
          code: 'custom',
          path: ['arms', index, 'goal', 'budget', 'costUsd'],
          message: `needs a price for the arm's model in prices (${show(model)}); without one every goal turn costs 0 USD and the cap never stops it`,
        });
    });
    const budget = config.budget;
    if (budget?.totalUsd === undefined && budget?.perTrialUsd === undefined) return;
    config.arms.forEach((item, index) => {
      const model = (item.host as { modelId: string }).modelId;
      if (config.prices === undefined || !Object.hasOwn(config.prices, model))
        context.addIssue({
          code: 'custom',
          path: ['arms', index, 'host', 'modelId'],
          message: `has no price in prices (${show(model)}); a USD cap needs a price for every model`,
        });
    });
  });

function show(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `an array of ${value.length}`;
  return value === null ? 'null' : typeof value;
}

/** A key longer than this is clipped in a field name, so the refusal still names the field. */
const MAX_KEY = 64;

/**
 * A zod path as the config's own notation: `arms[0].planning.strategy`, `fixtures["a.txt"]`;
 * a key over 64 characters is clipped (`"aaa..."`).
 */
function fieldOf(path: readonly PropertyKey[]): string {
  let field = '';
  for (const raw of path) {
    if (typeof raw === 'number') field += `[${raw}]`;
    else {
      // A clipped key ends in "...", so it is always quoted.
      const key =
        String(raw).length > MAX_KEY ? `${String(raw).slice(0, MAX_KEY)}...` : String(raw);
      if (/^[A-Za-z_$][\w$]*$/.test(key)) field += field === '' ? key : `.${key}`;
      else field += `[${JSON.stringify(key)}]`;
    }
  }
  return field === '' ? 'config' : field;
}

type Issue = z.core.$ZodIssue;

/** One problem per field; a union reports the branch that got furthest, not the union. */
function problems(
  issue: Issue,
  prefix: readonly PropertyKey[] = [],
): { readonly field: string; readonly line: string }[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union') {
    const deepest = issue.errors
      .filter((branch) => branch.some((inner) => inner.path.length > 0))
      .at(0);
    if (deepest !== undefined) return deepest.flatMap((inner) => problems(inner, path));
  }
  if (issue.code === 'unrecognized_keys')
    return issue.keys.map((key) => {
      const field = fieldOf([...path, key]);
      return { field, line: `${field}: is not a config key` };
    });
  const field = fieldOf(path);
  const got = 'input' in issue && issue.code !== 'custom' ? `, got ${show(issue.input)}` : '';
  return [{ field, line: `${field}: ${issue.message}${got}` }];
}

/**
 * Checks a config against the one schema `defineEval`, `runEval` and the CLI share, and returns
 * it frozen (the caller's objects, not copies: hosts and checkers keep their identity).
 *
 * @throws PlankitEvalError `config_invalid`, naming every field at fault and its rule
 */
export function checkEvalConfig<T>(value: T, caller = 'defineEval'): T {
  // The schema checks the very copy that is returned: its own keys, each read once, so a key
  // inherited from a prototype (which the copy would drop) is never checked and then lost.
  const own = isObject(value) && !Array.isArray(value) ? { ...value } : value;
  const parsed = schema.safeParse(own, { reportInput: true });
  if (parsed.success) return Object.freeze(own);
  const found = parsed.error.issues.flatMap((issue) => problems(issue));
  const lines = found.map((problem) => problem.line);
  const head = `${caller}: the config is invalid (${plural(lines.length, 'problem')}):`;
  let message = head;
  let shown = 0;
  for (const line of lines) {
    const next = `${message}\n- ${line}`;
    if (next.length > MAX_MESSAGE - 40) break;
    message = next;
    shown++;
  }
  if (shown < lines.length) message += `\n- and ${lines.length - shown} more`;
  return invalidConfig(message, found[0]?.field ?? 'config');
}

function invalidConfig(message: string, field: string): never {
  throw new PlankitEvalError('config_invalid', message, { field });
}
