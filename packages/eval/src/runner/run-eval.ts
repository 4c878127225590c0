import { join } from 'node:path';
import { toolJsonSchema } from '@plankit/adapters';
import { FileStore, type SessionStore } from '@plankit/adapters/stores';
import {
  type Budget,
  createBudget,
  type PriceTable,
  reserveBudget,
  settleBudget,
  usageCost,
} from '@plankit/controller/budget';
import {
  type AnyTool,
  type Clock,
  InProcessEventBus,
  Plan,
  Session,
  selectLatest,
} from '@plankit/core';
import { checkOptionKeys, invalidArgument } from '@plankit/core/internal-unstable';
import type { EvalArm, EvalConfig, EvalTask } from '../config/define-eval.ts';
import { checkEvalConfig } from '../config/eval-config-schema.ts';
import { runChecker } from '../config/task-checker.ts';
import { callThroughGuard } from '../hosts/call-model.ts';
import type { CallGuard, CallUsage, TranscriptEntry, TrialStop } from '../hosts/eval-host.ts';
import { PlankitEvalError } from '../plankit-eval-error.ts';
import { buildReport, type EvalReport } from '../report/build-report.ts';
import { buildArm } from './build-arm.ts';
import { hostOutputSchema, problemOf, usageSchema } from './logged-trial.ts';
import type { RunOutcome } from './run-outcome.ts';
import { deriveSeed, seededShuffle } from './seeded-random.ts';
import { goalOf, startTrialGoal, type TrialGoalDriver } from './trial-goal.ts';
import { openTrialLog, type RunFingerprint, runIdOf } from './trial-log.ts';
import type { PlanActivity, TrialRecord } from './trial-record.ts';

/** How far a run has got, for a progress bar. @public */
export interface EvalProgress {
  /** Trials logged, this run and earlier ones. */
  readonly done: number;
  /** Trials in the run. */
  readonly total: number;
  /** USD spent so far (earlier runs included). */
  readonly usd: number;
  /** Tokens used so far (earlier runs included). */
  readonly tokens: number;
  /** Estimated milliseconds left, from this run's pace; null before the first trial ends. */
  readonly etaMs: number | null;
}

/** Options of {@link runEval}. @public */
export interface RunEvalOptions {
  /** The output folder; the results log is a `FileStore` in `<out>/log`. */
  readonly out?: string | undefined;
  /** A session store for the results log instead of `<out>/log`. */
  readonly store?: SessionStore | undefined;
  /**
   * Continue the run logged in the store, running only the trials not yet finished. Every
   * logged record is checked first (`log_invalid` names a bad one's line), and all logged spend
   * counts against the total caps.
   */
  readonly resume?: boolean | undefined;
  /** Stops the run: trials in flight are cut short, none starts. */
  readonly signal?: AbortSignal | undefined;
  /** Called when the done count grows: once per count, in increasing order. */
  readonly onProgress?: ((progress: EvalProgress) => void) | undefined;
  /** Where time comes from, in epoch milliseconds; `Date.now` by default. */
  readonly clock?: Clock | undefined;
}

/** What {@link runEval} returns. @public */
export interface EvalRun {
  /** How the run ended. */
  readonly outcome: RunOutcome;
  /** Every trial in the log, earlier runs included. */
  readonly trials: readonly TrialRecord[];
  /** The report over the finished trials. */
  readonly report: EvalReport;
}

interface TrialSpec {
  readonly key: string;
  readonly task: EvalTask;
  readonly arm: EvalArm;
  readonly repetition: number;
}

const NO_CAPS = { costUsd: null, dayUsd: null, turnSoftUsd: null, dayTokens: null };

const OPTION_KEYS: ReadonlySet<string> = new Set([
  'out',
  'store',
  'resume',
  'signal',
  'onProgress',
  'clock',
]);

/** The run's clock, once every option is checked; a bad option is a programmer error. */
function checkedClock(options: RunEvalOptions): Clock {
  const refuse = (field: string, rule: string) => invalidArgument('runEval', field, rule);
  if (typeof options !== 'object' || options === null) throw refuse('options', 'must be an object');
  checkOptionKeys('runEval', options, OPTION_KEYS);
  const { out, store, resume, signal, onProgress, clock } = options;
  if (out !== undefined && typeof out !== 'string') throw refuse('options.out', 'must be a string');
  if (store !== undefined && out !== undefined)
    throw refuse('options.out', 'must not be given with options.store (the log is the store)');
  if (store !== undefined && (typeof store !== 'object' || store === null))
    throw refuse('options.store', 'must be a SessionStore');
  if (resume !== undefined && typeof resume !== 'boolean')
    throw refuse('options.resume', 'must be a boolean');
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw refuse('options.signal', 'must be an AbortSignal');
  if (onProgress !== undefined && typeof onProgress !== 'function')
    throw refuse('options.onProgress', 'must be a function');
  if (clock !== undefined && typeof clock !== 'function')
    throw refuse('options.clock', 'must be a function returning epoch milliseconds');
  return clock ?? Date.now;
}

/**
 * Runs every task × arm × repetition in a seeded order, `concurrency` at a time, saving each
 * trial to the results log as it ends, and returns the report. Never spends past a cap: every
 * model call first reserves its worst case on the trial's and the run's budget
 * (`reserveBudget`), and settles the real usage after. When the run's cap refuses a call, the
 * run stops cleanly: trials in flight end, none starts, and the report covers what ran.
 * An interrupted run continues with `resume: true`, never repeating a logged trial. The config is
 * checked by the schema `defineEval` uses before anything runs.
 *
 * @throws PlankitEvalError `config_invalid`, `run_exists`, `resume_mismatch`, `log_invalid`, `store_failed`
 * @throws PlankitError `argument_invalid` for a bad option (an unknown key such as the removed
 *   `now`, a wrong type, `out` with `store`), before anything runs
 * @example
 * ```ts
 * const run = await runEval(config, { out: 'eval-results' });
 * console.log(run.report.verdict);
 * ```
 * @public
 */
export async function runEval(input: EvalConfig, options: RunEvalOptions = {}): Promise<EvalRun> {
  const now = checkedClock(options);
  const config = checkEvalConfig(input, 'runEval');
  const out = options.store === undefined ? (options.out ?? 'eval-results') : null;
  const store = options.store ?? new FileStore({ directory: join(out ?? '', 'log') });
  const ownsStore = options.store === undefined;
  try {
    const fingerprint: RunFingerprint = {
      arms: config.arms.map((arm) => arm.id),
      tasks: config.tasks.map((task) => task.id),
      repetitions: config.repetitions,
      seed: config.seed,
    };
    const log = await openTrialLog(store, fingerprint, options.resume === true, now(), out);
    const runId = runIdOf(fingerprint);
    const specs: TrialSpec[] = [];
    for (const task of config.tasks)
      for (const arm of config.arms)
        for (let r = 1; r <= config.repetitions; r++)
          specs.push({ key: `${task.id}/${arm.id}/${r}`, task, arm, repetition: r });
    const ordered = seededShuffle(specs, config.seed);
    const trials: TrialRecord[] = [...log.logged];
    const finished = new Set(
      log.logged.filter((trial) => trial.status !== 'cut_short').map((trial) => trial.key),
    );
    const pending = ordered.filter((spec) => !finished.has(spec.key));

    let runBudget = createBudget({
      now: now(),
      caps: {
        ...NO_CAPS,
        costUsd: config.budget?.totalUsd ?? null,
        tokens: config.budget?.totalTokens ?? null,
      },
    });
    // Everything earlier runs logged (cut-short and errored trials included) counts against the
    // cap; the log was checked, so every cost is a finite USD amount and every count whole.
    const spentBefore = trials.reduce(
      (sum, trial) => ({ usd: sum.usd + trial.usd, tokens: sum.tokens + trial.tokens }),
      { usd: 0, tokens: 0 },
    );
    if (spentBefore.usd > 0 || spentBefore.tokens > 0) {
      const held = reserveBudget(runBudget, { id: 'earlier-runs', usd: 0, now: now() });
      const settled = held.ok
        ? settleBudget(held.value, {
            id: 'earlier-runs',
            usd: spentBefore.usd,
            tokens: spentBefore.tokens,
            now: now(),
          })
        : held;
      if (!settled.ok)
        throw new PlankitEvalError(
          'store_failed',
          `runEval: could not count the logged spend against the budget: ${settled.error.message}`,
          { cause: settled.error },
        );
      runBudget = settled.value;
    }

    let outcome: RunOutcome = 'completed';
    const abort = new AbortController();
    const onAbort = (): void => {
      if (outcome === 'completed') outcome = 'aborted';
      abort.abort();
    };
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const started = now();
    let doneNow = 0;
    let callNumber = 0;

    // Each done count is reported once, in order: trials that end together (concurrency) or a
    // cut-short trial (not done) add no line.
    let reported = -1;
    let done = trials.filter((trial) => trial.status !== 'cut_short').length;
    const report = (): void => {
      if (options.onProgress === undefined) return;
      if (done <= reported) return;
      reported = done;
      const elapsed = now() - started;
      const left = specs.length - done;
      options.onProgress({
        done,
        total: specs.length,
        usd: runBudget.session.spentUsd,
        tokens: runBudget.session.spentTokens,
        etaMs: doneNow === 0 ? null : Math.round((elapsed / doneNow) * left),
      });
    };

    const runOne = async (spec: TrialSpec): Promise<void> => {
      const record = await runTrial(spec, config, runId, {
        signal: abort.signal,
        now,
        nextCallId: () => `call-${++callNumber}`,
        runBudget: () => runBudget,
        setRunBudget: (next) => {
          runBudget = next;
        },
        onRunCapHit: () => {
          if (outcome === 'completed') outcome = 'run_budget';
          abort.abort();
        },
      });
      trials.push(record);
      await log.append(record, now());
      if (record.status !== 'cut_short') {
        doneNow++;
        done++;
      }
      report();
    };

    let next = 0;
    // A worker that fails (the log cannot be appended, onProgress threw) stops the others, and
    // the run rejects only once none is in flight: no trial runs or spends after runEval settles.
    const failures: unknown[] = [];
    const worker = async (): Promise<void> => {
      while (!abort.signal.aborted && next < pending.length) {
        const spec = pending[next++] as TrialSpec;
        try {
          await runOne(spec);
        } catch (error) {
          failures.push(error);
          abort.abort();
        }
      }
    };
    const workers = Array.from(
      { length: Math.min(config.concurrency ?? 1, pending.length) },
      worker,
    );
    try {
      await Promise.all(workers);
      await log.flush();
      if (failures.length > 0) throw failures[0];
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
    return { outcome, trials, report: buildReport(config, trials, outcome) };
  } finally {
    if (ownsStore) await store.close();
  }
}

interface TrialContext {
  readonly signal: AbortSignal;
  readonly now: () => number;
  readonly nextCallId: () => string;
  readonly runBudget: () => Budget;
  readonly setRunBudget: (budget: Budget) => void;
  readonly onRunCapHit: () => void;
}

function bytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

function costOf(prices: PriceTable | undefined, model: string, usage: CallUsage): number {
  if (prices === undefined || !Object.hasOwn(prices, model)) return 0;
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const cost = usageCost(prices, {
    model,
    inputTokens: usage.inputTokens - cached,
    outputTokens: usage.outputTokens,
    cachedInputTokens: cached,
  });
  return cost.ok ? cost.value : 0;
}

async function runTrial(
  spec: TrialSpec,
  config: EvalConfig,
  runId: string,
  context: TrialContext,
): Promise<TrialRecord> {
  const startedAt = context.now();
  const seed = deriveSeed(config.seed, spec.key);
  const bus = new InProcessEventBus();
  let live: Session | undefined;
  const planActivity = watchPlan(bus, () => live);
  const session = new Session({ clock: context.now, bus });
  live = session;
  const files = new Map(Object.entries(spec.task.fixtures ?? {}));
  const transcript: TranscriptEntry[] = [];
  const maxOutputTokens = config.maxOutputTokens ?? 4096;
  let toolBytes = 0;
  const modelId = spec.arm.host.modelId;
  const prices = config.prices;
  let trialBudget = createBudget({
    now: startedAt,
    caps: {
      ...NO_CAPS,
      costUsd: config.budget?.perTrialUsd ?? null,
      tokens: config.budget?.perTrialTokens ?? null,
    },
  });
  let inputTokens = 0;
  let outputTokens = 0;
  let usd = 0;
  // Each held call's worst case, counted instead of a usage that cannot be (NaN, a fraction).
  const worstCases = new Map<string, CallUsage>();
  const guard: CallGuard = {
    reserve(sent) {
      if (signal.aborted) return { ok: false, stop: 'aborted' };
      // At most one token per UTF-8 byte sent, plus a margin per message for the chat format.
      const messages = (sent as { messages?: unknown[] }).messages?.length ?? 1;
      const estimateIn = bytes(sent) + toolBytes + 16 * messages + 64;
      const estimate = costOf(prices, modelId, {
        inputTokens: estimateIn,
        outputTokens: maxOutputTokens,
        cachedInputTokens: 0,
      });
      const tokens = estimateIn + maxOutputTokens;
      const id = context.nextCallId();
      const at = Math.max(context.now(), trialBudget.updatedAt, context.runBudget().updatedAt);
      const onTrial = reserveBudget(trialBudget, { id, usd: estimate, tokens, now: at });
      if (!onTrial.ok) return { ok: false, stop: 'trial_budget' };
      const onRun = reserveBudget(context.runBudget(), { id, usd: estimate, tokens, now: at });
      if (!onRun.ok) {
        context.onRunCapHit();
        return { ok: false, stop: 'run_budget' };
      }
      trialBudget = onTrial.value;
      context.setRunBudget(onRun.value);
      worstCases.set(id, {
        inputTokens: estimateIn,
        outputTokens: maxOutputTokens,
        cachedInputTokens: 0,
      });
      return { ok: true, id };
    },
    settle(id, reported) {
      const problem = problemOf(usageSchema, reported);
      const worst = worstCases.get(id) ?? { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
      worstCases.delete(id);
      const usage = problem === null ? reported : worst;
      const cost = costOf(prices, modelId, usage);
      const tokens = usage.inputTokens + usage.outputTokens;
      inputTokens += usage.inputTokens;
      outputTokens += usage.outputTokens;
      usd += cost;
      const at = context.now();
      const trial = settleBudget(trialBudget, { id, usd: cost, tokens, now: at });
      if (trial.ok) trialBudget = trial.value;
      const run = settleBudget(context.runBudget(), { id, usd: cost, tokens, now: at });
      if (run.ok) context.setRunBudget(run.value);
      // Counted all the same, so the caps hold; the host's call fails, and with it the trial.
      if (problem !== null)
        throw new TypeError(`The host's usage is refused: ${problem}; counted at the worst case.`);
    },
  };
  let stop: TrialStop | 'error';
  let text = '';
  let turns = 0;
  let error: string | null = null;
  const deadline = trialDeadline(context.signal, config.trialTimeoutMs ?? DEFAULT_TRIAL_TIMEOUT_MS);
  const signal = deadline.signal;
  const record = (entry: TranscriptEntry): void => {
    // A host still running after the time limit adds nothing to the logged transcript.
    if (!deadline.expired) transcript.push(entry);
  };
  const goalOptions = goalOf(spec.arm);
  let goal: TrialGoalDriver | null = null;
  try {
    // Inside the try: a goal that cannot hold the task, or a task's tools factory that throws,
    // errors its trial, not the run.
    if (goalOptions !== null)
      goal = startTrialGoal(goalOptions, {
        arm: spec.arm,
        task: spec.task,
        session,
        files,
        transcript,
        record,
        now: context.now,
        used: () => ({ tokens: inputTokens + outputTokens, usd }),
      });
    const setup = buildArm(spec.arm, spec.task, session, files, goal?.line);
    toolBytes = bytes(setup.tools.map(toolShape));
    const running = spec.arm.host.runTrial({
      system: setup.system,
      prompt: spec.task.prompt,
      tools: setup.tools,
      session,
      maxTurns: config.maxTurns ?? 20,
      maxOutputTokens,
      seed,
      trialKey: spec.key,
      taskId: spec.task.id,
      armId: spec.arm.id,
      repetition: spec.repetition,
      signal,
      guard,
      callModel: (sent, call, usage) => callThroughGuard(guard, signal, sent, call, usage),
      reminder: setup.reminder,
      afterAnswer: goal === null ? async () => undefined : goal.afterAnswer,
      record,
    });
    // A host that ignores the abort signal is not waited for past the limit.
    const output = await Promise.race([running, deadline.passed]);
    // A trial is logged only with an output resume can read back.
    const problem = problemOf(hostOutputSchema, output);
    if (problem !== null) throw new TypeError(`The host's output is refused: ${problem}.`);
    stop = output.stop;
    text = output.text;
    turns = output.turns;
  } catch (cause) {
    stop = context.signal.aborted ? 'aborted' : 'error';
    error = messageOf(cause).slice(0, 2000);
  }
  // Past its limit the trial failed, whatever the host made of the abort: it is not run again.
  if (deadline.expired && !context.signal.aborted) {
    stop = 'error';
    error = deadline.reason;
  }
  const cut = stop === 'run_budget' || stop === 'aborted';
  let status: TrialRecord['status'] = cut ? 'cut_short' : stop === 'error' ? 'errored' : 'finished';
  let verdict: TrialRecord['verdict'] = null;
  if (status === 'finished') {
    // A checker that throws or a judge reply without a verdict gives no verdict: the trial is
    // errored (out of the rates), never counted as a failure it may not be.
    try {
      const checking = runChecker(
        spec.task.check,
        {
          taskId: spec.task.id,
          files,
          plan: selectLatest(session, Plan),
          session,
          transcript,
          text,
        },
        spec.task.prompt,
      );
      const checked = await Promise.race([checking, deadline.passed]);
      verdict = checked.verdict;
      if (checked.malformed) {
        status = 'errored';
        error = 'The LLM judge gave no VERDICT: PASS or VERDICT: FAIL last line; no verdict.';
      }
    } catch (cause) {
      status = 'errored';
      error = deadline.expired
        ? deadline.reason
        : `The checker threw: ${messageOf(cause)}`.slice(0, 2000);
      if (deadline.expired) verdict = null;
    }
  }
  deadline.clear();
  const toolEntries = transcript.filter((entry) => entry.kind === 'tool');
  return {
    run: runId,
    key: spec.key,
    taskId: spec.task.id,
    armId: spec.arm.id,
    repetition: spec.repetition,
    seed,
    status,
    stop,
    pass: status === 'finished' && verdict?.pass === true,
    verdict,
    error,
    turns,
    toolCalls: toolEntries.length,
    planningCalls: toolEntries.filter((entry) => entry.name.startsWith('planning_')).length,
    inputTokens,
    outputTokens,
    tokens: inputTokens + outputTokens,
    usd: Math.round(usd * 1e6) / 1e6,
    plan: planActivity(),
    ...(goal === null ? {} : { goal: goal.result() }),
    // A wall clock can step back; the log's records never hold a negative duration.
    durationMs: Math.max(0, context.now() - startedAt),
    transcript,
  };
}

/** How long a trial may take when the config says nothing: 10 minutes. */
const DEFAULT_TRIAL_TIMEOUT_MS = 600_000;

/** A trial's time limit: its own abort signal, and a promise that rejects when time is up. */
interface TrialDeadline {
  /** Aborted when the run is, or when the time is up. */
  readonly signal: AbortSignal;
  /** Rejects when the time is up; never resolves. */
  readonly passed: Promise<never>;
  /** The time is up. */
  readonly expired: boolean;
  /** Why the trial failed, once the time is up. */
  readonly reason: string;
  /** Stops the timer and lets go of the run's signal. */
  clear(): void;
}

function trialDeadline(run: AbortSignal, timeoutMs: number): TrialDeadline {
  const abort = new AbortController();
  const reason = `The trial ran past trialTimeoutMs (${timeoutMs} ms) and was stopped; it has no verdict.`;
  const onRunAbort = (): void => abort.abort();
  if (run.aborted) abort.abort();
  else run.addEventListener('abort', onRunAbort, { once: true });
  let expire = (): void => {};
  const passed = new Promise<never>((_resolve, reject) => {
    expire = () => reject(new Error(reason));
  });
  // Raced only while the trial runs; past that, no one waits on it.
  passed.catch(() => {});
  const deadline = {
    signal: abort.signal,
    passed,
    expired: false,
    reason,
    clear(): void {
      clearTimeout(timer);
      run.removeEventListener('abort', onRunAbort);
    },
  };
  const timer = setTimeout(() => {
    deadline.expired = true;
    abort.abort();
    expire();
  }, timeoutMs);
  // It never keeps the process alive by itself: a host waiting on I/O (a socket) is stopped
  // at the limit, and one waiting on nothing at all is still reported by the CLI at once.
  timer.unref?.();
  return deadline;
}

function messageOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

function toolShape(tool: AnyTool): unknown {
  return { name: tool.name, description: tool.description, parameters: toolJsonSchema(tool) };
}

/**
 * Watches a trial's plan: every commit samples the latest plan, so steps of a plan later
 * cleared or replaced still count. Step ids restart with a new plan (a new objective, or after
 * a clear), so steps are counted per plan.
 */
function watchPlan(bus: InProcessEventBus, session: () => Session | undefined): () => PlanActivity {
  const created = new Set<string>();
  let generation = 0;
  let objective: string | undefined;
  bus.subscribe('SessionCommitted', () => {
    const current = session();
    if (current === undefined) return;
    const plan = selectLatest(current, Plan);
    if (plan === undefined) {
      if (objective !== undefined) generation++;
      objective = undefined;
      return;
    }
    if (plan.objective !== objective) {
      if (objective !== undefined) generation++;
      objective = plan.objective;
    }
    for (const step of plan.steps) created.add(`${generation}:${step.step_id}`);
  });
  return () => {
    const current = session();
    const final = current === undefined ? undefined : selectLatest(current, Plan);
    const completed = final?.steps.filter((step) => step.status === 'done').length ?? 0;
    return { created: created.size, completed, abandoned: Math.max(0, created.size - completed) };
  };
}
