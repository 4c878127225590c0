import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import { type DynamicStructuredTool, tool as langChainTool } from '@langchain/core/tools';
import { Command, ReducedValue, StateSchema } from '@langchain/langgraph';
import {
  type AnyTool,
  createPlanningTools,
  dataTypeName,
  type InProgressMode,
  Plan,
  type PlanningExtension,
  type Session,
  type TextMode,
} from '@plankit/core';
import {
  type AnyExtensionDeclares,
  checkExtensions,
  checkMovedFlags,
  checkOptionKeys,
  checkTextMode,
  invalidArgument,
} from '@plankit/core/internal-unstable';
import { PlanRevision, planHistory } from '@plankit/core/plan-model';
import { type AgentMiddleware, createMiddleware } from 'langchain';
import * as z from 'zod';
import { callTool } from '../host/call-tool.ts';
import { formatToolContent } from '../host/format-tool-content.ts';
import { checkHostOptions } from '../host/host-tool-options.ts';
import { announceToolCalls } from '../host/model-order.ts';
import { checkUniqueNames } from '../host/prepare-host-tools.ts';
import { callFailure } from '../host/refusal.ts';
import { acceptingSchema, type ToolConfig } from '../langchain/accepting-schema.ts';
import { findLangChainTurn, stateOf } from '../langchain/find-langchain-turn.ts';
import { langChainContext } from '../langchain/langchain-context.ts';
import {
  editOf,
  type PlanChannelOptions,
  type PlanEdit,
  planSession,
  reducePlan,
} from './plan-edit.ts';
import {
  appendRefusal,
  type PlanHistoryUpdate,
  planHistoryChannel,
} from './plan-history-channel.ts';

/** A prompt section as {@link planningMiddleware} needs it: `PlanningToolsSection` fits as is. @public */
export interface PlanningMiddlewareSection {
  /** Renders the section's markdown (called once, when the middleware is built). */
  render(): string;
}

/** Options of {@link planningMiddleware}. @public */
export interface PlanningMiddlewareOptions<
  E extends readonly PlanningExtension[] = readonly PlanningExtension[],
> {
  /**
   * The strategy section appended to the system prompt on every model call: a string, or a
   * section such as `new PlanningToolsSection({ session })` from `@plankit/prompt`, rendered once so the
   * cached prefix stays byte-identical. None by default.
   */
  readonly section?: string | PlanningMiddlewareSection | undefined;
  /**
   * Renders the plan reminder added as the LAST message of every model request (after the
   * cached prefix), such as `renderPlanReminder` from `@plankit/prompt`; returning `undefined`
   * adds nothing. It gets `undefined` when the channel holds no plan, or holds what the `Plan`
   * schema refuses (a damaged checkpoint). None by default.
   */
  readonly reminder?: ((plan: Plan | undefined) => string | undefined) | undefined;
  /** `'single'` refuses a second `in_progress` step; `'any'` (the default) allows it. */
  readonly inProgress?: InProgressMode | undefined;
  /**
   * Which text the planning tools take, passed to `createPlanningTools`: `'ascii'` (the
   * default, the reference's printable ASCII) or `'unicode'` (any language, stored in NFC;
   * control, bidirectional and invisible characters refused). The `plan` channel holds edits
   * and whole plans to the same mode. Give the `section` the same mode
   * (`new PlanningToolsSection({ session, text: 'unicode' })`) so the prompt's copy agrees.
   */
  readonly text?: TextMode | undefined;
  /**
   * Parts of the plan model, such as those of `@plankit/core/plan-model`, or your own, passed
   * to `createPlanningTools`; the `plan` channel takes the commands they declare. When they
   * record the plan history (`history()` does), mutations take an `explanation`, and the
   * state gets a second channel, `planHistory` ({@link planHistoryChannel}): each change a
   * planning call makes, as core's `PlanRevision` (actor, explanation, diff), in model order,
   * the newest `MAX_PLAN_REVISIONS`. Checkpointers persist it with the plan. None by default.
   */
  readonly extensions?: E | undefined;
  /** The time source of the revisions sent to `planHistory` (`at`); `Date.now` by default. */
  readonly clock?: (() => number) | undefined;
  /**
   * How long a call waits for an earlier planning call of its `AIMessage` that has not started
   * (a middleware answered it, a hook holds it), in milliseconds; 30,000 by default.
   */
  readonly orderTimeoutMs?: number | undefined;
  /**
   * Keeps the agent working toward a goal: called after every model call with the plan the
   * model saw, it returns the goal's decision (`decideGoal` of `@plankit/controller/goal`, kept
   * wherever the host keeps its goal). While it says `continue`, a reply with no tool calls
   * does not end the run: the decision's `line` goes back to the model as a user message. Once
   * it says `stop` or `ask`, the run ends after this model call, its tool calls unrun. None by
   * default: the run ends when the model stops calling tools.
   */
  readonly goal?: ((plan: Plan | undefined) => GoalGate | Promise<GoalGate>) | undefined;
}

/**
 * What {@link PlanningMiddlewareOptions.goal} returns: the goal's decision, as `decideGoal` of
 * `@plankit/controller/goal` gives it.
 *
 * @public
 */
export type GoalGate =
  | { readonly action: 'continue'; readonly line: string }
  | { readonly action: 'stop' | 'ask' };

/** The state {@link planningMiddleware} adds to an agent: the `plan` channel. @public */
export type PlanningStateSchema = StateSchema<{
  plan: ReducedValue<Plan | null, PlanUpdate>;
}>;

/**
 * The state {@link planningMiddleware} adds when its extensions record the plan history
 * (`history()`): the `plan` and `planHistory` channels.
 *
 * @public
 */
export type PlanningHistoryStateSchema = StateSchema<{
  plan: ReducedValue<Plan | null, PlanUpdate>;
  planHistory: ReducedValue<readonly PlanRevision[], PlanHistoryUpdate>;
}>;

/** What the `plan` channel accepts: a {@link PlanEdit}, or a whole plan (or `null`) that replaces it. @public */
export type PlanUpdate = PlanEdit | Plan | null;

/** What {@link planningMiddleware} returns: a `createAgent` middleware. @public */
export type PlanningMiddleware = AgentMiddleware<
  PlanningStateSchema,
  undefined,
  unknown,
  readonly DynamicStructuredTool[]
>;

/** What {@link planningMiddleware} returns when its extensions record the plan history. @public */
export type PlanningHistoryMiddleware = AgentMiddleware<
  PlanningHistoryStateSchema,
  undefined,
  unknown,
  readonly DynamicStructuredTool[]
>;

const OPTION_KEYS: ReadonlySet<string> = new Set([
  'section',
  'reminder',
  'inProgress',
  'text',
  'extensions',
  'orderTimeoutMs',
  'clock',
  'goal',
]);

const CHANNEL_KEYS: ReadonlySet<string> = new Set(['inProgress', 'text', 'extensions']);

const PLAN_REVISION = dataTypeName(PlanRevision);

/** Whether `extensions` record the plan history: a session they set up has its slice. */
function recordsPlanHistory(extensions: readonly PlanningExtension[]): boolean {
  const session = planSession(null, extensions);
  try {
    return session.sliceTypes().has(PLAN_REVISION);
  } finally {
    session.dispose();
  }
}

// The reducer checks every update, and refuses with a typed error; this passes everything on.
const PlanUpdateSchema = z.custom<PlanUpdate>(() => true).optional();

/**
 * The `plan` channel: a plan (or `null`), changed by {@link PlanEdit}s applied by plankit's
 * planning reducers, or replaced by a whole plan the `Plan` schema accepts ({@link reducePlan}).
 * Edits and plans are held to the tools' rules, including `inProgress` (`'single'`: never two
 * steps `in_progress`) and `text` (`'ascii'` by default: plan text must be ASCII; `'unicode'`:
 * any language), as `planningMiddleware` passes its own options, and `command` edits to the
 * commands `extensions` declare, and no others (`planningMiddleware` passes its own).
 * In both text modes, text no tool could have stored (control, bidirectional or invisible
 * characters, text not in NFC) is refused.
 * A refused update throws {@link PlanEditError}, so LangGraph refuses it and nothing changes.
 *
 * @example
 * ```ts
 * const State = new StateSchema({ messages: MessagesValue, plan: planChannel() });
 * ```
 * @param options - the tools' `inProgress` (`'any'` by default) and `text` (`'ascii'` by
 *   default) options the channel holds plans to, and the extensions whose commands it takes
 * @throws PlankitError `argument_invalid` for an option it does not take, or when
 *   `options.text` is not `'ascii'` or `'unicode'`
 * @public
 */
export function planChannel(
  options: PlanChannelOptions = {},
): ReducedValue<Plan | null, PlanUpdate> {
  checkOptionKeys('planChannel', options, CHANNEL_KEYS);
  const rules: PlanChannelOptions = {
    ...(options.inProgress === undefined ? {} : { inProgress: options.inProgress }),
    text: checkTextMode(options.text ?? 'ascii', 'planChannel', 'options.text'),
    ...(options.extensions === undefined ? {} : { extensions: options.extensions }),
  };
  return new ReducedValue(Plan.nullable().default(null), {
    // Optional at run time, so an `invoke` input without `plan` passes langchain's check.
    inputSchema: PlanUpdateSchema as unknown as z.ZodType<PlanUpdate>,
    reducer: (plan: Plan | null, update: PlanUpdate) => reducePlan(plan, update, rules),
  });
}

// One transient session per model turn (thread, AIMessage, plan at the step's start; not the
// checkpoint namespace, which names each Send task apart): the turn's planning calls run on it in model order, each seeing the calls before it.
const MAX_TURNS = 64;
const turns = new Map<string, Session>();
// The number of calls running on each turn session, from `turnSession` to `leaveTurn`.
const inUse = new WeakMap<Session, number>();
const objectKeys = new WeakMap<object, number>();
let nextObjectKey = 0;

function turnSession(
  config: unknown,
  turn: object | string,
  plan: Plan | null,
  extensions: readonly PlanningExtension[],
): Session {
  const context = langChainContext(config);
  let turnKey: string;
  if (typeof turn === 'string') turnKey = turn;
  else {
    let number = objectKeys.get(turn);
    if (number === undefined) {
      number = nextObjectKey++;
      objectKeys.set(turn, number);
    }
    turnKey = `object:${number}`;
  }
  // The plan at the step's start belongs in the key: a fork re-running the same AIMessage from
  // another plan must not reuse this turn's outcomes.
  const key = JSON.stringify([context.threadId ?? '', turnKey, plan, extensionsKey(extensions)]);
  let session = turns.get(key);
  if (session === undefined) {
    session = planSession(plan, extensions);
    turns.set(key, session);
  }
  inUse.set(session, (inUse.get(session) ?? 0) + 1);
  // The oldest turns no call is running on go first; a turn in use is never disposed, so a
  // burst of more concurrent turns than MAX_TURNS grows the map until their calls end.
  for (const [oldKey, oldSession] of turns) {
    if (turns.size <= MAX_TURNS) break;
    if ((inUse.get(oldSession) ?? 0) > 0) continue;
    oldSession.dispose();
    turns.delete(oldKey);
  }
  return session;
}

/** Ends one call's use of a session `turnSession` gave it. */
function leaveTurn(session: Session): void {
  inUse.set(session, (inUse.get(session) ?? 1) - 1);
}

function planOf(config: unknown): Plan | null {
  const state = stateOf(config);
  if (typeof state !== 'object' || state === null) return null;
  const plan = (state as { plan?: unknown }).plan;
  return plan === undefined || plan === null ? null : (plan as Plan);
}

// Each list of extensions gets a number, so turn keys tell apart middlewares built with
// different extensions (two agents in one process) without serialising the extensions.
const extensionKeys = new WeakMap<readonly PlanningExtension[], number>();
let nextExtensionKey = 0;
function extensionsKey(extensions: readonly PlanningExtension[]): number {
  let key = extensionKeys.get(extensions);
  if (key === undefined) {
    key = nextExtensionKey++;
    extensionKeys.set(extensions, key);
  }
  return key;
}

function historyOf(config: unknown): unknown {
  const state = stateOf(config);
  return typeof state === 'object' && state !== null
    ? (state as { planHistory?: unknown }).planHistory
    : undefined;
}

// The reducer writes only plans, but a damaged or foreign checkpoint may hold anything: the
// reminder gets a plan or nothing. Checked once per value: the channel's plan stays the same
// object until an update replaces it, so a long plan is not parsed again on every model call.
const checkedPlans = new WeakMap<object, boolean>();

function checkedPlan(value: unknown): Plan | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  let valid = checkedPlans.get(value);
  if (valid === undefined) {
    valid = Plan.safeParse(value).success;
    checkedPlans.set(value, valid);
  }
  return valid ? (value as Plan) : undefined;
}

// Per turn session and call id: the number of the session's newest revision when the call
// started (it runs alone then), so its own revision is the next one, and the revision as sent.
const started = new WeakMap<Session, Map<string, number>>();
const sent = new WeakMap<Session, Map<string, PlanRevision>>();

function mapOf<V>(maps: WeakMap<Session, Map<string, V>>, session: Session): Map<string, V> {
  let map = maps.get(session);
  if (map === undefined) {
    map = new Map();
    maps.set(session, map);
  }
  return map;
}

/** The revision call `id` recorded on `session`, stamped once with the time it is first sent. */
function revisionOf(session: Session, id: string, clock: () => number): PlanRevision | undefined {
  const known = mapOf(sent, session).get(id);
  if (known !== undefined) return known;
  const before = started.get(session)?.get(id);
  if (before === undefined) return undefined;
  const recorded = planHistory(session).find((revision) => revision.revision === before + 1);
  if (recorded === undefined) return undefined;
  const { plan: _plan, ...rest } = recorded;
  const revision: PlanRevision = { ...rest, at: clock() };
  mapOf(sent, session).set(id, revision);
  return revision;
}

function planningTools(
  options: PlanningMiddlewareOptions,
  text: TextMode,
  extensions: readonly PlanningExtension[],
  recording: boolean,
  clock: () => number,
): DynamicStructuredTool[] {
  const { inProgress } = options;
  const definitions: readonly AnyTool[] = createPlanningTools(planSession(null, extensions), {
    ...(inProgress === undefined ? {} : { inProgress }),
    text,
    extensions,
  });
  const names = new Set(definitions.map((definition) => definition.name));
  return definitions.map(
    (definition) =>
      langChainTool(
        async (input: unknown, config?: ToolConfig) => {
          const id = config?.toolCall?.id;
          const found = id === undefined ? undefined : findLangChainTurn(config, id, names);
          const start = planOf(config);
          let session: Session;
          try {
            // Checked before the call runs on the turn session, which later calls would see.
            const unwritable = recording ? appendRefusal(historyOf(config)) : undefined;
            if (unwritable !== undefined) throw unwritable;
            session =
              found === undefined
                ? planSession(start, extensions)
                : turnSession(config, found.turn, start, extensions);
          } catch (error) {
            // A channel holds what its schema refuses (a damaged or foreign checkpoint): the
            // call broke, not the model's arguments, and it writes nothing.
            const content = callFailure(definition.name, error).message;
            if (id === undefined) return content;
            const failed = new ToolMessage({
              content,
              tool_call_id: id,
              name: definition.name,
              status: 'error',
            });
            return new Command({ update: { messages: [failed] } });
          }
          try {
            if (found !== undefined) announceToolCalls(session, found.turn, found.ids);
            const { tool, result } = await callTool(
              definitions,
              { name: definition.name, arguments: input, parsed: true, id },
              {
                session,
                order:
                  found === undefined || id === undefined ? undefined : { turn: found.turn, id },
                orderTimeoutMs: options.orderTimeoutMs,
                // Runs when the call has the session to itself: note where its revision will go.
                ...(recording && id !== undefined
                  ? {
                      prepare: (args: unknown) => {
                        const newest = planHistory(session).at(-1)?.revision ?? 0;
                        mapOf(started, session).set(id, newest);
                        return args;
                      },
                    }
                  : {}),
              },
            );
            const content = formatToolContent(result, tool);
            if (id === undefined) return content;
            const message = new ToolMessage({
              content,
              tool_call_id: id,
              name: definition.name,
              status: result.success ? 'success' : 'error',
            });
            const edit = result.success ? editOf(definition, result.value, extensions) : undefined;
            if (edit === undefined) return new Command({ update: { messages: [message] } });
            const revision = recording ? revisionOf(session, id, clock) : undefined;
            if (revision === undefined)
              return new Command({ update: { plan: edit, messages: [message] } });
            const append: PlanHistoryUpdate = { append: [revision] };
            return new Command({
              update: { plan: edit, planHistory: append, messages: [message] },
            });
          } finally {
            if (found !== undefined) leaveTurn(session);
          }
        },
        {
          name: definition.name,
          description: definition.description,
          schema: acceptingSchema(definition),
        },
      ) as DynamicStructuredTool,
  );
}

/**
 * plankit's planning for `createAgent` from `langchain`, a drop-in for `todoListMiddleware`:
 *
 * - the plan lives in the graph state channel `plan` ({@link planChannel}), so every
 *   checkpointer persists it, `getState` shows it, and a fork from an earlier checkpoint sees
 *   the plan as it was then;
 * - the six planning tools return `Command` updates: a {@link PlanEdit} for `plan` and the
 *   call's `ToolMessage` (`status: 'error'` with plankit's `Tool validation failed: ...` text on
 *   a refusal, which changes nothing);
 * - the planning calls of one `AIMessage` run in the order the model emitted them, each on the
 *   plan the calls before it left, and the channel's reducer applies their edits in that same
 *   order through plankit's planning reducers: parallel calls merge, never an InvalidUpdateError;
 * - `section` joins the system prompt; `reminder` goes last in every model request;
 * - `goal` keeps the run going while the goal's decision says continue, and ends it once the
 *   decision stops the goal or asks the person;
 * - `text: 'unicode'` lets the tools and the channel take plans in any language (ASCII only by
 *   default, as the reference);
 * - when the extensions record the plan history (`history()`), a second channel, `planHistory` ({@link planHistoryChannel}), keeps
 *   each change the planning calls made as core's `PlanRevision` (actor, explanation, diff),
 *   in model order, so resumes and forks carry the history with the plan.
 *
 * `graph.updateState(config, { plan: edit })` applies a {@link PlanEdit} through the same
 * reducers, or rejects with a {@link PlanEditError} and changes nothing. `getState(config).values`
 * is `any` in LangGraph's types; {@link readPlanState} reads the channels out of it, typed.
 *
 * @example
 * ```ts
 * const agent = createAgent({
 *   model,
 *   middleware: [
 *     planningMiddleware({
 *       section: new PlanningToolsSection({ session: new Session() }), // rendered once
 *       reminder: renderPlanReminder,
 *     }),
 *   ],
 *   checkpointer: new MemorySaver(),
 * });
 * const result = await agent.invoke(
 *   { messages: [new HumanMessage('Plan the release.')] },
 *   { configurable: { thread_id: 'release-42' } },
 * );
 * result.plan; // the thread's plan, or null
 * ```
 * @example
 * ```ts
 * const agent = createAgent({ model, middleware: [planningMiddleware({ extensions: [history({ agent: 'lead' })] })], checkpointer });
 * const { planHistory } = readPlanState((await agent.graph.getState(config)).values);
 * planHistory.map(renderPlanRevision); // ['#1 plankit.SetupPlan by lead: "kick-off"\n  + S001 ...', ...]
 * ```
 * A planning tool's name is the middleware's: when the agent's tools (or another
 * middleware's) hold a tool of that name, the agent's first model call throws
 * `AdapterError` `tools_invalid` naming both entries of the request's tools, before the
 * model is called (LangChain rethrows it as its `MiddlewareError`, with the `AdapterError` as
 * `cause`). `createAgent` gives a middleware no look at the agent's tools before then.
 *
 * @throws PlankitError `argument_invalid` for an unknown option (a flag that became an
 *   extension names it), a clock that is not a function, an `orderTimeoutMs` a timer cannot
 *   wait, a `text` that is not `'ascii'` or `'unicode'`, or extensions that add a tool under a
 *   name another tool has
 * @public
 */
export function planningMiddleware<const E extends readonly PlanningExtension[] = readonly []>(
  options: PlanningMiddlewareOptions<E> = {},
): AnyExtensionDeclares<E, 'planHistory'> extends true
  ? PlanningHistoryMiddleware
  : PlanningMiddleware {
  checkMovedFlags('planningMiddleware', options);
  const clock = options.clock ?? Date.now;
  if (typeof clock !== 'function')
    throw invalidArgument('planningMiddleware', 'options.clock', 'must be a function');
  // The host adapters' check: unknown keys, `now` pointed at `clock`, `orderTimeoutMs` a delay.
  checkHostOptions('planningMiddleware', options, OPTION_KEYS);
  const text = checkTextMode(options.text ?? 'ascii', 'planningMiddleware', 'options.text');
  const extensions = checkExtensions(
    'planningMiddleware',
    'options.extensions',
    options.extensions,
  );
  const recording = recordsPlanHistory(extensions);
  const section =
    options.section === undefined
      ? undefined
      : typeof options.section === 'string'
        ? options.section
        : options.section.render();
  const reminder = options.reminder;
  const goal = options.goal;
  if (goal !== undefined && typeof goal !== 'function')
    throw invalidArgument('planningMiddleware', 'options.goal', 'must be a function');
  const rules: PlanChannelOptions = {
    ...(options.inProgress === undefined ? {} : { inProgress: options.inProgress }),
    text,
    extensions,
  };
  const stateSchema: PlanningStateSchema | PlanningHistoryStateSchema = recording
    ? new StateSchema({ plan: planChannel(rules), planHistory: planHistoryChannel() })
    : new StateSchema({ plan: planChannel(rules) });
  const tools = planningTools(options, text, extensions, recording, clock);
  const names: ReadonlySet<string> = new Set(tools.map((tool) => tool.name));
  return createMiddleware({
    name: 'planningMiddleware',
    stateSchema,
    tools,
    wrapModelCall: (request, handler) => {
      // createAgent lists the agent's tools and every middleware's without checking names: a
      // tool of the agent named like a planning tool would shadow it when the call runs.
      checkUniqueNames(request.tools, 'planningMiddleware', names);
      const systemMessage =
        section === undefined
          ? request.systemMessage
          : request.systemMessage.concat(`\n\n${section}`);
      const text = reminder?.(checkedPlan((request.state as { plan?: unknown }).plan));
      const messages =
        text === undefined ? request.messages : [...request.messages, new HumanMessage(text)];
      return handler({ ...request, systemMessage, messages });
    },
    ...(goal === undefined
      ? {}
      : {
          afterModel: {
            canJumpTo: ['model', 'end'],
            hook: async (state: { plan?: unknown; messages: readonly unknown[] }) => {
              const decision = await goal(checkedPlan(state.plan));
              if (decision.action !== 'continue') return { jumpTo: 'end' as const };
              const last = state.messages.at(-1) as { tool_calls?: readonly unknown[] } | undefined;
              // The model stopped calling tools, but the goal goes on: tell it why.
              if ((last?.tool_calls?.length ?? 0) > 0) return undefined;
              return { messages: [new HumanMessage(decision.line)], jumpTo: 'model' as const };
            },
          },
        }),
  }) as PlanningMiddleware as AnyExtensionDeclares<E, 'planHistory'> extends true
    ? PlanningHistoryMiddleware
    : PlanningMiddleware;
}
