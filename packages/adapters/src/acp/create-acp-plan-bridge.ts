import type { SessionNotification, SessionUpdate } from '@agentclientprotocol/sdk';
import {
  type AnyTool,
  Plan,
  type Result,
  selectLatest,
  type ToolResult,
  type Unsubscribe,
} from '@plankit/core';
import {
  checkOptionKeys,
  invalidArgument,
  isRecord,
  toolFailure,
} from '@plankit/core/internal-unstable';
import { callTool } from '../host/call-tool.ts';
import { formatToolContent } from '../host/format-tool-content.ts';
import { refusal, refusalMessage } from '../host/refusal.ts';
import type { SessionPool } from '../sessions/create-session-pool.ts';
import type { SessionResolveError } from '../sessions/session-resolve-error.ts';
import { type ACPSessionError, sessionNotFound } from './acp-session-error.ts';
import { acpToolKind } from './acp-tool-kind.ts';
import { toACPPlanUpdate } from './to-acp-plan-update.ts';

/**
 * The part of an ACP connection the bridge uses: the SDK's `AgentContext` (the `client` of an
 * agent handler, or of `AgentApp.connect(...)`) is one.
 *
 * @public
 */
export interface ACPClientLike {
  /** Sends a `session/update` notification to the client. */
  notify(method: 'session/update', params: SessionNotification): Promise<void>;
}

/** Options of {@link createACPPlanBridge}. @public */
export interface ACPPlanBridgeOptions {
  /** One session per ACP session, keyed by the ACP `sessionId`: `createSessionPool`. */
  readonly pool: SessionPool;
  /** The tools a model may call: `createPlanningTools(...)`; they run on each call's session. */
  readonly tools: readonly AnyTool[];
  /**
   * Told when a notification could not be sent (the client went away). The session's plan is
   * saved either way; nothing is retried. Ignored by default.
   */
  readonly onError?: ((error: unknown) => void) | undefined;
}

const OPTION_KEYS: ReadonlySet<string> = new Set(['pool', 'tools', 'onError']);

/** One tool call the model made, as the agent hands it to {@link ACPPlanBridge.callTool}. @public */
export interface ACPToolCallRequest {
  /** The ACP `toolCallId`, unique within the session: the model's call id. */
  readonly toolCallId: string;
  /** The tool name the model asked for. */
  readonly name: string;
  /** The arguments: a JSON string or a parsed value. */
  readonly arguments: unknown;
}

/** Options of {@link ACPPlanBridge.callTool}. @public */
export interface ACPToolCallOptions {
  /** The prompt turn's signal (`AgentRequestContext.signal`): once aborted, the call does not run. */
  readonly signal?: AbortSignal | undefined;
  /** When, in epoch milliseconds; the session's clock by default. */
  readonly now?: number | undefined;
}

/**
 * Shows the plans of a session pool to ACP clients: plan updates as the plans change, the whole
 * plan on `session/load`, planning tool calls as `tool_call` / `tool_call_update`. One bridge
 * serves every session of every connection. See {@link createACPPlanBridge}.
 *
 * A session is open once the agent followed it (`session/new`, `session/load`) or `sendPlan`
 * found it saved; a request naming any other id is refused (`session_not_found`) and changes
 * nothing, rather than working on an empty session.
 *
 * @public
 */
export interface ACPPlanBridge {
  /**
   * Sends `client` a `plan` session update for ACP session `sessionId` after every commit or
   * rollback that changes its plan (`toACPPlanUpdate`), whichever live copy of the session makes
   * it, in the order the changes happened. Following a session again moves it to the new
   * `client`.
   *
   * Following opens the session: {@link ACPPlanBridge.checkSession} accepts it from then on.
   *
   * @returns a function that stops following (idempotent); or `conversation_id_invalid` when
   *   `sessionId` cannot name a pooled conversation
   */
  follow(client: ACPClientLike, sessionId: string): Result<Unsubscribe, SessionResolveError>;
  /**
   * Sends `client` the whole plan of `sessionId` as one `plan` update, loading the session if
   * it is not live: what `session/load` replays. Sends nothing when the session has no plan.
   * A session that is not open yet opens when it is live or the store holds something under
   * its id (a resume, in this process or another); otherwise it is refused, and the empty copy
   * the load made is evicted, so the refusal leaves the pool as it was.
   *
   * @returns whether an update was sent; or `session_not_found` (the session is not open and
   *   the store holds nothing under its id), or the pool's failures
   *   (`conversation_id_invalid`, `session_load_failed`, `pool_full`, `pool_closed`)
   */
  sendPlan(
    client: ACPClientLike,
    sessionId: string,
  ): Promise<Result<boolean, SessionResolveError | ACPSessionError>>;
  /**
   * Checks that `sessionId` names an open session, before a session request (`session/prompt`)
   * works on it: {@link toACPError} turns the refusal into the JSON-RPC error ACP specifies.
   *
   * @returns `sessionId`; or `session_not_found` when neither `follow` nor `sendPlan` opened it
   */
  checkSession(sessionId: string): Result<string, ACPSessionError>;
  /**
   * Runs one tool call on the session of `sessionId`, shown to `client` as it goes: a
   * `tool_call` (`in_progress`, with the tool's title and {@link acpToolKind}), then the plan
   * update its change makes (when followed), then a `tool_call_update` (`completed` or
   * `failed`, with the text the model reads). Never throws for a bad call: an unknown tool,
   * bad arguments, a session that is not open (`session_not_found`: nothing is sent or
   * loaded) and an unresolvable session are failed results the model can read.
   *
   * @returns the result to hand back to the model; `undefined` when `signal` was aborted
   *   before the call ran (nothing is sent or changed)
   */
  callTool(
    client: ACPClientLike,
    sessionId: string,
    call: ACPToolCallRequest,
    options?: ACPToolCallOptions,
  ): Promise<ToolResult<unknown> | undefined>;
  /** Stops following every session. */
  close(): void;
}

interface Follower {
  readonly client: ACPClientLike;
  /** The plan last seen: a commit of another slice keeps the same object, and sends nothing. */
  plan: Plan | undefined;
  /** The entries last sent, as JSON, so a commit that leaves the plan as it was sends nothing. */
  last: string | undefined;
  stop: Unsubscribe;
}

/**
 * Creates the bridge between a session pool's plans and ACP clients. An ACP agent creates one,
 * follows each session it creates, replays the plan on `session/load` (refused for an id the
 * store holds nothing under) and follows it, checks the session of every other session request
 * ({@link ACPPlanBridge.checkSession}), and runs the model's planning calls through
 * {@link ACPPlanBridge.callTool}. {@link toACPError} answers a refusal as ACP says: `-32002`
 * (Resource not found) for a session the agent does not have.
 *
 * @example
 * ```ts
 * const pool = createSessionPool({ store: new FileStore() });
 * const bridge = createACPPlanBridge({ pool, tools: createPlanningTools(new Session()) });
 * const refuse = (error: Parameters<typeof toACPError>[0]): RequestError => {
 *   const { code, message, data } = toACPError(error);
 *   return new RequestError(code, message, data);
 * };
 * const app = agent()
 *   .onRequest('session/new', ({ client }) => {
 *     const sessionId = randomUUID();
 *     bridge.follow(client, sessionId);
 *     return { sessionId };
 *   })
 *   .onRequest('session/load', async ({ client, params }) => {
 *     const sent = await bridge.sendPlan(client, params.sessionId);
 *     if (!sent.ok) throw refuse(sent.error);
 *     bridge.follow(client, params.sessionId);
 *     return {};
 *   })
 *   .onRequest('session/prompt', async ({ params }) => {
 *     const open = bridge.checkSession(params.sessionId);
 *     if (!open.ok) throw refuse(open.error);
 *     // ... run the model, its planning calls through bridge.callTool
 *     return { stopReason: 'end_turn' };
 *   });
 * ```
 * @throws PlankitError `argument_invalid` when `pool` is not a session pool, `tools` is not an
 *   array, `onError` is not a function, or for an option it does not take
 * @public
 */
export function createACPPlanBridge(options: ACPPlanBridgeOptions): ACPPlanBridge {
  const where = 'createACPPlanBridge';
  if (!isRecord(options)) throw invalidArgument(where, 'options', 'must be an object');
  checkOptionKeys(where, options, OPTION_KEYS);
  const { pool, tools, onError = () => {} } = options;
  if (!isRecord(pool) || typeof pool.subscribe !== 'function' || typeof pool.run !== 'function')
    throw invalidArgument(where, 'options.pool', 'must be a session pool (createSessionPool)');
  if (!Array.isArray(tools)) throw invalidArgument(where, 'options.tools', 'must be an array');
  if (typeof onError !== 'function')
    throw invalidArgument(where, 'options.onError', 'must be a function');
  const byName = new Map<string, AnyTool>(tools.map((tool) => [tool.name, tool]));
  const followers = new Map<string, Follower>();
  // The sessions this agent created or loaded: a request naming any other id is refused.
  const open = new Set<string>();
  // The last send of each session, so its notifications leave in the order they were made.
  const tails = new Map<string, Promise<void>>();

  const send = (client: ACPClientLike, sessionId: string, update: SessionUpdate): Promise<void> => {
    const previous = tails.get(sessionId) ?? Promise.resolve();
    const sent = previous
      .then(() => client.notify('session/update', { sessionId, update }))
      .catch(onError);
    tails.set(sessionId, sent);
    void sent.then(() => {
      if (tails.get(sessionId) === sent) tails.delete(sessionId);
    });
    return sent;
  };

  const sendIfChanged = (
    follower: Follower,
    sessionId: string,
    plan: Plan | undefined,
  ): boolean => {
    if (plan === undefined || plan === follower.plan) return false;
    follower.plan = plan;
    const update = toACPPlanUpdate(plan);
    const json = JSON.stringify(update.entries);
    if (json === follower.last) return false;
    follower.last = json;
    void send(follower.client, sessionId, update);
    return true;
  };

  const unfollow = (sessionId: string, follower: Follower): void => {
    if (followers.get(sessionId) !== follower) return;
    followers.delete(sessionId);
    follower.stop();
  };

  return Object.freeze({
    follow(client: ACPClientLike, sessionId: string): Result<Unsubscribe, SessionResolveError> {
      const previous = followers.get(sessionId);
      if (previous !== undefined) unfollow(sessionId, previous);
      const follower: Follower = { client, plan: undefined, last: undefined, stop: () => {} };
      const subscribed = pool.subscribe(sessionId, (_event, session) => {
        sendIfChanged(follower, sessionId, selectLatest(session, Plan));
      });
      if (!subscribed.ok) return subscribed;
      follower.stop = subscribed.value;
      followers.set(sessionId, follower);
      open.add(sessionId);
      return { ok: true, value: () => unfollow(sessionId, follower) };
    },

    async sendPlan(
      client: ACPClientLike,
      sessionId: string,
    ): Promise<Result<boolean, SessionResolveError | ACPSessionError>> {
      const wasLive = pool.has(sessionId);
      const got = await pool.get(sessionId);
      if (!got.ok) return got;
      if (!open.has(sessionId)) {
        // Revision 0: the store held nothing under this id, so the load made an empty copy.
        if (!wasLive && got.value.snapshot().revision === 0) {
          await pool.evict(sessionId);
          return { ok: false, error: sessionNotFound(sessionId) };
        }
        open.add(sessionId);
      }
      const plan = selectLatest(got.value, Plan);
      if (plan === undefined) return { ok: true, value: false };
      const follower = followers.get(sessionId);
      const update = toACPPlanUpdate(plan);
      // A load replays the whole plan even when this follower sent the same one before.
      if (follower !== undefined && follower.client === client)
        follower.last = JSON.stringify(update.entries);
      await send(client, sessionId, update);
      return { ok: true, value: true };
    },

    checkSession(sessionId: string): Result<string, ACPSessionError> {
      return open.has(sessionId)
        ? { ok: true, value: sessionId }
        : { ok: false, error: sessionNotFound(sessionId) };
    },

    async callTool(
      client: ACPClientLike,
      sessionId: string,
      call: ACPToolCallRequest,
      callOptions: ACPToolCallOptions = {},
    ): Promise<ToolResult<unknown> | undefined> {
      const { signal, now } = callOptions;
      if (signal?.aborted === true) return undefined;
      if (!open.has(sessionId)) {
        const error = sessionNotFound(sessionId);
        return toolFailure({
          success: false,
          message: refusalMessage(error.message),
          value: null,
          error,
        });
      }
      const tool = byName.get(call.name);
      const toolCallId = call.toolCallId;
      void send(client, sessionId, {
        sessionUpdate: 'tool_call',
        toolCallId,
        title: tool?.traits?.title ?? call.name,
        kind: acpToolKind(tool),
        status: 'in_progress',
        rawInput: call.arguments,
      });
      const request = { name: call.name, arguments: call.arguments };
      const ran = await pool.run(sessionId, (session) =>
        callTool(tools, request, now === undefined ? { session } : { session, now }),
      );
      const result = ran.ok ? ran.value.result : refusal(ran.error);
      await send(client, sessionId, {
        sessionUpdate: 'tool_call_update',
        toolCallId,
        status: result.success ? 'completed' : 'failed',
        content: [
          { type: 'content', content: { type: 'text', text: formatToolContent(result, tool) } },
        ],
      });
      return result;
    },

    close(): void {
      for (const [sessionId, follower] of [...followers]) unfollow(sessionId, follower);
    },
  });
}
