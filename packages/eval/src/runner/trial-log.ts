import { createHash } from 'node:crypto';
import type { JsonValue, SessionStore } from '@plankit/adapters/stores';
import { PlankitEvalError } from '../plankit-eval-error.ts';
import { checkLoggedTrial } from './logged-trial.ts';
import type { TrialRecord } from './trial-record.ts';

/** The session id of a run's results log. */
export const RUN_SESSION_ID = 'eval-run';

/** What identifies a run: resuming with another config is refused. */
export interface RunFingerprint {
  readonly arms: readonly string[];
  readonly tasks: readonly string[];
  readonly repetitions: number;
  readonly seed: number;
}

/** The run's config hash, stamped on every trial record: sha256 of the fingerprint, 16 hex. */
export function runIdOf(fingerprint: RunFingerprint): string {
  return createHash('sha256').update(JSON.stringify(fingerprint)).digest('hex').slice(0, 16);
}

/** A run's append-only results log on a session store. */
export interface TrialLog {
  /** Trials already logged (finished, errored and cut short), oldest first. */
  readonly logged: readonly TrialRecord[];
  /** Appends one trial; appends are queued so they never race. */
  append(record: TrialRecord, at: number): Promise<void>;
  /** Waits for queued appends. */
  flush(): Promise<void>;
}

function sameFingerprint(a: RunFingerprint, b: JsonValue): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Opens the run's log: creates it with `eval.run_started`, or (with `resume`) reads the trials
 * it holds. `out` is the output folder the log is in, named by the refusals; `null` for a store
 * the caller gave. Refuses an existing log without `resume` (`run_exists`), a log of another config
 * (`resume_mismatch`), and a log with a record that is not a trial of this run (`log_invalid`,
 * naming the line): nothing in the log is counted unless all of it checks.
 */
export async function openTrialLog(
  store: SessionStore,
  fingerprint: RunFingerprint,
  resume: boolean,
  now: number,
  out: string | null,
): Promise<TrialLog> {
  const loaded = await store.load(RUN_SESSION_ID, { snapshot: false });
  let version = 0;
  const logged: TrialRecord[] = [];
  if (loaded.ok) {
    if (!resume)
      throw new PlankitEvalError(
        'run_exists',
        out === null
          ? 'runEval: the store already holds a run; pass resume: true (--resume) to continue it, or give another store.'
          : `runEval: the output folder ${JSON.stringify(out)} already holds a run; pass resume: true (--resume) to continue it, choose another folder, or delete this one to start over.`,
        { field: 'out' },
      );
    version = loaded.value.version;
    const [first, ...rest] = loaded.value.events;
    if (first?.type !== 'eval.run_started' || !sameFingerprint(fingerprint, first.data))
      throw new PlankitEvalError(
        'resume_mismatch',
        'runEval: the log in the output folder is of another config (arms, tasks, repetitions or seed differ); resume it with the same config or choose another folder.',
        { field: 'out' },
      );
    logged.push(...checkLogged(rest, fingerprint));
  } else if (loaded.error.code !== 'not_found') {
    throw new PlankitEvalError(
      'store_failed',
      `runEval: could not read the log: ${loaded.error.message}`,
      {
        cause: loaded.error,
      },
    );
  } else {
    const created = await store.append(RUN_SESSION_ID, 0, [
      { type: 'eval.run_started', at: now, data: fingerprint },
    ]);
    if (!created.ok)
      throw new PlankitEvalError(
        'store_failed',
        `runEval: could not start the log: ${created.error.message}`,
        {
          cause: created.error,
        },
      );
    version = created.value;
  }
  let queue: Promise<void> = Promise.resolve();
  return {
    logged,
    append(record, at) {
      const write = queue.then(async () => {
        const appended = await store.append(RUN_SESSION_ID, version, [
          { type: 'eval.trial', at, data: record },
        ]);
        if (!appended.ok)
          throw new PlankitEvalError(
            'store_failed',
            `runEval: could not log trial ${record.key}: ${appended.error.message}`,
            { cause: appended.error },
          );
        version = appended.value;
      });
      // A failed append fails its own caller; later appends still run.
      queue = write.catch(() => undefined);
      return write;
    },
    flush: () => queue,
  };
}

/**
 * Every record after `eval.run_started`, checked: each is an `eval.trial` of this run (schema,
 * run hash, arm, task, repetition, cost), and no trial is logged as ended twice (a cut-short
 * record may come before the one that ended it, never after).
 */
function checkLogged(
  events: readonly { readonly sequence: number; readonly type: string; readonly data: JsonValue }[],
  fingerprint: RunFingerprint,
): TrialRecord[] {
  const expected = {
    runId: runIdOf(fingerprint),
    arms: new Set(fingerprint.arms),
    tasks: new Set(fingerprint.tasks),
    repetitions: fingerprint.repetitions,
  };
  const ended = new Map<string, number>();
  const records: TrialRecord[] = [];
  for (const event of events) {
    const refuse = (rule: string): never => {
      throw new PlankitEvalError(
        'log_invalid',
        `runEval: the results log's event ${event.sequence} (line ${event.sequence} of events.jsonl in a FileStore log) is refused: ${rule}. Nothing was counted and nothing ran; remove that line, or start again in another folder.`.slice(
          0,
          2000,
        ),
        { field: `log event ${event.sequence}` },
      );
    };
    if (event.type !== 'eval.trial')
      refuse(`type: ${JSON.stringify(event.type)} is not eval.trial`);
    const checked = checkLoggedTrial(event.data, expected);
    if (!checked.ok) return refuse(checked.rule);
    const { record } = checked;
    const earlier = ended.get(record.key);
    if (earlier !== undefined) refuse(`key: trial ${record.key} already ended at event ${earlier}`);
    if (record.status !== 'cut_short') ended.set(record.key, event.sequence);
    records.push(record);
  }
  return records;
}
