import { ReducedValue } from '@langchain/langgraph';
import { unknownOption } from '@plankit/core/internal-unstable';
import { MAX_PLAN_REVISIONS, PlanRevision } from '@plankit/core/plan-model';
import * as z from 'zod';
import { PlanEditError } from './plan-edit.ts';

const APPEND_KEYS: ReadonlySet<string> = new Set(['append']);

/**
 * What the `planHistory` channel accepts: `{ append: revisions }` adds revisions after the
 * newest (renumbered), a whole history replaces it, `null` empties it.
 *
 * @public
 */
export type PlanHistoryUpdate =
  | { readonly append: readonly PlanRevision[] }
  | readonly PlanRevision[]
  | null;

const Revisions = z.array(PlanRevision);

const invalid = (message: string, field: string): PlanEditError =>
  new PlanEditError('plan_edit_invalid', `Plan history update refused: ${message}`, { field });

function checked(value: unknown, field: string): readonly PlanRevision[] {
  const parsed = Revisions.safeParse(value);
  if (!parsed.success)
    throw invalid(`not a list of plan revisions: ${parsed.error.issues[0]?.message}`, field);
  return parsed.data;
}

// The channel holds plans in the graph state already; a revision's copy would only double it.
function withoutPlan(revision: PlanRevision): PlanRevision {
  if (!('plan' in revision)) return revision;
  const { plan: _plan, ...rest } = revision;
  return rest;
}

/**
 * Why revisions cannot be appended to `history`, the channel's value, or undefined when they
 * can: a damaged checkpoint may hold something other than a list, or a newest revision with
 * no number to number on from.
 */
export function appendRefusal(history: unknown): PlanEditError | undefined {
  if (history === undefined || history === null) return undefined;
  if (Array.isArray(history)) {
    const newest: unknown = history[history.length - 1];
    if (newest === undefined) return undefined;
    const number = (newest as { revision?: unknown } | null)?.revision;
    if (Number.isSafeInteger(number)) return undefined;
  }
  // Says what to do as well as what is wrong: the channel takes a whole history or null.
  return new PlanEditError(
    'plan_edit_refused',
    'Plan history update refused: the channel holds no list of numbered revisions to append to; replace it with a whole history or null.',
    { field: 'planHistory' },
  );
}

/**
 * The `planHistory` channel's reducer: `{ append }` adds the revisions after the newest one,
 * numbered on from it (so the calls of one step, applied in model order, number in model
 * order), a whole history (checked against the `PlanRevision` schema) replaces it, and `null`
 * empties it. Keeps the newest {@link MAX_PLAN_REVISIONS}, without the `plan` copies core keeps
 * on its newest revision. Pure: returns a new frozen array, or `current` when nothing changes.
 *
 * @example
 * ```ts
 * const history = reducePlanHistory([], { append: [revision] });
 * history[0]?.revision; // 1
 * ```
 * @param current - the channel's revisions, oldest first
 * @param update - revisions to append, a whole history, or `null`
 * @returns the channel's next revisions
 * @throws PlanEditError `plan_edit_invalid` when the update holds anything but revisions, and
 *   `plan_edit_refused` for an `{ append }` to a `current` that holds no numbered revisions (a
 *   damaged checkpoint); a value equal to `current` changes nothing, whatever it holds
 * @public
 */
export function reducePlanHistory(
  current: readonly PlanRevision[] | null | undefined,
  update: PlanHistoryUpdate | undefined,
): readonly PlanRevision[] {
  const history = current ?? [];
  if (update === undefined || update === current) return history;
  if (update === null) return Object.freeze([]);
  const appending =
    typeof update === 'object' &&
    !Array.isArray(update) &&
    unknownOption(update, APPEND_KEYS) === undefined;
  if (!appending) {
    // `createAgent` sends the current values back: a value equal to the channel's changes
    // nothing, even one a damaged checkpoint left there that no update could write.
    if (JSON.stringify(update) === JSON.stringify(history)) return history;
    if (!Array.isArray(update))
      throw invalid('send { append: revisions }, a whole history, or null.', 'planHistory');
    return Object.freeze(
      checked(update, 'planHistory').slice(-MAX_PLAN_REVISIONS).map(withoutPlan),
    );
  }
  const added = checked((update as { append?: unknown }).append, 'planHistory.append');
  if (added.length === 0) return history;
  const refused = appendRefusal(history);
  if (refused !== undefined) throw refused;
  let number = history[history.length - 1]?.revision ?? 0;
  const next = [
    ...history,
    ...added.map((revision) => ({ ...withoutPlan(revision), revision: ++number })),
  ];
  return Object.freeze(next.slice(-MAX_PLAN_REVISIONS));
}

// The reducer checks every update, and refuses with a typed error; this passes everything on.
const PlanHistoryUpdateSchema = z.custom<PlanHistoryUpdate>(() => true).optional();

/**
 * The `planHistory` channel `planningMiddleware` adds when its extensions record the plan
 * history (`history()` does): the plan's
 * revisions (core's `PlanRevision`: who, why, a structured diff), oldest first, the newest
 * {@link MAX_PLAN_REVISIONS}, reduced by {@link reducePlanHistory}. Plain JSON, so every
 * checkpointer stores it, and a fork from an earlier checkpoint sees the history as it was.
 *
 * @example
 * ```ts
 * const State = new StateSchema({ messages: MessagesValue, plan: planChannel(), planHistory: planHistoryChannel() });
 * ```
 * @public
 */
export function planHistoryChannel(): ReducedValue<readonly PlanRevision[], PlanHistoryUpdate> {
  return new ReducedValue(z.array(PlanRevision).readonly().default([]), {
    // Optional at run time, so an `invoke` input without `planHistory` passes langchain's check.
    inputSchema: PlanHistoryUpdateSchema as unknown as z.ZodType<PlanHistoryUpdate>,
    reducer: (history: readonly PlanRevision[], update: PlanHistoryUpdate) =>
      reducePlanHistory(history, update),
  });
}
