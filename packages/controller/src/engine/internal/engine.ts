import type { Result } from '@plankit/core';
import { clipText, isRecord, refusalText } from '@plankit/core/internal-unstable';
import { ControllerError } from '../../controller-error.ts';
import { canonicalJson } from '../../internal/canonical-json.ts';
import {
  isCount,
  isText,
  isTime,
  isUnit,
  show,
  TIME_RULE,
  unknownKey,
} from '../../internal/checks.ts';
import { hashText } from '../../internal/hash-text.ts';
import { fromMicros, isUsd, MAX_TOTAL_MICROS, toMicros } from '../../internal/micro-usd.ts';
import { trust } from '../../internal/trusted-snapshots.ts';
import { unstorableText } from '../../internal/unstorable-text.ts';
import {
  type AdaptationLogEntry,
  INTRODUCED_BY,
  type IntroducedBy,
} from '../adaptation-log-entry.ts';
import type { CapName, Caps, SoftLimits } from '../default-caps.ts';
import type { GuardInput, StateKind } from '../machine.ts';
import type {
  Counters,
  FrozenState,
  MachineSnapshot,
  PendingEvent,
  StallState,
} from '../machine-snapshot.ts';
import type { MachineStatus } from '../machine-status.ts';
import type { Signal } from '../signal.ts';
import type { CapHit, TraceEntry, TraceKind } from '../trace-entry.ts';
import type { CompiledCandidate, CompiledMachine, CompiledState } from './compiled-machine.ts';
import { withTraceAppended, withTraceOfSnapshot } from './trace-log.ts';

/** Limits on what one event may carry. */
export const EVENT_LIMITS: {
  readonly toolName: number;
  readonly violations: number;
  readonly violation: number;
  readonly adaptations: number;
  readonly adaptationKind: number;
  readonly text: number;
} = Object.freeze({
  toolName: 128,
  violations: 100,
  violation: 500,
  adaptations: 20,
  adaptationKind: 64,
  text: 2000,
});

/** An adaptation as an event carries it, checked. */
export interface AdaptationDraft {
  readonly kind: string;
  readonly summary: string;
  readonly introduced_by: IntroducedBy;
}

/** A checked outcome event, in the form the engine (and replay) applies. */
export interface NormalizedEvent {
  /** Always true: tells a checked event from a failure without a wrapper object. */
  readonly ok: true;
  readonly outcome: string;
  readonly now: number;
  readonly confidence: number | null;
  readonly costMicros: number;
  readonly tokens: number;
  readonly tool: string | null;
  readonly signature: string | null;
  readonly violations: readonly string[];
  readonly adaptations: readonly AdaptationDraft[];
  readonly reason: string | null;
}

type Outcome = Result<MachineSnapshot, ControllerError>;

const EMPTY: readonly never[] = Object.freeze([]);
const NO_STALL: StallState = Object.freeze({ tool: null, signature: null, count: 0 });
const NO_RETRIES: Readonly<Record<string, number>> = Object.freeze({});
const NO_TOOL = Object.freeze({
  ok: true,
  value: Object.freeze({ tool: null, signature: null }),
} as const);
const NONE = Object.freeze({ ok: true, value: EMPTY } as const);
const EVENT_KEYS: ReadonlySet<string> = new Set([
  'outcome',
  'now',
  'confidence',
  'costUsd',
  'tokens',
  'tool',
  'violations',
  'adaptations',
  'reason',
]);
const TOOL_KEYS: ReadonlySet<string> = new Set(['name', 'args', 'result']);
const ADAPTATION_KEYS: ReadonlySet<string> = new Set(['kind', 'summary', 'introduced_by']);
const BY: ReadonlySet<string> = new Set(INTRODUCED_BY);

/** A failed result. */
export function failure(
  code: ControllerError['code'],
  message: string,
  field?: string,
  state?: string,
  cause?: unknown,
): { readonly ok: false; readonly error: ControllerError } {
  // Clipped here, so no refusal a model reads reaches 2,000 characters, however it was built.
  return {
    ok: false,
    error: new ControllerError(code, refusalText(message), { field, state, cause }),
  };
}

function invalid(
  where: string,
  field: string,
  rule: string,
): { ok: false; error: ControllerError } {
  return failure('input_invalid', `${where}: ${field} ${rule}.`, field);
}

/**
 * An `input_invalid` error for text in `value` (at `field`) that no store can hold: U+0000 or
 * a lone surrogate. Null when every string in it is storable.
 */
export function unstorableError(
  where: string,
  field: string,
  value: unknown,
): ControllerError | null {
  const problem = unstorableText(value, field);
  if (problem === undefined) return null;
  const path = clipText(problem.path, 400);
  return new ControllerError(
    'input_invalid',
    refusalText(`${where}: ${path} ${problem.rule}, so no store could hold it.`),
    { field: path },
  );
}

/** The status a state's kind gives. */
export function statusOf(kind: StateKind): MachineStatus {
  return kind === 'work' ? 'running' : kind === 'wait' ? 'waiting' : 'done';
}

/** Checks `now` against the snapshot's last step. */
export function checkNow(
  where: string,
  field: string,
  now: unknown,
  updatedAt: number,
): ControllerError | null {
  if (!isTime(now)) return invalid(where, field, `${TIME_RULE}, got ${show(now)}`).error;
  if (now < updatedAt) {
    return invalid(
      where,
      field,
      `must not be earlier than the snapshot's updatedAt (${updatedAt}), got ${now}`,
    ).error;
  }
  return null;
}

/** Checks an optional reason. */
export function checkReason(
  where: string,
  field: string,
  reason: unknown,
): ControllerError | string | null {
  if (reason === undefined || reason === null) return null;
  if (typeof reason !== 'string' || reason.length > EVENT_LIMITS.text) {
    return invalid(
      where,
      field,
      `must be null or a string of at most ${EVENT_LIMITS.text} characters`,
    ).error;
  }
  return unstorableError(where, field, reason) ?? reason;
}

function readTool(
  where: string,
  tool: unknown,
): Result<{ readonly tool: string | null; readonly signature: string | null }, ControllerError> {
  if (tool === undefined || tool === null) return NO_TOOL;
  if (typeof tool === 'string') {
    if (!isText(tool, EVENT_LIMITS.toolName)) {
      return invalid(where, 'event.tool', `must be 1-${EVENT_LIMITS.toolName} characters`);
    }
    const unstorable = unstorableError(where, 'event.tool', tool);
    if (unstorable !== null) return { ok: false, error: unstorable };
    return { ok: true, value: { tool, signature: null } };
  }
  if (!isRecord(tool))
    return invalid(where, 'event.tool', 'must be a tool name or { name, args?, result? }');
  const extra = unknownKey(tool, TOOL_KEYS);
  if (extra !== undefined) return invalid(where, `event.tool.${extra}`, 'is not a tool key');
  const name = tool['name'];
  if (!isText(name, EVENT_LIMITS.toolName)) {
    return invalid(where, 'event.tool.name', `must be 1-${EVENT_LIMITS.toolName} characters`);
  }
  const unstorable = unstorableError(where, 'event.tool.name', name);
  if (unstorable !== null) return { ok: false, error: unstorable };
  // args and result are only hashed into the signature, never stored, so any JSON will do.
  const text = canonicalJson([name, tool['args'] ?? null, tool['result'] ?? null]);
  if (text === undefined) return invalid(where, 'event.tool', 'args and result must be JSON data');
  return { ok: true, value: { tool: name, signature: hashText(text) } };
}

function readViolations(where: string, value: unknown): Result<readonly string[], ControllerError> {
  if (value === undefined) return NONE;
  if (!Array.isArray(value) || value.length > EVENT_LIMITS.violations) {
    return invalid(
      where,
      'event.violations',
      `must be an array of at most ${EVENT_LIMITS.violations} strings`,
    );
  }
  for (const [index, item] of value.entries()) {
    if (!isText(item, EVENT_LIMITS.violation)) {
      return invalid(
        where,
        `event.violations[${index}]`,
        `must be 1-${EVENT_LIMITS.violation} characters`,
      );
    }
    const unstorable = unstorableError(where, `event.violations[${index}]`, item);
    if (unstorable !== null) return { ok: false, error: unstorable };
  }
  return { ok: true, value: value.length === 0 ? EMPTY : Object.freeze([...value] as string[]) };
}

function readAdaptations(
  where: string,
  value: unknown,
): Result<readonly AdaptationDraft[], ControllerError> {
  if (value === undefined) return NONE;
  if (!Array.isArray(value) || value.length > EVENT_LIMITS.adaptations) {
    return invalid(
      where,
      'event.adaptations',
      `must be an array of at most ${EVENT_LIMITS.adaptations} items`,
    );
  }
  const out: AdaptationDraft[] = [];
  for (const [index, item] of value.entries()) {
    const field = `event.adaptations[${index}]`;
    if (!isRecord(item)) return invalid(where, field, 'must be { kind, summary, introduced_by? }');
    const extra = unknownKey(item, ADAPTATION_KEYS);
    if (extra !== undefined) return invalid(where, `${field}.${extra}`, 'is not an adaptation key');
    const { kind, summary, introduced_by = 'ai_adaptation' } = item;
    if (!isText(kind, EVENT_LIMITS.adaptationKind)) {
      return invalid(where, `${field}.kind`, `must be 1-${EVENT_LIMITS.adaptationKind} characters`);
    }
    if (!isText(summary, EVENT_LIMITS.text)) {
      return invalid(where, `${field}.summary`, `must be 1-${EVENT_LIMITS.text} characters`);
    }
    if (typeof introduced_by !== 'string' || !BY.has(introduced_by)) {
      return invalid(
        where,
        `${field}.introduced_by`,
        'must be system, user_feedback or ai_adaptation',
      );
    }
    const unstorable =
      unstorableError(where, `${field}.kind`, kind) ??
      unstorableError(where, `${field}.summary`, summary);
    if (unstorable !== null) return { ok: false, error: unstorable };
    out.push(Object.freeze({ kind, summary, introduced_by: introduced_by as IntroducedBy }));
  }
  return { ok: true, value: Object.freeze(out) };
}

/**
 * Checks an outcome event and brings it to the form the engine applies. An outcome in `known`
 * (the machine's own outcomes, whose names `defineMachine` checked) is storable by construction,
 * so only other strings pay for the storability scan.
 */
export function normalizeEvent(
  where: string,
  event: unknown,
  updatedAt: number,
  known?: ReadonlySet<string>,
): NormalizedEvent | { readonly ok: false; readonly error: ControllerError } {
  if (!isRecord(event)) return invalid(where, 'event', 'must be an object');
  const extra = unknownKey(event, EVENT_KEYS);
  if (extra !== undefined) return invalid(where, `event.${extra}`, 'is not an event key');
  const { outcome, now, confidence, costUsd, tokens, reason } = event;
  if (typeof outcome !== 'string')
    return invalid(where, 'event.outcome', `must be a string, got ${show(outcome)}`);
  if (known === undefined || !known.has(outcome)) {
    const unstorable = unstorableError(where, 'event.outcome', outcome);
    if (unstorable !== null) return { ok: false, error: unstorable };
  }
  const nowError = checkNow(where, 'event.now', now, updatedAt);
  if (nowError !== null) return { ok: false, error: nowError };
  if (confidence !== undefined && confidence !== null && !isUnit(confidence)) {
    return invalid(
      where,
      'event.confidence',
      `must be null or a number from 0 to 1, got ${show(confidence)}`,
    );
  }
  if (costUsd !== undefined && !isUsd(costUsd)) {
    return invalid(
      where,
      'event.costUsd',
      `must be a finite USD amount >= 0, got ${show(costUsd)}`,
    );
  }
  if (tokens !== undefined && !isCount(tokens)) {
    return invalid(where, 'event.tokens', `must be a non-negative integer, got ${show(tokens)}`);
  }
  const why = checkReason(where, 'event.reason', reason);
  if (why instanceof ControllerError) return { ok: false, error: why };
  const tool = readTool(where, event['tool']);
  if (!tool.ok) return tool;
  const violations = readViolations(where, event['violations']);
  if (!violations.ok) return violations;
  const adaptations = readAdaptations(where, event['adaptations']);
  if (!adaptations.ok) return adaptations;
  return {
    ok: true,
    outcome,
    now: now as number,
    confidence: (confidence as number | null | undefined) ?? null,
    costMicros: costUsd === undefined ? 0 : toMicros(costUsd),
    tokens: (tokens as number | undefined) ?? 0,
    tool: tool.value.tool,
    signature: tool.value.signature,
    violations: violations.value,
    adaptations: adaptations.value,
    reason: why,
  };
}

function stateOf(machine: CompiledMachine, name: string): CompiledState {
  const state = machine.states.get(name);
  // Snapshots are checked against the machine before they get here.
  if (state === undefined) throw new Error(`unreachable: ${name} is not a state of ${machine.id}`);
  return state;
}

/** What a guard threw, as text; a value with no text (a null-prototype object) is named. */
function thrownText(cause: unknown): string {
  try {
    return cause instanceof Error ? String(cause.message) : String(cause);
  } catch {
    return 'a value that cannot be shown';
  }
}

/** The first candidate whose guard passes; null when none does. The guard input is made once, on demand. */
function resolve(
  machine: CompiledMachine,
  state: string,
  outcome: string,
  candidates: readonly CompiledCandidate[],
  snapshot: MachineSnapshot,
  now: number,
  event: Pick<PendingEvent, 'confidence' | 'violations' | 'reason'>,
): { readonly ok: false; readonly error: ControllerError } | string | null {
  let input: GuardInput | undefined;
  for (const { target, guard } of candidates) {
    if (guard === null) return target;
    input ??= {
      snapshot,
      outcome,
      now,
      confidence: event.confidence,
      violations: event.violations,
      reason: event.reason,
    };
    let passed: unknown;
    try {
      passed = guard(input);
    } catch (cause) {
      return failure(
        'guard_rejected',
        `${machine.id}: a guard of ${state} on ${outcome} threw: ${thrownText(cause)}`,
        'guard',
        state,
        cause,
      );
    }
    if (passed === true) return target;
  }
  return null;
}

/** What the trace records of the input of a step. */
interface StepRecord {
  readonly outcome: string | null;
  readonly tool: string | null;
  readonly signature: string | null;
  readonly confidence: number | null;
  readonly costMicros: number;
  readonly tokens: number;
  readonly violations: readonly string[];
  readonly adaptations: readonly AdaptationDraft[];
  readonly reason: string | null;
}

/**
 * One step in progress: the snapshot before it and everything accounted so far, as plain
 * numbers, so the counters object is built once, for the state the step ends in.
 */
interface Step {
  readonly machine: CompiledMachine;
  readonly kind: TraceKind;
  readonly prev: MachineSnapshot;
  readonly state: CompiledState;
  readonly caps: Caps;
  readonly soft: SoftLimits;
  readonly now: number;
  readonly run: number;
  readonly turns: number;
  readonly retries: Readonly<Partial<Record<string, number>>>;
  readonly elapsedMs: number;
  readonly costMicros: number;
  readonly tokens: number;
  readonly stall: StallState;
  readonly record: StepRecord;
  /** What guards see: the snapshot and the event being routed. */
  readonly guardSnapshot: MachineSnapshot;
  readonly guardEvent: PendingEvent | NormalizedEvent | null;
  /** The event a freeze would hold (made on demand for outcome steps). */
  pending: PendingEvent | null | undefined;
  signals: Signal[] | null;
}

function raise(step: Step, signal: Signal): void {
  if (step.signals === null) step.signals = [signal];
  else step.signals.push(signal);
}

function pendingOf(step: Step): PendingEvent | null {
  if (step.pending === undefined) {
    const { outcome, confidence, violations, reason } = step.record;
    step.pending =
      outcome === null ? null : Object.freeze({ outcome, confidence, violations, reason });
  }
  return step.pending;
}

function countersOf(
  step: Step,
  turns: number,
  retries: Readonly<Partial<Record<string, number>>>,
): Counters {
  const prev = step.prev.counters;
  const totalTurns = prev.totalTurns + (turns - step.turns);
  const costUsd =
    step.costMicros === toMicros(prev.costUsd) ? prev.costUsd : fromMicros(step.costMicros);
  if (
    step.run === prev.run &&
    turns === prev.turns &&
    retries === prev.retries &&
    step.elapsedMs === prev.elapsedMs &&
    costUsd === prev.costUsd &&
    step.tokens === prev.tokens
  ) {
    return prev;
  }
  return Object.freeze({
    run: step.run,
    turns,
    retries,
    elapsedMs: step.elapsedMs,
    totalTurns,
    costUsd,
    tokens: step.tokens,
  });
}

function capHit(
  name: CapName,
  action: CapHit['action'],
  limit: number | null,
  value: number | null,
  message: string,
): CapHit {
  return Object.freeze({ name, action, limit, value, message });
}

function addWrapUps(step: Step, counters: Counters): void {
  const { prev, soft } = step;
  if (soft.turns !== null) {
    const before = prev.counters.run === counters.run ? prev.counters.turns : 0;
    if (before < soft.turns && counters.turns >= soft.turns) {
      raise(
        step,
        Object.freeze({
          type: 'wrap_up',
          limit: 'turns',
          value: counters.turns,
          threshold: soft.turns,
        }),
      );
    }
  }
  if (soft.costUsd !== null) {
    const limit = toMicros(soft.costUsd);
    if (toMicros(prev.counters.costUsd) < limit && step.costMicros >= limit) {
      raise(
        step,
        Object.freeze({
          type: 'wrap_up',
          limit: 'costUsd',
          value: counters.costUsd,
          threshold: soft.costUsd,
        }),
      );
    }
  }
}

function finish(
  step: Step,
  state: string,
  status: MachineStatus,
  counters: Counters,
  stall: StallState,
  frozen: FrozenState | null,
  cap: CapHit | null,
): MachineSnapshot {
  const { prev, record, now, soft } = step;
  addWrapUps(step, counters);
  const signals: readonly Signal[] = step.signals === null ? EMPTY : Object.freeze(step.signals);
  const adaptations: readonly AdaptationLogEntry[] =
    record.adaptations.length === 0
      ? EMPTY
      : Object.freeze(
          record.adaptations.map((item) => Object.freeze({ at: now, stage: prev.state, ...item })),
        );
  const entry: TraceEntry = Object.freeze({
    kind: step.kind,
    at: now,
    run: counters.run,
    stage: prev.state,
    outcome: record.outcome,
    from: prev.state,
    to: state,
    status,
    tool: record.tool,
    tool_signature: record.signature,
    duration_ms: now - prev.updatedAt,
    confidence: record.confidence,
    cost_delta: record.costMicros === 0 ? 0 : fromMicros(record.costMicros),
    tokens: record.tokens,
    violations: record.violations,
    adaptations,
    reason: record.reason,
    cap,
    caps: step.kind === 'resume' ? step.caps : null,
    soft: step.kind === 'resume' ? soft : null,
    signals,
  });
  const fields: Omit<MachineSnapshot, 'trace'> = {
    format: 'plankit.machine-snapshot',
    version: 1,
    machine: prev.machine,
    state,
    status,
    caps: step.caps,
    soft,
    counters,
    stall,
    frozen,
    startedAt: prev.startedAt,
    updatedAt: now,
    signals,
  };
  return Object.freeze(trust(withTraceAppended(fields, prev, entry)));
}

/** A cap fired: go to its target or freeze, by the machine's policy. Counts no turn. */
function stopAtCap(
  step: Step,
  name: CapName,
  limit: number | null,
  value: number | null,
  message: string,
  stall: StallState,
): MachineSnapshot {
  const policy = step.machine.policies.get(name);
  if (policy === undefined) throw new Error(`unreachable: cap ${name} has no policy`);
  const counters = countersOf(step, step.turns, step.retries);
  if (policy.action === 'goto') {
    const target = stateOf(step.machine, policy.target);
    raise(
      step,
      Object.freeze({ type: 'cap_reached', cap: name, action: 'goto', target: target.name }),
    );
    const hit = capHit(name, 'goto', limit, value, message);
    return finish(step, target.name, statusOf(target.kind), counters, stall, null, hit);
  }
  raise(step, Object.freeze({ type: 'cap_reached', cap: name, action: 'freeze', target: null }));
  const frozen: FrozenState = Object.freeze({
    cap: name,
    message,
    at: step.now,
    pending: pendingOf(step),
  });
  const hit = capHit(name, 'freeze', limit, value, message);
  return finish(step, step.prev.state, 'frozen', counters, stall, frozen, hit);
}

/**
 * Routes an accepted outcome to `target`, unless a cap decides otherwise: wall time, cost,
 * tokens, turns, stall, retries, in that order.
 */
function route(step: Step, outcome: string, target: string): Outcome {
  const { caps, machine, state } = step;
  if (caps.wallTimeMs !== null && step.elapsedMs > caps.wallTimeMs) {
    const message = `wallTimeMs: ${step.elapsedMs} ms of work in this run, over the cap of ${caps.wallTimeMs} ms`;
    return {
      ok: true,
      value: stopAtCap(step, 'wallTimeMs', caps.wallTimeMs, step.elapsedMs, message, step.stall),
    };
  }
  if (caps.costUsd !== null && step.costMicros > toMicros(caps.costUsd)) {
    const spent = fromMicros(step.costMicros);
    const message = `costUsd: ${spent} USD spent in this session, over the cap of ${caps.costUsd} USD`;
    return {
      ok: true,
      value: stopAtCap(step, 'costUsd', caps.costUsd, spent, message, step.stall),
    };
  }
  if (caps.tokens !== null && step.tokens > caps.tokens) {
    const message = `tokens: ${step.tokens} tokens used in this session, over the cap of ${caps.tokens}`;
    return {
      ok: true,
      value: stopAtCap(step, 'tokens', caps.tokens, step.tokens, message, step.stall),
    };
  }
  if (caps.turns !== null && step.turns + 1 > caps.turns) {
    const message = `turns: turn ${step.turns + 1} of this run would exceed the cap of ${caps.turns}`;
    return {
      ok: true,
      value: stopAtCap(step, 'turns', caps.turns, step.turns + 1, message, step.stall),
    };
  }
  let to = target;
  let hit: CapHit | null = null;
  let stall = step.stall;
  if (caps.stall !== null && stall.count >= caps.stall) {
    const tool = stall.tool ?? 'a tool';
    const message = `stall: ${tool} was called ${stall.count} times in a row with the same arguments and result`;
    raise(step, Object.freeze({ type: 'stalled', tool, repeats: stall.count }));
    const repeats = stall.count;
    stall = NO_STALL;
    const routes = outcome === 'stalled' ? undefined : state.on.get('stalled');
    const rerouted =
      routes === undefined
        ? null
        : resolve(
            machine,
            state.name,
            'stalled',
            routes,
            step.guardSnapshot,
            step.now,
            step.guardEvent ?? step.record,
          );
    if (rerouted !== null && typeof rerouted === 'object') return rerouted;
    if (rerouted === null && outcome !== 'stalled') {
      return { ok: true, value: stopAtCap(step, 'stall', caps.stall, repeats, message, stall) };
    }
    if (rerouted !== null) to = rerouted;
    hit = capHit('stall', 'route', caps.stall, repeats, message);
  }
  const next = stateOf(machine, to);
  const seen = Object.hasOwn(step.retries, to);
  const retries = seen ? (step.retries[to] ?? 0) + 1 : 0;
  const limit = next.retries !== undefined ? next.retries : caps.retries;
  if (seen && limit !== null && retries > limit) {
    const message = `retries: entering ${to} again would be retry ${retries} in this run, over the cap of ${limit}`;
    return { ok: true, value: stopAtCap(step, 'retries', limit, retries, message, stall) };
  }
  const counters = countersOf(step, step.turns + 1, withRetries(step.retries, to, retries));
  return { ok: true, value: finish(step, to, statusOf(next.kind), counters, stall, null, hit) };
}

function rejected(
  machine: CompiledMachine,
  where: string,
  state: CompiledState,
  outcome: string,
): Outcome {
  const accepted = [...state.on.keys()].join(', ');
  return failure(
    'outcome_rejected',
    `${where}: ${machine.id} in ${state.name} does not accept ${show(outcome)}; it accepts ${accepted}.`,
    'event.outcome',
    state.name,
  );
}

function guardRefused(
  machine: CompiledMachine,
  where: string,
  state: string,
  outcome: string,
): Outcome {
  return failure(
    'guard_rejected',
    `${where}: ${machine.id} in ${state}: no guard of ${outcome} passed.`,
    'event.outcome',
    state,
  );
}

/** Applies a checked outcome event to a running or waiting machine. */
export function applyOutcome(
  machine: CompiledMachine,
  prev: MachineSnapshot,
  event: NormalizedEvent,
  where: string,
): Outcome {
  const state = stateOf(machine, prev.state);
  const candidates = state.on.get(event.outcome);
  if (candidates === undefined) return rejected(machine, where, state, event.outcome);
  const target = resolve(machine, state.name, event.outcome, candidates, prev, event.now, event);
  if (target !== null && typeof target === 'object') return target;
  if (target === null) return guardRefused(machine, where, state.name, event.outcome);

  const fresh = prev.status === 'waiting';
  const base = prev.counters;
  const costMicros =
    event.costMicros === 0 ? toMicros(base.costUsd) : toMicros(base.costUsd) + event.costMicros;
  const tokens = base.tokens + event.tokens;
  // Totals a snapshot could not store back are refused before anything counts.
  // Only a step that adds cost is refused: a stored total already past the line still takes
  // free events.
  if (event.costMicros > 0 && costMicros > MAX_TOTAL_MICROS) {
    return invalid(
      where,
      'event.costUsd',
      `would take the session's cost to ${fromMicros(costMicros)} USD, over the ${fromMicros(MAX_TOTAL_MICROS)} USD a snapshot stores`,
    );
  }
  if (!Number.isSafeInteger(tokens)) {
    return invalid(
      where,
      'event.tokens',
      `would take the session's tokens past ${Number.MAX_SAFE_INTEGER}, more than a snapshot stores`,
    );
  }
  let stall = NO_STALL;
  if (event.signature !== null) {
    const again = event.signature === prev.stall.signature;
    stall = Object.freeze({
      tool: event.tool,
      signature: event.signature,
      count: again ? prev.stall.count + 1 : 1,
    });
  }
  const step: Step = {
    machine,
    kind: 'outcome',
    prev,
    state,
    caps: prev.caps,
    soft: prev.soft,
    now: event.now,
    run: fresh ? base.run + 1 : base.run,
    turns: fresh ? 0 : base.turns,
    retries: fresh ? NO_RETRIES : base.retries,
    elapsedMs:
      (fresh ? 0 : base.elapsedMs) + (state.kind === 'work' ? event.now - prev.updatedAt : 0),
    costMicros,
    tokens,
    stall,
    record: event,
    guardSnapshot: prev,
    guardEvent: event,
    pending: undefined,
    signals: null,
  };
  return route(step, event.outcome, target);
}

function quietRecord(
  outcome: string | null,
  reason: string | null,
  pending: PendingEvent | null,
): StepRecord {
  return {
    outcome,
    tool: null,
    signature: null,
    confidence: pending?.confidence ?? null,
    costMicros: 0,
    tokens: 0,
    violations: pending?.violations ?? EMPTY,
    adaptations: EMPTY,
    reason,
  };
}

function quietStep(
  machine: CompiledMachine,
  kind: TraceKind,
  prev: MachineSnapshot,
  limits: { readonly caps: Caps; readonly soft: SoftLimits },
  now: number,
  elapsedMs: number,
  record: StepRecord,
  pending: PendingEvent | null,
): Step {
  const { counters } = prev;
  return {
    machine,
    kind,
    prev,
    state: stateOf(machine, prev.state),
    caps: limits.caps,
    soft: limits.soft,
    now,
    run: counters.run,
    turns: counters.turns,
    retries: counters.retries,
    elapsedMs,
    costMicros: toMicros(counters.costUsd),
    tokens: counters.tokens,
    stall: prev.stall,
    record,
    guardSnapshot: prev,
    guardEvent: pending,
    pending,
    signals: null,
  };
}

/** Applies a cap the host reports to a running or waiting machine. */
export function applyCapReport(
  machine: CompiledMachine,
  prev: MachineSnapshot,
  cap: CapName,
  now: number,
  reason: string | null,
): MachineSnapshot {
  const work = stateOf(machine, prev.state).kind === 'work';
  const elapsedMs = prev.counters.elapsedMs + (work ? now - prev.updatedAt : 0);
  const step = quietStep(
    machine,
    'cap',
    prev,
    prev,
    now,
    elapsedMs,
    quietRecord(null, reason, null),
    null,
  );
  const message =
    reason === null ? `${cap}: reported by the host` : `${cap}: reported by the host: ${reason}`;
  return stopAtCap(step, cap, null, null, message, prev.stall);
}

/** Leaves a freeze with the given limits, routing the pending event again unless discarded. */
export function applyResume(
  machine: CompiledMachine,
  prev: MachineSnapshot,
  input: {
    readonly now: number;
    readonly caps: Caps;
    readonly soft: SoftLimits;
    readonly reason: string | null;
    readonly discardPending: boolean;
  },
  where: string,
): Outcome {
  const state = stateOf(machine, prev.state);
  const pending = prev.frozen?.pending ?? null;
  const routed = pending !== null && !input.discardPending ? pending : null;
  const record = quietRecord(routed?.outcome ?? null, input.reason, routed);
  const step = quietStep(
    machine,
    'resume',
    prev,
    input,
    input.now,
    prev.counters.elapsedMs,
    record,
    routed,
  );
  if (routed === null) {
    return {
      ok: true,
      value: finish(step, state.name, statusOf(state.kind), prev.counters, prev.stall, null, null),
    };
  }
  // Guards see the machine as it is after the resume: unfrozen, with the new limits.
  // Built field by field (not spread) so the view shares the trace instead of copying it.
  const view: MachineSnapshot = Object.freeze(
    withTraceOfSnapshot(
      {
        format: prev.format,
        version: prev.version,
        machine: prev.machine,
        state: prev.state,
        status: statusOf(state.kind),
        caps: input.caps,
        soft: input.soft,
        counters: prev.counters,
        stall: prev.stall,
        frozen: null,
        startedAt: prev.startedAt,
        updatedAt: prev.updatedAt,
        signals: prev.signals,
      },
      prev,
    ),
  );
  const candidates = state.on.get(routed.outcome);
  if (candidates === undefined) return rejected(machine, where, state, routed.outcome);
  const target = resolve(machine, state.name, routed.outcome, candidates, view, input.now, routed);
  if (target !== null && typeof target === 'object') return target;
  if (target === null) return guardRefused(machine, where, state.name, routed.outcome);
  return route({ ...step, guardSnapshot: view }, routed.outcome, target);
}

/**
 * `retries` with `to` set to `count`, frozen. A copy loop: V8 runs it in about two thirds of the
 * time of a spread with a computed key.
 */
function withRetries(
  retries: Readonly<Partial<Record<string, number>>>,
  to: string,
  count: number,
): Readonly<Partial<Record<string, number>>> {
  const out: Record<string, number> = {};
  for (const key in retries) out[key] = retries[key] as number;
  out[to] = count;
  return Object.freeze(out);
}

/**
 * The common step, done without the general path's intermediate objects: a running machine, an
 * event with no tool, violations or adaptations, an outcome whose first candidate is unguarded,
 * and no cap, retry limit or soft limit reached. Anything else returns null and takes the
 * general path, which gives the same snapshot (replay checks every step against it) and every
 * error. The result is built field for field as `finish` builds it, so stored JSON is identical.
 */
export function fastOutcome(
  machine: CompiledMachine,
  prev: MachineSnapshot,
  event: unknown,
): MachineSnapshot | null {
  if (prev.status !== 'running' || !isRecord(event)) return null;
  for (const key in event) {
    switch (key) {
      case 'outcome':
      case 'now':
      case 'confidence':
      case 'costUsd':
      case 'tokens':
      case 'reason':
        continue;
      default:
        return null;
    }
  }
  const { outcome, now, confidence, costUsd, tokens } = event;
  if (typeof outcome !== 'string') return null;
  const state = machine.states.get(prev.state);
  const first = state?.on.get(outcome)?.[0];
  if (state === undefined || first === undefined || first.guard !== null) return null;
  if (!isTime(now) || now < prev.updatedAt) return null;
  if (confidence !== undefined && confidence !== null && !isUnit(confidence)) return null;
  if (costUsd !== undefined && !isUsd(costUsd)) return null;
  if (tokens !== undefined && !isCount(tokens)) return null;
  const reason = checkReason('transition', 'event.reason', event['reason']);
  if (reason instanceof ControllerError) return null;

  const { caps, soft, counters: base } = prev;
  const baseMicros = toMicros(base.costUsd);
  const eventMicros = costUsd === undefined ? 0 : toMicros(costUsd);
  const costMicros = baseMicros + eventMicros;
  const spentTokens = base.tokens + (tokens ?? 0);
  const elapsedMs = base.elapsedMs + (state.kind === 'work' ? now - prev.updatedAt : 0);
  const turns = base.turns + 1;
  if (costMicros > MAX_TOTAL_MICROS || !Number.isSafeInteger(spentTokens)) return null;
  if (caps.wallTimeMs !== null && elapsedMs > caps.wallTimeMs) return null;
  if (caps.costUsd !== null && costMicros > toMicros(caps.costUsd)) return null;
  if (caps.tokens !== null && spentTokens > caps.tokens) return null;
  if (caps.turns !== null && turns > caps.turns) return null;
  if (caps.stall !== null && NO_STALL.count >= caps.stall) return null;
  const to = first.target;
  const next = machine.states.get(to);
  if (next === undefined) return null;
  const seen = Object.hasOwn(base.retries, to);
  const retries = seen ? (base.retries[to] ?? 0) + 1 : 0;
  const limit = next.retries !== undefined ? next.retries : caps.retries;
  if (seen && limit !== null && retries > limit) return null;
  if (soft.turns !== null && base.turns < soft.turns && turns >= soft.turns) return null;
  if (soft.costUsd !== null) {
    const softMicros = toMicros(soft.costUsd);
    if (baseMicros < softMicros && costMicros >= softMicros) return null;
  }

  const status = statusOf(next.kind);
  const counters: Counters = Object.freeze({
    run: base.run,
    turns,
    retries: withRetries(base.retries, to, retries),
    elapsedMs,
    totalTurns: base.totalTurns + 1,
    costUsd: costMicros === baseMicros ? base.costUsd : fromMicros(costMicros),
    tokens: spentTokens,
  });
  const entry: TraceEntry = Object.freeze({
    kind: 'outcome',
    at: now,
    run: base.run,
    stage: prev.state,
    outcome,
    from: prev.state,
    to,
    status,
    tool: null,
    tool_signature: null,
    duration_ms: now - prev.updatedAt,
    confidence: (confidence as number | null | undefined) ?? null,
    cost_delta: eventMicros === 0 ? 0 : fromMicros(eventMicros),
    tokens: (tokens as number | undefined) ?? 0,
    violations: EMPTY,
    adaptations: EMPTY,
    reason,
    cap: null,
    caps: null,
    soft: null,
    signals: EMPTY,
  });
  const fields: Omit<MachineSnapshot, 'trace'> = {
    format: 'plankit.machine-snapshot',
    version: 1,
    machine: prev.machine,
    state: to,
    status,
    caps,
    soft,
    counters,
    stall: NO_STALL,
    frozen: null,
    startedAt: prev.startedAt,
    updatedAt: now,
    signals: EMPTY,
  };
  return Object.freeze(trust(withTraceAppended(fields, prev, entry)));
}
