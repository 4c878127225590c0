import type { Result } from '@plankit/core';
import { type PlanView, type PlanViewProblem, parsePlanView } from '@plankit/core/plan-view';
import { type PlanPartWarning, planPartWarning } from './plan-part-warning.ts';

/** The part type plankit's server helpers write a plan view under. @public */
export const PLAN_PART_TYPE = 'data-plan';

/**
 * One part of a chat message, as far as {@link latestPlan} reads it: the AI SDK's `UIMessage`
 * parts (ai 6 and 7) fit, so do others of the same shape.
 *
 * @public
 */
export interface PlanMessagePart {
  /** `data-plan` for a plan part; other parts are skipped. */
  readonly type: string;
  /** The part's id; the server reuses one per plan, so the client updates it in place. */
  readonly id?: string | undefined;
  /** The plan view, unchecked; `null` in the part that clears the plan. */
  readonly data?: unknown;
}

/**
 * One chat message, as far as {@link latestPlan} reads it (a `useChat` message fits).
 *
 * @public
 */
export interface PlanMessage {
  /** The message's id, named in warnings. */
  readonly id: string;
  /**
   * Who wrote it: only an `assistant` message carries the plan, so a plan part pasted into a
   * user message (or any other role's) is never shown.
   */
  readonly role: string;
  /** Its parts, oldest first. */
  readonly parts: readonly PlanMessagePart[];
}

/** What {@link latestPlan} found. @public */
export interface PlanReading {
  /**
   * The latest valid plan, frozen; `null` when no message holds one, or when the newest plan
   * part is the server's `null` one that clears it (a rollback to before the plan existed).
   */
  readonly plan: PlanView | null;
  /** The `data-plan` parts after it that were refused, newest first. */
  readonly warnings: readonly PlanPartWarning[];
}

// Messages and parts are immutable once rendered (useChat replaces a message to change it,
// and keeps each part's `data` object), so each is read and parsed once.
const readings = new WeakMap<PlanMessage, MessageReading | null>();
const parsed = new WeakMap<object, Result<PlanView, PlanViewProblem>>();

function parseOnce(data: unknown): Result<PlanView, PlanViewProblem> {
  if (typeof data !== 'object' || data === null) return parsePlanView(data);
  let result = parsed.get(data);
  if (result === undefined) {
    result = parsePlanView(data);
    parsed.set(data, result);
  }
  return result;
}

/** A message's reading; `cleared` when its newest valid plan part is the one clearing the plan. */
interface MessageReading extends PlanReading {
  readonly cleared: boolean;
}

/** The message's latest valid plan and the refused plan parts after it; `null` without plan parts. */
function readMessage(message: PlanMessage): MessageReading | null {
  const cached = readings.get(message);
  if (cached !== undefined) return cached;
  let reading: MessageReading | null = null;
  const warnings: PlanPartWarning[] = [];
  for (let index = message.parts.length - 1; index >= 0; index--) {
    const part = message.parts[index];
    if (part?.type !== PLAN_PART_TYPE) continue;
    // The server's part that clears the plan (a rollback to before it existed): no plan now,
    // and older parts do not count.
    if (part.data === null) {
      reading = { plan: null, warnings, cleared: true };
      break;
    }
    const result = parseOnce(part.data);
    if (result.ok) {
      reading = { plan: result.value, warnings, cleared: false };
      break;
    }
    const partId = typeof part.id === 'string' ? part.id : null;
    warnings.push(planPartWarning(String(message.id), index, partId, result.error));
  }
  if (reading === null && warnings.length > 0) reading = { plan: null, warnings, cleared: false };
  const frozen =
    reading === null ? null : Object.freeze({ ...reading, warnings: Object.freeze(warnings) });
  readings.set(message, frozen);
  return frozen;
}

/**
 * The latest valid plan view in a chat's messages: the newest `data-plan` part of an
 * `assistant` message whose data `parsePlanView` accepts, frozen. Parts in messages of any
 * other role (a user pasting a plan part) are skipped without a warning. A foreign or malformed part is skipped (never half-read) and
 * reported in `warnings`. Messages are read newest first and each message and part is parsed
 * once, so a streaming chat pays for the message that changed, not for its history.
 *
 * @example
 * ```ts
 * const { plan, warnings } = latestPlan(messages);
 * ```
 *
 * @public
 */
export function latestPlan(messages: readonly PlanMessage[]): PlanReading {
  const warnings: PlanPartWarning[] = [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message: unknown = messages[index];
    // A stored chat edited by hand may hold anything: what is not a message has no plan.
    if (typeof message !== 'object' || message === null) continue;
    if (!Array.isArray((message as PlanMessage).parts)) continue;
    // The server writes the plan into the assistant's reply; any other author could forge one.
    if ((message as PlanMessage).role !== 'assistant') continue;
    const reading = readMessage(message as PlanMessage);
    if (reading === null) continue;
    // One push per warning: a stored chat may hold more bad parts than a call takes arguments.
    for (const warning of reading.warnings) warnings.push(warning);
    if (reading.plan !== null || reading.cleared)
      return Object.freeze({ plan: reading.plan, warnings: Object.freeze(warnings) });
  }
  return Object.freeze({ plan: null, warnings: Object.freeze(warnings) });
}
