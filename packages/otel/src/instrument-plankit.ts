import {
  type Attributes,
  type Context,
  context,
  diag,
  ProxyTracerProvider,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import {
  DIAGNOSTICS_CHANNELS,
  type MachineTransitioned,
  PLAN_CHANNEL,
  type PlanChanged,
  POOL_CHANNEL,
  type PoolEvent,
  TOOL_CALL_CHANNEL,
  type ToolCallEnded,
  type ToolCallEvent,
  type ToolCallStarted,
  TRANSITION_CHANNEL,
} from '@plankit/core/diagnostics';
import { checkOptionKeys, clipText, invalidArgument } from '@plankit/core/internal-unstable';
import { endSpan } from './end-span.ts';
import { OpenCalls } from './open-calls.ts';
import { GenAIAttributes as GenAI, PlankitAttributes as Plankit } from './semantic-conventions.ts';

/** Options of {@link instrumentPlankit}. */
export interface InstrumentPlankitOptions {
  /**
   * Where spans go: the tracer provider to take plankit's tracer from. The global one
   * (`trace.getTracerProvider()`) by default, so an SDK registered later still receives them.
   */
  readonly tracerProvider?: TracerProvider | undefined;
  /**
   * Record content: tool arguments and results, refusal messages and the plan's objective.
   * Off by default unless `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT` is `true`.
   * Ids, codes, statuses and counts are always recorded.
   */
  readonly captureContent?: boolean | undefined;
  /**
   * The agent's name for the controller's `plan {agent}` span and `gen_ai.agent.name`; the
   * machine's id (`planning-controller`) by default.
   */
  readonly agentName?: string | undefined;
  /**
   * The longest string attribute, in characters (4,096 by default); longer values are clipped
   * with `...`, never inside a surrogate pair.
   */
  readonly maxAttributeLength?: number | undefined;
}

/** Stops {@link instrumentPlankit}: unsubscribes and ends the spans it still holds open. */
export type StopInstrumentation = () => void;

const OPTION_KEYS: ReadonlySet<string> = new Set([
  'tracerProvider',
  'captureContent',
  'agentName',
  'maxAttributeLength',
]);

const TRACER_NAME = '@plankit/otel';
const DEFAULT_MAX_ATTRIBUTE_LENGTH = 4096;
// A call whose end never comes (its process state lost mid-call) must not hold its span
// forever: past this many open calls the oldest is ended.
const MAX_OPEN_CALLS = 1024;
// The same for controller runs that never reach done or frozen (a conversation left mid-plan).
const MAX_OPEN_PLANS = 1024;
const CONTENT_ENV = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT';
// The plan's counts, one attribute per status, named once rather than on every change.
const COUNT_TOTAL = `${Plankit.PLAN_COUNTS_PREFIX}total`;
const COUNT_PENDING = `${Plankit.PLAN_COUNTS_PREFIX}pending`;
const COUNT_IN_PROGRESS = `${Plankit.PLAN_COUNTS_PREFIX}in_progress`;
const COUNT_BLOCKED = `${Plankit.PLAN_COUNTS_PREFIX}blocked`;
const COUNT_DONE = `${Plankit.PLAN_COUNTS_PREFIX}done`;

// What the API's global provider delegates to while no SDK is registered: one instance per
// copy of `@opentelemetry/api`, so this is it for ours.
const NO_SDK: TracerProvider = new ProxyTracerProvider().getDelegate();

/** The part of `node:diagnostics_channel` this package uses. */
interface ChannelModule {
  subscribe(name: string, listener: (message: unknown, name: string | symbol) => void): void;
  unsubscribe(name: string, listener: (message: unknown, name: string | symbol) => void): boolean;
}

/** A controller run in flight: its `plan` span, and the span that was active when it opened. */
interface OpenPlan {
  readonly span: Span;
  readonly parentSpanId: string | undefined;
}

function loadChannels(): ChannelModule | undefined {
  const process = (globalThis as { process?: { getBuiltinModule?: unknown } }).process;
  const get = process?.getBuiltinModule;
  if (typeof get !== 'function') return undefined;
  try {
    const loaded = (get as (id: string) => unknown).call(process, 'node:diagnostics_channel') as
      | Partial<ChannelModule>
      | undefined;
    return typeof loaded?.subscribe === 'function' && typeof loaded.unsubscribe === 'function'
      ? (loaded as ChannelModule)
      : undefined;
  } catch {
    return undefined;
  }
}

function contentFromEnv(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env;
  return env?.[CONTENT_ENV]?.trim().toLowerCase() === 'true';
}

function checkOptions(options: InstrumentPlankitOptions): void {
  const where = 'instrumentPlankit';
  if (typeof options !== 'object' || options === null)
    throw invalidArgument(where, 'options', 'must be an object');
  checkOptionKeys(where, options, OPTION_KEYS);
  const { tracerProvider, captureContent, agentName, maxAttributeLength } = options;
  if (tracerProvider !== undefined && typeof tracerProvider?.getTracer !== 'function')
    throw invalidArgument(where, 'options.tracerProvider', 'must be a TracerProvider (getTracer)');
  if (captureContent !== undefined && typeof captureContent !== 'boolean')
    throw invalidArgument(where, 'options.captureContent', 'must be a boolean');
  if (agentName !== undefined && (typeof agentName !== 'string' || agentName.length === 0))
    throw invalidArgument(where, 'options.agentName', 'must be a non-empty string');
  if (
    maxAttributeLength !== undefined &&
    !(Number.isSafeInteger(maxAttributeLength) && maxAttributeLength >= 16)
  )
    throw invalidArgument(where, 'options.maxAttributeLength', 'must be a whole number >= 16');
}

/**
 * Whether `span` is the span a host opened for this very tool call: AI SDK 7's telemetry runs
 * the tool inside an active `execute_tool {name}` span. (The OpenAI Agents SDK and LangChain
 * trace tools through their own processors and callbacks, not OpenTelemetry, so they open
 * none.) It must record and be a tool span, by its name or its `gen_ai.operation.name`, of
 * this tool, by its name, its `gen_ai.tool.name` or its `gen_ai.tool.call.id`: another tool's
 * span (an agent run as a tool, planning inside it) is a parent, not this call's span, and
 * must keep its own attributes. The API exposes neither a span's name nor its attributes, but
 * the SDK's spans carry both.
 */
function isHostToolSpan(span: Span, event: ToolCallStarted): boolean {
  if (!span.isRecording()) return false;
  const { name, attributes } = span as {
    readonly name?: unknown;
    readonly attributes?: Attributes | undefined;
  };
  const named = typeof name === 'string';
  if (named && name === `execute_tool ${event.toolName}`) return true;
  if (attributes === undefined) return false;
  const tool =
    (named && name.startsWith('execute_tool')) ||
    attributes[GenAI.OPERATION_NAME] === 'execute_tool';
  return (
    tool &&
    (attributes[GenAI.TOOL_NAME] === event.toolName ||
      attributes[GenAI.TOOL_CALL_ID] === event.callId)
  );
}

/**
 * Subscribes to plankit's `node:diagnostics_channel` channels and turns what they carry into
 * OpenTelemetry spans, per the GenAI semantic conventions: each planning tool call an
 * `execute_tool {name}` span (or, when the host already opened that span, plankit's attributes
 * on it), each plan change attributes on its call's span (or, outside a call, on the active or
 * the plan span, with a `plankit.plan.changed` event),
 * the controller's run a `plan {agent}` span whose transitions are `plankit.transition`
 * events with the budget figures. Call it once, at start-up, after registering your SDK.
 * Where `node:diagnostics_channel` does not exist (a browser) it does nothing. Errors in the
 * tracer or an exporter never reach a tool call: they go to OpenTelemetry's `diag` logger.
 *
 * @param options - see {@link InstrumentPlankitOptions}
 * @returns a function that unsubscribes and ends the spans still open
 * @throws PlankitError (`argument_invalid`) when an option is unknown or has the wrong type
 * @example
 * ```ts
 * import { instrumentPlankit } from '@plankit/otel';
 *
 * const stop = instrumentPlankit({ agentName: 'release-planner' });
 * // ... run the agent ...
 * stop();
 * ```
 */
export function instrumentPlankit(options: InstrumentPlankitOptions = {}): StopInstrumentation {
  checkOptions(options);
  const channels = loadChannels();
  if (channels === undefined) return () => {};
  const provider = options.tracerProvider ?? trace.getTracerProvider();
  const tracer: Tracer = provider.getTracer(TRACER_NAME);
  // The API's global provider records nothing until an SDK registers with it. Until then no
  // span can record, so plankit stays off `plankit:plan` (whose payloads core would otherwise
  // build on every change) and lets each call go after one check; the first event after an
  // SDK registers subscribes it, before that call's plan change.
  const proxy = provider instanceof ProxyTracerProvider ? provider : undefined;
  let listening = false;
  const sdkRegistered = (): boolean => {
    if (listening) return true;
    if (proxy !== undefined && proxy.getDelegate() === NO_SDK) return false;
    listening = true;
    channels.subscribe(PLAN_CHANNEL, onPlan);
    return true;
  };
  const capture = options.captureContent ?? contentFromEnv();
  const limit = options.maxAttributeLength ?? DEFAULT_MAX_ATTRIBUTE_LENGTH;
  const calls = new OpenCalls(MAX_OPEN_CALLS);
  const plans = new Map<string, OpenPlan>();

  const text = (value: string): string => clipText(value, limit);
  const json = (value: unknown): string | undefined => {
    try {
      const encoded = typeof value === 'string' ? value : JSON.stringify(value);
      return encoded === undefined ? undefined : text(encoded);
    } catch {
      // A value JSON cannot hold (a cycle, a bigint) is left out rather than failing the call.
      return undefined;
    }
  };

  /**
   * Where a tool span hangs: under the newest open `plan` span that opened under the active
   * span (or, with no active span, the newest one), so a controller's calls sit in its stage
   * even while another run's plan is open; otherwise under the active span.
   */
  function parentContext(active: Context): Context {
    if (plans.size === 0) return active;
    const activeId = trace.getSpan(active)?.spanContext().spanId;
    let plan: OpenPlan | undefined;
    for (const open of plans.values())
      if (activeId === undefined || open.parentSpanId === activeId) plan = open;
    return plan === undefined ? active : trace.setSpan(active, plan.span);
  }

  function startCall(event: ToolCallStarted): void {
    const active = context.active();
    const host = trace.getSpan(active);
    if (host !== undefined && isHostToolSpan(host, event)) {
      // The host's span already names the tool and its call id: add plankit's, open no second.
      const common: Attributes = { [Plankit.SESSION_ID]: text(event.sessionId) };
      if (event.conversationId !== undefined)
        common[GenAI.CONVERSATION_ID] = text(event.conversationId);
      host.setAttributes(common);
      calls.add(event.sessionId, event.callId, host, false);
      return;
    }
    // The ids go in at the start, where a sampler can read them; one object, built in place.
    const toolName = text(event.toolName);
    const attributes: Attributes = {
      [GenAI.OPERATION_NAME]: 'execute_tool',
      [GenAI.TOOL_NAME]: toolName,
      [GenAI.TOOL_CALL_ID]: text(event.callId),
      [GenAI.TOOL_TYPE]: 'function',
      [Plankit.SESSION_ID]: text(event.sessionId),
    };
    if (event.conversationId !== undefined)
      attributes[GenAI.CONVERSATION_ID] = text(event.conversationId);
    const span = tracer.startSpan(
      `execute_tool ${toolName}`,
      { kind: SpanKind.INTERNAL, attributes },
      parentContext(active),
    );
    // A span that records nothing (no SDK, or not sampled) ends as a no-op: it is not held,
    // so its end and its plan change cost a lookup that finds nothing.
    if (!span.isRecording()) return;
    if (capture) {
      const args = json(event.arguments);
      if (args !== undefined) span.setAttribute(GenAI.TOOL_CALL_ARGUMENTS, args);
    }
    calls.add(event.sessionId, event.callId, span, true);
  }

  function endCall(event: ToolCallEnded): void {
    if (calls.size === 0) return;
    const call = calls.take(event.sessionId, event.callId);
    if (call === undefined) return;
    const { span } = call;
    if (!span.isRecording()) {
      if (call.owned) span.end();
      return;
    }
    if (event.ok) {
      if (capture && call.owned) {
        const result = json(event.value ?? event.message);
        if (result !== undefined) span.setAttribute(GenAI.TOOL_CALL_RESULT, result);
      }
    } else {
      const code = event.code ?? '_OTHER';
      const refusal: Attributes = { [GenAI.ERROR_TYPE]: text(code) };
      if (capture) refusal[Plankit.TOOL_REFUSAL_MESSAGE] = text(event.message);
      span.setAttributes(refusal);
      // The refusal's words can quote what the model wrote, so they are content; the code is not.
      span.setStatus({ code: SpanStatusCode.ERROR, message: capture ? text(event.message) : code });
    }
    if (call.owned) span.end();
  }

  /**
   * The span a plan change goes on, or `undefined` when none records it; `call` tells whether
   * it is the span of the call that made the change.
   */
  function planSpan(
    event: PlanChanged,
  ): { readonly span: Span; readonly call: boolean } | undefined {
    if (event.callId !== undefined && calls.size > 0) {
      const call = calls.get(event.sessionId, event.callId);
      if (call !== undefined)
        return call.span.isRecording() ? { span: call.span, call: true } : undefined;
    }
    const active = trace.getSpan(context.active());
    if (active?.isRecording() === true) return { span: active, call: false };
    if (plans.size === 0) return undefined;
    let plan: OpenPlan | undefined;
    for (const open of plans.values()) plan = open;
    return plan?.span.isRecording() === true ? { span: plan.span, call: false } : undefined;
  }

  function planChanged(event: PlanChanged): void {
    const target = planSpan(event);
    if (target === undefined) return;
    const { span } = target;
    // What this change did, and the plan after it.
    const ids: string[] = [];
    const statuses: string[] = [];
    const changes: string[] = [];
    for (const step of event.steps) {
      ids.push(text(step.stepId));
      statuses.push(step.status);
      changes.push(step.change);
    }
    const { counts } = event;
    const plan: Attributes = {
      [Plankit.PLAN_REVISION]: event.revision,
      [Plankit.STEP_ID]: ids,
      [Plankit.STEP_STATUS]: statuses,
      [Plankit.STEP_CHANGE]: changes,
      [COUNT_TOTAL]: counts.total,
      [COUNT_PENDING]: counts.pending,
      [COUNT_IN_PROGRESS]: counts.in_progress,
      [COUNT_BLOCKED]: counts.blocked,
      [COUNT_DONE]: counts.done,
    };
    if (event.planStatus !== null) plan[Plankit.PLAN_STATUS] = event.planStatus;
    if (capture && event.objective !== null) plan[Plankit.PLAN_OBJECTIVE] = text(event.objective);
    span.setAttributes(plan);
    // A call makes at most one change, so its span's attributes say all of it. Another span
    // (the active one, or the plan span) can collect several: each also leaves an event, as
    // the attributes keep only the last.
    if (!target.call)
      span.addEvent('plankit.plan.changed', {
        [Plankit.PLAN_REVISION]: event.revision,
        [Plankit.STEP_ID]: ids,
        [Plankit.STEP_STATUS]: statuses,
        [Plankit.STEP_CHANGE]: changes,
      });
  }

  function transitioned(event: MachineTransitioned): void {
    // A run is its machine and the moment it began: a server runs one machine for many
    // conversations at once, and each run gets a plan span of its own.
    const run = `${event.machine}\u0000${event.startedAt}`;
    let span = plans.get(run)?.span;
    if (span === undefined) {
      const agent = options.agentName ?? event.machine;
      span = tracer.startSpan(
        `plan ${text(agent)}`,
        {
          kind: SpanKind.INTERNAL,
          attributes: {
            [GenAI.OPERATION_NAME]: 'plan',
            [GenAI.AGENT_NAME]: text(agent),
            [Plankit.MACHINE]: text(event.machine),
          },
        },
        context.active(),
      );
      const parentSpanId = trace.getSpan(context.active())?.spanContext().spanId;
      plans.set(run, { span, parentSpanId });
      // A run abandoned before done or frozen would hold its span forever: past the limit the
      // oldest open run's span is ended (maps keep insertion order).
      if (plans.size > MAX_OPEN_PLANS) {
        for (const [oldest, open] of plans) {
          plans.delete(oldest);
          endSpan(open.span);
          break;
        }
      }
    }
    const attributes: Attributes = {
      [Plankit.TRANSITION_FROM]: text(event.from),
      [Plankit.TRANSITION_TO]: text(event.to),
      [Plankit.TRANSITION_EVENT]: text(event.event),
      [Plankit.TRANSITION_KIND]: event.kind,
      [Plankit.MACHINE_STATUS]: event.status,
      [Plankit.APPROVAL_WAITING]: event.status === 'waiting',
    };
    if (event.confidence !== null) attributes[Plankit.TRANSITION_CONFIDENCE] = event.confidence;
    for (const [figure, value] of Object.entries(event.budget))
      if (value !== null) attributes[`${Plankit.BUDGET_PREFIX}${snake(figure)}`] = value;
    if (event.cap !== null) attributes[Plankit.BUDGET_CAP] = text(event.cap);
    span.addEvent('plankit.transition', attributes);
    if (event.status === 'done' || event.status === 'frozen') {
      plans.delete(run);
      if (event.status === 'frozen') {
        span.setAttribute(GenAI.ERROR_TYPE, text(event.cap ?? 'frozen'));
        span.setStatus({ code: SpanStatusCode.ERROR, message: text(event.cap ?? 'frozen') });
      }
      span.end();
    }
  }

  function pool(event: PoolEvent): void {
    const active = trace.getSpan(context.active());
    if (active === undefined || !active.isRecording()) return;
    const attributes: Attributes = {
      [GenAI.CONVERSATION_ID]: text(event.conversationId),
      [Plankit.POOL_LIVE]: event.live,
    };
    switch (event.type) {
      case 'pool-load':
        if (event.code !== null) attributes[GenAI.ERROR_TYPE] = text(event.code);
        active.addEvent('plankit.pool.load', attributes);
        break;
      case 'pool-evict':
        attributes[Plankit.POOL_REASON] = event.reason;
        active.addEvent('plankit.pool.evict', attributes);
        break;
      case 'pool-full':
        attributes[GenAI.ERROR_TYPE] = 'pool_full';
        attributes[Plankit.POOL_WAITING] = event.waiting;
        active.addEvent('plankit.pool.full', attributes);
        break;
      default: {
        const unknown: never = event;
        throw new Error(`unreachable: pool event ${String(unknown)}`);
      }
    }
  }

  // Every listener swallows its own errors: node:diagnostics_channel would otherwise rethrow
  // them as an uncaught exception, and telemetry must never take a tool call or a process down.
  const guard =
    <T>(handle: (event: T) => void) =>
    (message: unknown): void => {
      try {
        handle(message as T);
      } catch (error) {
        diag.error('@plankit/otel: a span could not be recorded', error);
      }
    };
  const onPlan = guard(planChanged);
  // The others subscribe now; each event first makes sure an SDK can record it.
  const listeners: Record<string, (message: unknown) => void> = {
    [TOOL_CALL_CHANNEL]: guard((event: ToolCallEvent) => {
      if (event.phase === 'end') endCall(event);
      else if (sdkRegistered()) startCall(event);
    }),
    [TRANSITION_CHANNEL]: guard((event: MachineTransitioned) => {
      if (sdkRegistered()) transitioned(event);
    }),
    [POOL_CHANNEL]: guard((event: PoolEvent) => {
      if (sdkRegistered()) pool(event);
    }),
  };
  for (const name of DIAGNOSTICS_CHANNELS) {
    const listener = listeners[name];
    if (listener !== undefined) channels.subscribe(name, listener);
  }
  sdkRegistered();
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    for (const name of DIAGNOSTICS_CHANNELS) {
      const listener = listeners[name];
      if (listener !== undefined) channels.unsubscribe(name, listener);
    }
    if (listening) channels.unsubscribe(PLAN_CHANNEL, onPlan);
    calls.endAll();
    for (const plan of plans.values()) endSpan(plan.span);
    plans.clear();
  };
}

/** `costUsd` -> `cost_usd`: attribute names are snake case. */
function snake(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
