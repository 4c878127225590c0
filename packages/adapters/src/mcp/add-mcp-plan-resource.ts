import { Plan, Session, selectLatest, type Unsubscribe } from '@plankit/core';
import { checkOptionKeys, clipText } from '@plankit/core/internal-unstable';
import { planView } from '@plankit/core/plan-view';
import { AdapterError } from '../adapter-error.ts';
import { type Conversation, sessionConversation } from '../host/conversation.ts';
import { createPlanTracker } from '../host/plan-tracker.ts';
import type { SessionSource } from '../sessions/resolve-session.ts';
import type { SessionResolveError } from '../sessions/session-resolve-error.ts';
import { type McpContext, mcpConversation } from './mcp-context.ts';
import type { McpServerLike, SetSubscriptionHandlers } from './mcp-server-like.ts';

/** Options of `registerMcpPlanResource` (`/mcp` and `/mcp-v2`). @public */
export interface McpPlanResourceOptions {
  /**
   * The session whose plan the resource shows: a `Session`, or a resolver called per request
   * (`resources/read`, `resources/subscribe`) with its {@link McpContext}, the same source as
   * `registerMcpTools`'s. A request whose session cannot be resolved is refused with a
   * JSON-RPC error (`-32602`) naming the reason.
   */
  readonly session: SessionSource<McpContext>;
  /** The resource's URI; `plankit://plan` by default. */
  readonly uri?: string | undefined;
  /** The resource's name in `resources/list`; `plan` by default. */
  readonly name?: string | undefined;
  /**
   * The URI of the plan view resource (the plan as `planView` shows it: steps with what each
   * waits on, owners, counts, the newest revision); `plankit://plan/view` by default. Its name
   * is the plan resource's name and `-view`.
   */
  readonly viewUri?: string | undefined;
}

/**
 * What `registerMcpPlanResource` returns.
 *
 * @typeParam R - the SDK's `RegisteredResource`
 * @public
 */
export interface McpPlanResource<R> {
  /** The resource's URI. */
  readonly uri: string;
  /** The resource as the SDK registered it (to disable or remove it). */
  readonly resource: R;
  /** The plan view resource's URI. */
  readonly viewUri: string;
  /** The plan view resource as the SDK registered it. */
  readonly viewResource: R;
  /** Stops following the session (also done when the server closes); idempotent. */
  close(): void;
}

/** The default URI of the plan resource. @public */
export const PLAN_RESOURCE_URI = 'plankit://plan';

/** The default URI of the plan view resource. @public */
export const PLAN_VIEW_RESOURCE_URI = 'plankit://plan/view';

const OPTION_KEYS = new Set(['session', 'uri', 'name', 'viewUri']);
// JSON-RPC "invalid params", which both SDKs pass through from a thrown error's `code`.
const INVALID_PARAMS = -32602;

/**
 * The plan resource of each server, told which conversation a request named, so the
 * notifications follow the plan of the connection's latest request. Tools registered on the
 * same server call it before running.
 */
const followers = new WeakMap<object, (conversation: Conversation) => void>();

/** Tells the server's plan resource (if any) that a request on it named `conversation`. */
export function followPlan(server: object, conversation: Conversation): void {
  followers.get(server)?.(conversation);
}

function refusal(error: SessionResolveError): Error {
  return Object.assign(new Error(`${error.code}: ${error.message}`), { code: INVALID_PARAMS });
}

function invalid(message: string, field: string): AdapterError {
  return new AdapterError('tools_invalid', `registerMcpPlanResource: ${message}`, { field });
}

function checkArguments(server: unknown, options: unknown): void {
  const candidate = server as McpServerLike | null;
  if (
    typeof candidate?.registerResource !== 'function' ||
    typeof candidate.server?.registerCapabilities !== 'function'
  )
    throw invalid('server must be an McpServer.', 'server');
  if (typeof options !== 'object' || options === null)
    throw invalid('options must be an object with a session.', 'options');
  // The unknown key is named bare as the error's field, as every other field here is.
  checkOptionKeys('', options, OPTION_KEYS, 'options.', (_where, field, rule) =>
    invalid(`${field} ${rule}.`, field.slice('options.'.length)),
  );
  const { session, uri, name, viewUri } = options as McpPlanResourceOptions;
  if (!(session instanceof Session) && typeof session !== 'function')
    throw invalid('options.session must be a Session or a resolver function.', 'session');
  if (uri !== undefined && (typeof uri !== 'string' || !URL.canParse(uri)))
    throw invalid('options.uri must be an absolute URI.', 'uri');
  if (viewUri !== undefined && (typeof viewUri !== 'string' || !URL.canParse(viewUri)))
    throw invalid('options.viewUri must be an absolute URI.', 'viewUri');
  if ((viewUri ?? PLAN_VIEW_RESOURCE_URI) === (uri ?? PLAN_RESOURCE_URI))
    throw invalid('options.viewUri must differ from options.uri.', 'viewUri');
  if (name !== undefined && (typeof name !== 'string' || name.trim() === ''))
    throw invalid('options.name must be a non-empty string.', 'name');
  // Capabilities are announced in the handshake, so `subscribe` must be set before it.
  if (candidate.isConnected())
    throw invalid('call it before server.connect(): subscriptions are a capability.', 'server');
}

/**
 * Registers the session's plan as a resource (JSON, `null` before a plan is set up), and its
 * view (`planView`'s JSON) as a second one, with `resources/subscribe`: a client subscribed to
 * either gets `notifications/resources/updated` for it whenever it changes (a commit or
 * rollback that leaves a different plan, or for the view a new history revision), before the
 * response of the `tools/call` that changed it. With a resolver, each read shows the plan of the
 * request's conversation, and notifications follow the conversation of the connection's latest
 * request (a tool call, a read or the subscribe), across a pool's evictions and reloads.
 */
export function addMcpPlanResource(
  server: McpServerLike,
  options: McpPlanResourceOptions,
  setSubscriptionHandlers: SetSubscriptionHandlers,
): McpPlanResource<unknown> {
  checkArguments(server, options);
  const source = options.session;
  const uri = options.uri ?? PLAN_RESOURCE_URI;
  const viewUri = options.viewUri ?? PLAN_VIEW_RESOURCE_URI;
  const low = server.server;
  // Claim the methods first, so a host's own subscription handlers are never overwritten.
  low.assertCanSetRequestHandler('resources/subscribe');
  low.assertCanSetRequestHandler('resources/unsubscribe');
  low.registerCapabilities({ resources: { subscribe: true } });

  // The conversation this connection's notifications follow: the fixed one, or the one its
  // latest request named. A pooled conversation is followed across evictions and reloads.
  let followed: Conversation | undefined;
  // Whether a commit changed the plan, across the conversation's live copies.
  const tracker = createPlanTracker();
  let stop: Unsubscribe | undefined;
  const subscribed = new Set<string>();
  // Unsubscribes per URI: a subscribe still resolving when one arrives must not add the URI
  // back (the SDKs answer requests concurrently, so its answer may come after the unsubscribe).
  const unsubscribes = new Map<string, number>();
  let closed = false;
  const notify = (changed: string): void => {
    if (!subscribed.has(changed) || !server.isConnected()) return;
    // A notification to a client that has just gone away has no one to tell; the call that
    // changed the plan must not fail for it.
    low.sendResourceUpdated({ uri: changed }).catch(() => undefined);
  };
  const onChange = (session: Session): void => {
    const changed = tracker.change(session);
    if (!changed.plan && !changed.revision && !changed.fields) return;
    if (changed.plan) notify(uri);
    notify(viewUri);
  };
  const follow = (conversation: Conversation): void => {
    if (closed || conversation.key === followed?.key) return;
    stop?.();
    followed = conversation;
    tracker.seen(conversation.peek());
    stop = conversation.subscribe((_event, session) => onChange(session));
  };
  const resolve = async (extra: unknown): Promise<Conversation> => {
    const found = await mcpConversation(source, extra);
    if (!found.ok) throw refusal(found.error);
    follow(found.value);
    return found.value;
  };
  const read = async <T>(conversation: Conversation, fn: (session: Session) => T): Promise<T> => {
    const held = await conversation.hold(async (session) => fn(session));
    if (!held.ok) throw refusal(held.error);
    return held.value;
  };
  if (source instanceof Session) follow(sessionConversation(source));
  followers.set(server, follow);

  const resource = server.registerResource(
    options.name ?? 'plan',
    uri,
    {
      title: 'Plan',
      description: 'The session plan as JSON: objective, status and steps; null before setup.',
      mimeType: 'application/json',
    },
    async (_uri, extra) => {
      const plan = await read(await resolve(extra), (session) => selectLatest(session, Plan));
      return {
        contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(plan ?? null) }],
      };
    },
  );

  const viewResource = server.registerResource(
    `${options.name ?? 'plan'}-view`,
    viewUri,
    {
      title: 'Plan view',
      description:
        'The session plan for display, as JSON (kind plankit.plan): steps with status, what each waits on, owner and last note; counts; the last revision. null before setup.',
      mimeType: 'application/json',
    },
    async (_uri, extra) => {
      const view = await read(await resolve(extra), planView);
      return {
        contents: [{ uri: viewUri, mimeType: 'application/json', text: JSON.stringify(view) }],
      };
    },
  );

  setSubscriptionHandlers(
    low,
    async (requested, extra) => {
      if (requested !== uri && requested !== viewUri)
        throw Object.assign(new Error(`Unknown resource ${clipText(requested, 203)}`), {
          code: INVALID_PARAMS,
        });
      const before = unsubscribes.get(requested);
      await resolve(extra);
      if (unsubscribes.get(requested) === before) subscribed.add(requested);
    },
    (requested) => {
      if (requested !== uri && requested !== viewUri) return;
      unsubscribes.set(requested, (unsubscribes.get(requested) ?? 0) + 1);
      subscribed.delete(requested);
    },
  );

  const close = (): void => {
    if (closed) return;
    closed = true;
    stop?.();
    stop = undefined;
    if (followers.get(server) === follow) followers.delete(server);
  };
  const previousOnClose = low.onclose;
  low.onclose = () => {
    close();
    previousOnClose?.();
  };
  return Object.freeze({ uri, resource, viewUri, viewResource, close });
}
