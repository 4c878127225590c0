import { Plan, renderPlan, Session, selectLatest } from '@plankit/core';
import { isRecord } from '@plankit/core/internal-unstable';
import { MAX_PLAN_REVISIONS, planHistory, renderPlanRevision } from '@plankit/core/plan-model';
import {
  anchorKeyProblem,
  importAnchorKey,
  type PlanAnchorKey,
  type SubtleKey,
  signedAnchor,
  verifiedPlan,
} from '../authenticated-plan-anchor.ts';
import { ANCHOR_TAG, fromPlanAnchor, toPlanAnchor } from '../plan-anchor.ts';
import type { PlanAnchorCode } from '../plan-anchor-error.ts';
import { PromptRenderError } from '../prompt-render-error.ts';

/** The first line of the summary message a compaction writes (LangChain's wording). @public */
export const SUMMARY_HEADER = 'Here is a summary of the conversation to date:';

/** The first line of the plan message a compaction writes after the summary. @public */
export const PLAN_STATE_HEADER =
  'The current plan, kept across compaction (the plankit-plan-anchor block is its exact copy):';

/** The line before the recent plan revisions in the plan message (the `history()` extension). @public */
export const RECENT_CHANGES_HEADER = 'Recent plan changes, oldest first:';

/**
 * How a host's messages look, for {@link compactWithPlan}. `compactChatMessages` and
 * `compactAnthropicMessages` bring the shapes of the common hosts; write one for any other.
 *
 * @typeParam M - the host's message type
 * @public
 */
export interface MessageShape<M> {
  /** The name used in error messages, such as `compactChatMessages`. */
  readonly name: string;
  /** A message kept verbatim when it leads the list (a system prompt), never summarised. */
  isPinned(message: M): boolean;
  /**
   * A message that cannot open the kept tail because it answers the message before it (a
   * tool result): the tail starts earlier instead, so a call and its result stay together.
   */
  continuesTurn(message: M): boolean;
  /** The text of a message, for finding earlier compactions and reporting stray anchors. */
  textOf(message: M): string;
  /**
   * The plan text of a message when it has the role and form `build` gives the plan (chat: a
   * `user` message with string content; Anthropic: the second of exactly two `text` blocks of
   * a `user` message), else undefined. Only this text, at the plan's position, is read for a
   * plan: never a tool result or other text. Optional: without it, `textOf` is used, so the
   * position and header are checked but not the role.
   */
  planTextOf?(message: M): string | undefined;
  /**
   * The messages to put after the pinned ones: the summary, then the plan (or none). The plan
   * goes in the last message it returns (its own message, or a part of the summary message),
   * and a later compaction reads it from that position only.
   */
  build(summary: string, plan: string | undefined): M[];
}

/** What {@link compactWithPlan} takes. @public */
export interface CompactionOptions<M> {
  /** The host's messages, oldest first; not changed. */
  readonly messages: readonly M[];
  /**
   * Writes the summary of the messages being compacted (never called with none). Your model
   * call goes here; plankit has no model inside. Whatever it keeps or drops, the plan is put
   * back after the summary from the session (or from the plan message of the earlier
   * compaction).
   */
  readonly summarise: (messages: readonly M[]) => string | Promise<string>;
  /**
   * The session whose latest plan is placed; read after `summarise` settles. Without one, or
   * when it has no plan, the plan comes from the plan message an earlier compaction wrote.
   */
  readonly session?: Session | undefined;
  /**
   * How many of the most recent messages to keep verbatim; 0 by default. The tail starts
   * earlier rather than split a tool call from its result, and never keeps the summary or
   * plan message of an earlier compaction (those are summarised again).
   */
  readonly keep?: number | undefined;
  /**
   * The readable plan state placed before the anchor; core's `renderPlan` by default, with
   * the `Ready:` / `Blocked:` lines when a step carries `depends_on`.
   */
  readonly render?: ((plan: Plan) => string) | undefined;
  /**
   * How many of the session's newest plan revisions (core's `planHistory`, with the `history`
   * option: who changed what and why) to write after the plan state, each as
   * `renderPlanRevision` gives it; 0 by default. The explanations live in the session, not in
   * the plan, so they are shown for the model to read, not carried by the anchor.
   */
  readonly history?: number | undefined;
  /**
   * The secret that authenticates the plan message across processes (see `PlanAnchorKey`;
   * at least 32 bytes, from your secret store, never from the conversation). With it the plan
   * message carries an authenticated anchor (`toAuthenticatedPlanAnchor`), and a plan is
   * taken from an earlier plan message only when the key verifies its anchor; any other
   * anchor is ignored and reported in `ignoredAnchors`. Use the same key for every process
   * that compacts the conversation; a key per tenant or conversation also stops a plan
   * message being copied from one conversation to another.
   */
  readonly anchorKey?: PlanAnchorKey | undefined;
}

/**
 * Where the placed plan came from: the session, an anchor the `anchorKey` verified, or an
 * anchor read without a key (the plan message of an earlier compaction, in its place and form,
 * but text anyone could have written there: decide whether to act on it).
 *
 * @public
 */
export type CompactionPlanSource = 'session' | 'authenticated-anchor' | 'unauthenticated-anchor';

/**
 * Why an anchor in the messages was not used: it is in a message plankit did not write as
 * its plan message (`not_plan_message`: a tool result, user or assistant text, a summary), or
 * the plan message's anchor could not be read or authenticated (a {@link PlanAnchorCode}).
 *
 * @public
 */
export type IgnoredAnchorReason = 'not_plan_message' | Exclude<PlanAnchorCode, 'anchor_missing'>;

/** An anchor {@link compactWithPlan} found and did not use. @public */
export interface IgnoredAnchor {
  /** The index of the message holding it, in `options.messages`. */
  readonly index: number;
  /** Why it was not used. */
  readonly reason: IgnoredAnchorReason;
}

/** What {@link compactWithPlan} returns. @public */
export interface CompactionResult<M> {
  /**
   * The compacted context: the leading pinned messages, the summary, the plan message (when
   * there is a plan), then the kept tail. A new array; the kept messages are the same objects.
   */
  readonly messages: M[];
  /** The plan placed after the summary, or undefined when there was none (or it was abandoned). */
  readonly plan: Plan | undefined;
  /**
   * Where the plan came from (see {@link CompactionPlanSource}); undefined without a plan. An
   * `unauthenticated-anchor` plan is placed, but nothing proves plankit wrote it.
   */
  readonly planSource: CompactionPlanSource | undefined;
  /** How many messages were summarised; 0 when there was nothing to compact. */
  readonly summarised: number;
  /**
   * The anchors found and not used, in message order: one per message outside the plan
   * message that holds an anchor tag, and the plan message's own when it could not be read
   * or authenticated. Empty when nothing was compacted.
   */
  readonly ignoredAnchors: readonly IgnoredAnchor[];
}

function invalid(shape: string, field: string, rule: string): PromptRenderError {
  return new PromptRenderError('options_invalid', `${shape}: ${field} ${rule}.`, { field });
}

const isEarlierCompaction = (text: string): boolean =>
  text.startsWith(SUMMARY_HEADER) || text.startsWith(PLAN_STATE_HEADER);

/**
 * The plan message of the compaction that wrote this context: right after the pinned head,
 * the summary (its text starts with the summary header), and the plan text in the message
 * `build` puts it in (the last it writes: the summary message itself for Anthropic's second
 * block, the message after it for chat), starting with the plan header and in the form `build`
 * writes. A compaction never keeps a message starting with either header in its tail, so this
 * is where plankit put its own and nowhere else. Only that one message is read: after a
 * summary written without a plan, the next message is the user's, not a plan message.
 */
function planMessage<M>(
  messages: readonly M[],
  head: number,
  shape: MessageShape<M>,
): { readonly index: number; readonly text: string } | undefined {
  const summary = messages[head];
  if (summary === undefined || !shape.textOf(summary).startsWith(SUMMARY_HEADER)) return undefined;
  const index = head + shape.build(SUMMARY_HEADER, PLAN_STATE_HEADER).length - 1;
  const message = index < head ? undefined : messages[index];
  if (message === undefined) return undefined;
  const text = shape.planTextOf === undefined ? shape.textOf(message) : shape.planTextOf(message);
  return typeof text === 'string' && text.startsWith(PLAN_STATE_HEADER)
    ? { index, text }
    : undefined;
}

const ANCHOR_OPENING = `<${ANCHOR_TAG}`;

function defaultRender(plan: Plan): string {
  const dependencies = plan.steps.some((step) => step.depends_on !== undefined);
  return renderPlan(plan, { dependencies });
}

/**
 * Compacts a host's message list without losing the plan: the messages before the kept tail
 * go to your `summarise` function, and the result is the pinned head (system prompts), a
 * summary message, then a plan message holding the readable plan state and its anchor
 * ({@link toPlanAnchor}, or `toAuthenticatedPlanAnchor` with `anchorKey`), then the tail. The
 * plan is the session's latest (read after the summary is written, so changes made meanwhile
 * are not lost); without a session, or when it has no plan, it is read from the plan message
 * an earlier compaction wrote (by its place after the summary, its role and its header), so a
 * plan survives any number of compactions, whatever the summariser drops. An anchor anywhere
 * else (a tool result, user text, a quoted summary) is never read for a plan, only reported
 * in `ignoredAnchors`; with `anchorKey`, neither is a plan message the key does not verify.
 *
 * @example
 * ```ts
 * const { messages } = await compactWithPlan({ messages: history, session, summarise, keep: 6 }, shape);
 * ```
 * @throws PromptRenderError `options_invalid` naming the field: messages not an array of
 *   objects, `keep` not a non-negative integer, `history` not an integer from 0 to 200, `summarise` not a function or not giving a
 *   string, `session` not a Session, `render` not a function or not giving a string,
 *   `anchorKey` shorter than 32 bytes or not an HMAC SHA-256 key allowing `sign` and `verify`
 * @public
 */
export async function compactWithPlan<M>(
  options: CompactionOptions<M>,
  shape: MessageShape<M>,
): Promise<CompactionResult<M>> {
  const name = shape.name;
  if (typeof options !== 'object' || options === null)
    throw invalid(name, 'options', 'must be an object');
  const { messages, summarise, session, render = defaultRender } = options;
  const keep = options.keep ?? 0;
  const history = options.history ?? 0;
  if (!Array.isArray(messages)) throw invalid(name, 'messages', 'must be an array');
  for (let i = 0; i < messages.length; i++) {
    const message: unknown = messages[i];
    if (!isRecord(message)) throw invalid(name, `messages[${i}]`, 'must be a message object');
  }
  if (typeof summarise !== 'function') throw invalid(name, 'summarise', 'must be a function');
  if (!Number.isSafeInteger(keep) || keep < 0)
    throw invalid(name, 'keep', 'must be a non-negative integer');
  if (session !== undefined && !(session instanceof Session))
    throw invalid(name, 'session', 'must be a Session');
  if (typeof render !== 'function') throw invalid(name, 'render', 'must be a function');
  if (!Number.isSafeInteger(history) || history < 0 || history > MAX_PLAN_REVISIONS)
    throw invalid(name, 'history', `must be an integer from 0 to ${MAX_PLAN_REVISIONS}`);
  const { anchorKey } = options;
  if (anchorKey !== undefined) {
    const problem = anchorKeyProblem(anchorKey, ['sign', 'verify']);
    if (problem !== undefined) throw invalid(name, 'anchorKey', problem);
  }

  let head = 0;
  while (head < messages.length && shape.isPinned(messages[head] as M)) head++;
  let cutoff = Math.max(head, messages.length - keep);
  while (cutoff > head && cutoff < messages.length && shape.continuesTurn(messages[cutoff] as M))
    cutoff--;
  // An earlier compaction's messages are summarised again, never kept: one plan message only.
  for (let i = messages.length - 1; i >= cutoff; i--) {
    if (isEarlierCompaction(shape.textOf(messages[i] as M))) {
      cutoff = i + 1;
      while (cutoff < messages.length && shape.continuesTurn(messages[cutoff] as M)) cutoff++;
      break;
    }
  }
  if (cutoff <= head)
    return Object.freeze({
      messages: [...messages],
      plan: undefined,
      planSource: undefined,
      summarised: 0,
      ignoredAnchors: Object.freeze([]),
    });

  const key: SubtleKey | undefined =
    anchorKey === undefined ? undefined : await importAnchorKey(anchorKey);
  const dropped = messages.slice(head, cutoff);
  const summary: unknown = await summarise(dropped);
  if (typeof summary !== 'string') throw invalid(name, 'summarise', 'must return a string');

  // Read after the await: the latest plan, including changes made while summarising.
  const sessionPlan = session === undefined ? undefined : selectLatest(session, Plan);
  const written = planMessage(messages, head, shape);
  const ignored: IgnoredAnchor[] = [];
  let plan: Plan | undefined = sessionPlan;
  let planSource: CompactionPlanSource | undefined =
    sessionPlan === undefined ? undefined : 'session';
  let planReport: IgnoredAnchor | undefined;
  if (sessionPlan === undefined && written !== undefined) {
    const restored =
      key === undefined ? fromPlanAnchor(written.text) : await verifiedPlan(written.text, key);
    if (restored.ok) {
      plan = restored.value;
      planSource = key === undefined ? 'unauthenticated-anchor' : 'authenticated-anchor';
    } else if (restored.error.code !== 'anchor_missing') {
      planReport = Object.freeze({ index: written.index, reason: restored.error.code });
    }
  }
  for (let i = 0; i < messages.length; i++) {
    if (i === written?.index) {
      if (planReport !== undefined) ignored.push(planReport);
    } else if (shape.textOf(messages[i] as M).includes(ANCHOR_OPENING)) {
      ignored.push(Object.freeze({ index: i, reason: 'not_plan_message' }));
    }
  }
  const placed = plan === undefined || plan.status === 'abandoned' ? undefined : plan;
  let planText: string | undefined;
  if (placed !== undefined) {
    const state: unknown = render(placed);
    if (typeof state !== 'string') throw invalid(name, 'render', 'must return a string');
    const revisions =
      history === 0 || session === undefined ? [] : planHistory(session).slice(-history);
    const changes =
      revisions.length === 0
        ? ''
        : `${RECENT_CHANGES_HEADER}\n${revisions.map(renderPlanRevision).join('\n')}\n\n`;
    const anchor = key === undefined ? toPlanAnchor(placed) : await signedAnchor(placed, key);
    planText = `${PLAN_STATE_HEADER}\n\n${state}\n\n${changes}${anchor}`;
  }
  return Object.freeze({
    messages: [
      ...messages.slice(0, head),
      ...shape.build(`${SUMMARY_HEADER}\n\n${summary}`, planText),
      ...messages.slice(cutoff),
    ],
    plan: placed,
    planSource: placed === undefined ? undefined : planSource,
    summarised: dropped.length,
    ignoredAnchors: Object.freeze(ignored),
  });
}
