import {
  formatPlanRevision,
  MAX_PLAN_REVISIONS,
  Plan,
  planHistory,
  renderPlan,
  Session,
  selectLatest,
} from '@plankit/core';
import { fromPlanAnchor, toPlanAnchor } from '../plan-anchor.ts';
import { PromptRenderError } from '../prompt-render-error.ts';

/** The first line of the summary message a compaction writes (LangChain's wording). @public */
export const SUMMARY_HEADER = 'Here is a summary of the conversation to date:';

/** The first line of the plan message a compaction writes after the summary. @public */
export const PLAN_STATE_HEADER =
  'The current plan, kept across compaction (the plankit-plan-anchor block is its exact copy):';

/** The line before the recent plan revisions in the plan message (`history` option). @public */
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
  /** The text of a message, for finding plan anchors and earlier compactions. */
  textOf(message: M): string;
  /** The messages to put after the pinned ones: the summary, then the plan (or none). */
  build(summary: string, plan: string | undefined): M[];
}

/** What {@link compactWithPlan} takes. @public */
export interface CompactionOptions<M> {
  /** The host's messages, oldest first; not changed. */
  readonly messages: readonly M[];
  /**
   * Writes the summary of the messages being compacted (never called with none). Your model
   * call goes here; plankit has no model inside. Whatever it keeps or drops, the plan is put
   * back after the summary from the session (or from the last plan anchor in the messages).
   */
  readonly summarise: (messages: readonly M[]) => string | Promise<string>;
  /** The session whose latest plan is placed; read after `summarise` settles. */
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
   * `formatPlanRevision` gives it; 0 by default. The explanations live in the session, not in
   * the plan, so they are shown for the model to read, not carried by the anchor.
   */
  readonly history?: number | undefined;
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
  /** Where the plan came from: the session, or the last plan anchor in the messages. */
  readonly planSource: 'session' | 'anchor' | undefined;
  /** How many messages were summarised; 0 when there was nothing to compact. */
  readonly summarised: number;
}

function invalid(shape: string, field: string, rule: string): PromptRenderError {
  return new PromptRenderError('options_invalid', `${shape}: ${field} ${rule}.`, { field });
}

const isEarlierCompaction = (text: string): boolean =>
  text.startsWith(SUMMARY_HEADER) || text.startsWith(PLAN_STATE_HEADER);

function lastAnchoredPlan<M>(messages: readonly M[], shape: MessageShape<M>): Plan | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const text = shape.textOf(messages[i] as M);
    if (!text.includes('<plankit-plan-anchor')) continue;
    const restored = fromPlanAnchor(text);
    if (restored.ok) return restored.value;
  }
  return undefined;
}

function defaultRender(plan: Plan): string {
  const dependencies = plan.steps.some((step) => step.depends_on !== undefined);
  return renderPlan(plan, { dependencies });
}

/**
 * Compacts a host's message list without losing the plan: the messages before the kept tail
 * go to your `summarise` function, and the result is the pinned head (system prompts), a
 * summary message, then a plan message holding the readable plan state and its
 * {@link toPlanAnchor} block, then the tail. The plan is the session's latest (read after
 * the summary is written, so changes made meanwhile are not lost); without a session, or
 * when it has no plan, it is the last readable plan anchor in the messages, so a plan carried
 * by an earlier compaction survives any number of them, whatever the summariser drops.
 *
 * @example
 * ```ts
 * const { messages } = await compactWithPlan({ messages: history, session, summarise, keep: 6 }, shape);
 * ```
 * @throws PromptRenderError `options_invalid` naming the field: messages not an array of
 *   objects, `keep` not a non-negative integer, `history` not an integer from 0 to 200, `summarise` not a function or not giving a
 *   string, `session` not a Session, `render` not a function or not giving a string
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
    if (typeof message !== 'object' || message === null || Array.isArray(message))
      throw invalid(name, `messages[${i}]`, 'must be a message object');
  }
  if (typeof summarise !== 'function') throw invalid(name, 'summarise', 'must be a function');
  if (!Number.isSafeInteger(keep) || keep < 0)
    throw invalid(name, 'keep', 'must be a non-negative integer');
  if (session !== undefined && !(session instanceof Session))
    throw invalid(name, 'session', 'must be a Session');
  if (typeof render !== 'function') throw invalid(name, 'render', 'must be a function');
  if (!Number.isSafeInteger(history) || history < 0 || history > MAX_PLAN_REVISIONS)
    throw invalid(name, 'history', `must be an integer from 0 to ${MAX_PLAN_REVISIONS}`);

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
    });

  const dropped = messages.slice(head, cutoff);
  const summary: unknown = await summarise(dropped);
  if (typeof summary !== 'string') throw invalid(name, 'summarise', 'must return a string');

  // Read after the await: the latest plan, including changes made while summarising.
  const sessionPlan = session === undefined ? undefined : selectLatest(session, Plan);
  const plan = sessionPlan ?? lastAnchoredPlan(messages, shape);
  const planSource =
    sessionPlan !== undefined ? 'session' : plan !== undefined ? 'anchor' : undefined;
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
        : `${RECENT_CHANGES_HEADER}\n${revisions.map(formatPlanRevision).join('\n')}\n\n`;
    planText = `${PLAN_STATE_HEADER}\n\n${state}\n\n${changes}${toPlanAnchor(placed)}`;
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
  });
}
