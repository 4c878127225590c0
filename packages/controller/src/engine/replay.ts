import type { Result } from '@plankit/core';
import { deepEqual, formatPath } from '@plankit/core/internal-unstable';
import type { ControllerError } from '../controller-error.ts';
import { keyText } from '../internal/checks.ts';
import { toMicros } from '../internal/micro-usd.ts';
import { issueRule } from '../internal/read-document.ts';
import { TraceEntrySchema } from './controller-snapshot.ts';
import { type InitialSnapshotOptions, initialSnapshot } from './initial-snapshot.ts';
import { applyCapReport, applyOutcome, applyResume } from './internal/apply-step.ts';
import { compiledOf } from './internal/compiled-machine.ts';
import { failure } from './internal/failure.ts';
import type { NormalizedEvent } from './internal/normalize-event.ts';
import { latestEntry } from './internal/trace-log.ts';
import type { Machine } from './machine.ts';
import type { MachineSnapshot } from './machine-snapshot.ts';
import type { TraceEntry } from './trace-entry.ts';

type Step = Result<MachineSnapshot, ControllerError>;

function diverged(
  index: number,
  rule: string,
  cause?: unknown,
): { ok: false; error: ControllerError } {
  return failure(
    'replay_diverged',
    `replay: trace[${index}] ${rule}.`,
    `trace[${index}]`,
    undefined,
    cause,
  );
}

function eventOf(entry: TraceEntry, outcome: string): NormalizedEvent {
  return {
    ok: true,
    outcome,
    now: entry.at,
    confidence: entry.confidence,
    costMicros: toMicros(entry.cost_delta),
    tokens: entry.tokens,
    tool: entry.tool,
    signature: entry.tool_signature,
    violations: entry.violations,
    adaptations: entry.adaptations.map(({ kind, summary, introduced_by }) => ({
      kind,
      summary,
      introduced_by,
    })),
    reason: entry.reason,
  };
}

function apply(
  machine: Machine,
  snapshot: MachineSnapshot,
  entry: TraceEntry,
  index: number,
): Step {
  const compiled = compiledOf(machine, 'replay');
  if (entry.at < snapshot.updatedAt) return diverged(index, `is earlier than the step before it`);
  switch (entry.kind) {
    case 'outcome':
      if (entry.outcome === null) return diverged(index, 'is an outcome step without an outcome');
      if (snapshot.status === 'done' || snapshot.status === 'frozen') {
        return diverged(index, `reports an outcome to a ${snapshot.status} machine`);
      }
      return applyOutcome(compiled, snapshot, eventOf(entry, entry.outcome), 'replay');
    case 'cap':
      if (entry.cap === null) return diverged(index, 'is a cap step without a cap');
      if (snapshot.status === 'done' || snapshot.status === 'frozen') {
        return diverged(index, `reports a cap to a ${snapshot.status} machine`);
      }
      return {
        ok: true,
        value: applyCapReport(compiled, snapshot, entry.cap.name, entry.at, entry.reason),
      };
    case 'resume':
      if (snapshot.status !== 'frozen')
        return diverged(index, `resumes a ${snapshot.status} machine`);
      return applyResume(
        compiled,
        snapshot,
        {
          now: entry.at,
          caps: entry.caps ?? snapshot.caps,
          soft: entry.soft ?? snapshot.soft,
          reason: entry.reason,
          // A resume that routed nothing while an event was pending discarded it.
          discardPending: snapshot.frozen?.pending != null && entry.outcome === null,
        },
        'replay',
      );
    default: {
      const never: never = entry.kind;
      return diverged(index, `has an unknown kind ${String(never)}`);
    }
  }
}

function firstDifference(recorded: TraceEntry, recomputed: TraceEntry | undefined): string {
  if (recomputed === undefined) return 'produced no entry';
  for (const key of Object.keys(recorded) as (keyof TraceEntry)[]) {
    if (!deepEqual(recorded[key], recomputed[key]))
      return `differs from its recomputation in ${key}`;
  }
  return 'differs from its recomputation';
}

/**
 * Rebuilds a snapshot from a trace: starts the machine with `options` (those its first
 * snapshot was made with) and applies every entry again, checking that each recomputed entry
 * equals the recorded one. Replaying a snapshot's trace gives back an equal snapshot; a trace
 * that was edited, or that a changed machine no longer reproduces, is reported at its first
 * difference.
 *
 * @returns the rebuilt snapshot, or a {@link ControllerError}: `snapshot_invalid` for a
 *   malformed entry, `replay_diverged` naming the first entry that does not reproduce
 * @throws ControllerError `argument_invalid` for a machine not made by `defineMachine` or bad
 *   options (as {@link initialSnapshot})
 * @example
 * ```ts
 * const planningMachine = createPlanningController();
 * const rebuilt = replay(planningMachine, snapshot.trace, { now: snapshot.startedAt });
 * ```
 * @public
 */
export function replay<S extends string, O extends string>(
  machine: Machine<S, O>,
  trace: readonly TraceEntry<S, O>[],
  options: InitialSnapshotOptions,
): Result<MachineSnapshot<S, O>, ControllerError> {
  let snapshot: MachineSnapshot = initialSnapshot(machine, options);
  if (!Array.isArray(trace))
    return failure('input_invalid', 'replay: trace must be an array.', 'trace');
  for (const [index, raw] of trace.entries()) {
    const parsed = TraceEntrySchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = issue === undefined ? '' : formatPath(issue.path, keyText);
      return failure(
        'snapshot_invalid',
        `replay: trace[${index}]${path === '' ? '' : `.${path}`} ${issueRule(issue)}.`,
        `trace[${index}]${path === '' ? '' : `.${path}`}`,
      );
    }
    const entry = parsed.data;
    const next = apply(machine, snapshot, entry, index);
    if (!next.ok) {
      return next.error.code === 'replay_diverged'
        ? next
        : diverged(index, `no longer applies: ${next.error.message}`, next.error);
    }
    // The newest entry from the log: reading `trace` would copy the whole trace every step.
    const recomputed = latestEntry(next.value);
    if (!deepEqual(recomputed, entry)) return diverged(index, firstDifference(entry, recomputed));
    snapshot = next.value;
  }
  return { ok: true, value: snapshot as MachineSnapshot<S, O> };
}
