import { Session } from '@plankit/core';
import { checkOptionKeys, invalidArgument } from '@plankit/core/internal-unstable';
import { planView } from '@plankit/core/plan-view';
import { conversationOf } from '../host/conversation.ts';
import { createPlanTracker } from '../host/plan-tracker.ts';
import type { SessionSource } from '../sessions/resolve-session.ts';
import type { AISDKContext } from './ai-sdk-context.ts';
import type { PlanDataChunk } from './plan-data-part.ts';

/** Options of {@link withPlanUpdates}; `C` is the app's context type. @public */
export interface PlanUpdatesOptions<C = unknown> {
  /**
   * The session whose plan is streamed: one `Session`, or the resolver the tools use (a
   * pool's `resolver`), called with `{ context }`. A pool's conversation is followed across
   * its evictions and reloads, and its session is held only while the current plan is read.
   */
  readonly session: SessionSource<AISDKContext<C>>;
  /** The app's context naming the conversation, as the tools get it (`{ chatId }`). */
  readonly context?: C | undefined;
  /**
   * The `data-plan` part's id, 1-256 characters: the same for every update, so the client
   * replaces the part in place. `plankit-plan` by default.
   */
  readonly id?: string | undefined;
}

/**
 * The part of a `createUIMessageStream` writer {@link withPlanUpdates} uses: `write` and
 * `merge`. The writers of `ai` 6 and 7 both fit, typed for the app's message type.
 *
 * @public
 */
export interface PlanUpdatesWriter {
  /** Appends a chunk to the stream. */
  write(part: PlanDataChunk): void;
  /** Merges another stream of chunks into the stream. */
  merge(stream: ReadableStream): void;
}

/** The default id of the plan's data part. @public */
export const PLAN_PART_ID = 'plankit-plan';

const OPTION_KEYS: ReadonlySet<string> = new Set(['session', 'context', 'id']);

/** `[before, after]`: where the plan held back goes around a chunk that passes. */
type Around = readonly [PlanDataChunk | undefined, PlanDataChunk | undefined];

const NOTHING: Around = [undefined, undefined];

/** A merged stream being read by the writer. */
interface Lane {
  /** Its `finish` (or `abort`) chunk has passed: nothing of the model's answer follows. */
  ended: boolean;
  /** Where its chunks go: a plan enqueued here follows every chunk passed before it. */
  readonly controller: ReadableStreamDefaultController;
}

/** How the writer follows a lane: see {@link tracked}. */
interface LaneHooks {
  /** Told each chunk that passes; returns the plan held back to send around it. */
  readonly pass: (lane: Lane, chunk: unknown) => Around;
  /** Called once, when the lane leaves the set: drained, errored or cancelled. */
  readonly settle: (lane: Lane) => void;
}

/**
 * `stream` as a lane, in `lanes` until the writer has drained it, it errors, or it is
 * cancelled; then `hooks.settle` is called, once. Each chunk that passes goes through
 * `hooks.pass`, with the plan held back around it. Its high-water mark is 0, so it reads only when the writer asks
 * for the next chunk: by then the writer has passed on every chunk before, and a plan written
 * directly once the lane has settled cannot overtake one of its chunks.
 */
function tracked(stream: ReadableStream, lanes: Set<Lane>, hooks: LaneHooks): ReadableStream {
  const reader = stream.getReader();
  let lane!: Lane;
  const end = (): void => {
    if (lanes.delete(lane)) hooks.settle(lane);
  };
  return new ReadableStream(
    {
      start(controller) {
        lane = { ended: false, controller };
        lanes.add(lane);
      },
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            end();
            controller.close();
            return;
          }
          const [before, after] = hooks.pass(lane, value);
          if (before !== undefined) controller.enqueue(before);
          controller.enqueue(value);
          if (after !== undefined) controller.enqueue(after);
        } catch (error) {
          end();
          controller.error(error);
        }
      },
      cancel(reason) {
        end();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Wraps a `createUIMessageStream` `execute` so the stream carries the conversation's live
 * plan: the current plan once at the start, then a `data-plan` part for the committed changes
 * of the plan (a tool call, a dispatch, a rollback) or of a field the session's extensions add
 * to its view (a goal's status and budget used), each built by `planView` and each with
 * the same id, so the client updates one part in place. Nothing is written before a plan
 * exists; once one was sent, a change that leaves no plan (a rollback to before it was set up)
 * sends a part whose `data` is `null`, which clears it. It listens from before the first read until `execute` has returned and every stream
 * it merged has ended, then stops.
 *
 * Where the parts go: a client starts a fresh message at the `start` chunk and drops parts
 * sent before it, so the first plan goes right after it. A model's stream (`streamText`) runs
 * its tools ahead of the reader, so while a merged stream is mid-answer a change is sent just
 * before the next chunk that passes (before the tool output of the call that made it), and
 * changes made while the reader lags behind are sent as one part with the newest plan: the
 * client never sees an older plan after a newer one. Once no merged stream is mid-answer
 * (each has passed its `finish` or `abort` chunk, or ended), a change is sent at once, once:
 * one the host makes after the model has answered (in `onFinish`, after awaiting the result,
 * in a tool call of its own) is on the stream before `execute` returns.
 *
 * Pass the same `session` and `context` the tools get. With a pool's resolver the plan is
 * followed through the pool (`SessionPool.subscribe`), whichever live copy commits.
 *
 * @example
 * ```ts
 * const stream = createUIMessageStream<ChatMessage>({
 *   execute: withPlanUpdates({ session, context: { chatId } }, ({ writer }) => {
 *     writer.merge(streamText({ model, messages, tools, experimental_context: { chatId } }).toUIMessageStream());
 *   }),
 * });
 * ```
 * @returns the `execute` to pass to `createUIMessageStream`; it rejects (and the stream
 *   reports an error) when the conversation's session cannot be resolved, before `execute` runs
 * @throws PlankitError `argument_invalid` for bad options or a non-function `execute`
 * @public
 */
export function withPlanUpdates<W extends PlanUpdatesWriter, C = unknown>(
  options: PlanUpdatesOptions<C>,
  execute: (options: { writer: W }) => Promise<void> | void,
): (options: { writer: W }) => Promise<void> {
  const where = 'withPlanUpdates';
  if (typeof options !== 'object' || options === null)
    throw invalidArgument(where, 'options', 'must be an object with a session');
  checkOptionKeys(where, options, OPTION_KEYS);
  const { session: source, context, id = PLAN_PART_ID } = options;
  if (!(source instanceof Session) && typeof source !== 'function')
    throw invalidArgument(where, 'options.session', 'must be a Session or a resolver function');
  if (typeof id !== 'string' || id.length === 0 || id.length > 256)
    throw invalidArgument(where, 'options.id', 'must be a string of 1-256 characters');
  if (typeof execute !== 'function') throw invalidArgument(where, 'execute', 'must be a function');

  return async ({ writer }) => {
    const found = await conversationOf(source, { context });
    if (!found.ok) throw found.error;
    const conversation = found.value;
    let listening = true;
    // The newest plan not sent yet; whether a chunk has passed; the merged streams not
    // drained; the one of them the newest plan sent went through, while it is open.
    let held: PlanDataChunk | undefined;
    let started = false;
    const lanes = new Set<Lane>();
    let carrier: Lane | undefined;
    const send = (chunk: PlanDataChunk): void => {
      carrier = undefined;
      try {
        writer.write(chunk);
      } catch {
        // Sent from inside a commit: a writer that fails must not fail the change.
      }
    };
    const around = (lane: Lane | undefined, chunk: unknown): Around => {
      started = true;
      const type = (chunk as { type?: unknown } | null)?.type;
      if (lane !== undefined && (type === 'finish' || type === 'abort')) lane.ended = true;
      if (held === undefined) return NOTHING;
      const plan = held;
      held = undefined;
      carrier = lane;
      return type === 'start' ? [undefined, plan] : [plan, undefined];
    };
    // Sends the plan held back now, unless a merged stream in flight will carry it before its
    // next chunk. A stream past its last chunk carries nothing more, though it may stay open
    // (for the host's `onFinish`, say): the plan goes into it at once, behind the older plan
    // it may still hold.
    const flush = (): void => {
      if (held === undefined || !started) return;
      let via = carrier;
      for (const lane of lanes) {
        if (!lane.ended) return;
        via ??= lane;
      }
      const plan = held;
      held = undefined;
      if (via !== undefined) {
        try {
          via.controller.enqueue(plan);
          carrier = via;
          return;
        } catch {
          // Closed meanwhile: its chunks are all out, so the plan is written directly.
        }
      }
      send(plan);
    };
    // Whether a commit changed the plan, across the conversation's live copies.
    const tracker = createPlanTracker();
    // Whether this stream has sent (or holds) a plan: once it has, losing the plan (a rollback
    // to before it was set up) sends a part that clears it, or the page would keep the old one.
    let sentPlan = false;
    const show = (session: Session): void => {
      if (!listening) return;
      const changed = tracker.change(session);
      if (!changed.plan && !changed.revision && !changed.fields) return;
      const data = planView(session);
      if (data === null && !sentPlan) return;
      sentPlan = data !== null;
      held = { type: 'data-plan', id, data };
      flush();
    };
    // Subscribed before the first read, so no change falls between the two.
    const stop = conversation.subscribe((_event, session) => show(session));
    const merged: Promise<void>[] = [];
    const proxy = new Proxy(writer, {
      get(target, key) {
        if (key === 'write') {
          return (chunk: PlanDataChunk) => {
            const [before, after] = around(undefined, chunk);
            if (before !== undefined) writer.write(before);
            writer.write(chunk);
            if (after !== undefined) writer.write(after);
          };
        }
        if (key === 'merge') {
          return (stream: ReadableStream) => {
            merged.push(
              new Promise<void>((resolve) => {
                writer.merge(
                  tracked(stream, lanes, {
                    pass: around,
                    settle: (lane) => {
                      if (carrier === lane) carrier = undefined;
                      resolve();
                      // The last stream mid-answer has ended: a change held for its next
                      // chunk goes now, not when `execute` returns.
                      flush();
                    },
                  }),
                );
              }),
            );
          };
        }
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    try {
      const first = await conversation.hold(async (session) => show(session));
      if (!first.ok) throw first.error;
      await execute({ writer: proxy });
      // A stream may be merged while another drains: wait until none is left.
      for (let i = 0; i < merged.length; i++) await merged[i];
      // Still held (nothing passed after the last change): it goes out last.
      if (held !== undefined) send(held);
    } finally {
      listening = false;
      stop();
    }
  };
}
