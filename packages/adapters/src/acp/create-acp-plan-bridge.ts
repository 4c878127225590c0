import type { SessionNotification, SessionUpdate } from '@agentclientprotocol/sdk';
import {
  type AnyTool,
  Plan,
  type Result,
  selectLatest,
  type ToolResult,
  type Unsubscribe,
} from '@plankit/core';
import { checkOptionKeys, invalidArgument, isRecord } from '@plankit/core/internal-unstable';
import { callTool } from '../host/call-tool.ts';
import { formatToolContent } from '../host/format-tool-content.ts';
import { refusal } from '../host/refusal.ts';
import type { SessionPool } from '../sessions/create-session-pool.ts';
import type { SessionResolveError } from '../sessions/session-resolve-error.ts';
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
 * @public
 */
export interface ACPPlanBridge {
  /**
   * Sends `client` a `plan` session update for ACP session `sessionId` after every commit or
   * rollback that changes its plan (`toACPPlanUpdate`), whichever live copy of the session makes
   * it, in the order the changes happened. Following a session again moves it to the new
   * `client`.
   *
   * @returns a function that stops following (idempotent); or `conversation_id_invalid` when
   *   `sessionId` cannot name a pooled conversation
   */
  follow(client: ACPClientLike, sessionId: string): Result<Unsubscribe, SessionResolveError>;
  /**
   * Sends `client` the whole plan of `sessionId` as one `plan` update, loading the session if
   * it is not live: what `session/load` replays. Sends nothing when the session has no plan.
   *
   * @returns whether an update was sent; or the pool's failures (`conversation_id_invalid`,
   *   `session_load_failed`, `pool_full`, `pool_closed`)
   */
  sendPlan(client: ACPClientLike, sessionId: string): Promise<Result<boolean, SessionResolveError>>;
  /**
   * Runs one tool call on the session of `sessionId`, shown to `client` as it goes: a
   * `tool_call` (`in_progress`, with the tool's title and {@link acpToolKind}), then the plan
   * update its change makes (when followed), then a `tool_call_update` (`completed` or
   * `failed`, with the text the model reads). Never throws for a bad call: an unknown tool,
   * bad arguments and an unresolvable session are failed results the model can read.
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
 * follows each session it creates or loads, replays the plan on `session/load`, and runs the
 * model's planning calls through {@link ACPPlanBridge.callTool}.
 *
 * @example
 * ```ts
 * const pool = createSessionPool({ store: new FileStore() });
 * const bridge = createACPPlanBridge({ pool, tools: createPlanningTools(new Session()) });
 * const app = agent()
 *   .onRequest('session/new', ({ client }) => {
 *     const sessionId = randomUUID();
 *     bridge.follow(client, sessionId);
 *     return { sessionId };
 *   })
 *   .onRequest('session/load', async ({ client, params }) => {
 *     bridge.follow(client, params.sessionId);
 *     await bridge.sendPlan(client, params.sessionId);
 *     return {};
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
      return { ok: true, value: () => unfollow(sessionId, follower) };
    },

    async sendPlan(
      client: ACPClientLike,
      sessionId: string,
    ): Promise<Result<boolean, SessionResolveError>> {
      const got = await pool.get(sessionId);
      if (!got.ok) return got;
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

    async callTool(
      client: ACPClientLike,
      sessionId: string,
      call: ACPToolCallRequest,
      callOptions: ACPToolCallOptions = {},
    ): Promise<ToolResult<unknown> | undefined> {
      const { signal, now } = callOptions;
      if (signal?.aborted === true) return undefined;
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
