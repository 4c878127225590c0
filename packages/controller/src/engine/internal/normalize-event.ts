import type { Result } from '@plankit/core';
import { isRecord } from '@plankit/core/internal-unstable';
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
import { isUsd, toMicros } from '../../internal/micro-usd.ts';
import { INTRODUCED_BY, type IntroducedBy } from '../adaptation-log-entry.ts';
import { invalid, unstorableError } from './failure.ts';

// The checks of what an event carries, before anything is routed: the step itself
// (apply-step.ts) takes only a NormalizedEvent.

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

/** The one frozen empty list events and steps share. */
export const EMPTY: readonly never[] = Object.freeze([]);

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
