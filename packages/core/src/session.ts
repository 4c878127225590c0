import { type DataType, dataTypeName } from './define-data-type.ts';
import { diagnosticsChannel } from './diagnostics/diagnostics-channel.ts';
import { PLAN_CHANNEL } from './diagnostics/diagnostics-channels.ts';
import {
  PLAN_SLICE,
  type PlanChangeSource,
  type PlanCountsMemo,
  planChanged,
} from './diagnostics/plan-changed.ts';
import { plansQuiet } from './diagnostics/without-plan-changes.ts';
import { type EventBus, InProcessEventBus, type Unsubscribe } from './in-process-event-bus.ts';
import { CallLog, logsOfSlices } from './internal/call-log.ts';
import { checkOptionKeys } from './internal/check-option-keys.ts';
import { invalidArgument } from './internal/invalid-argument.ts';
import { deepFreeze } from './internal/produce.ts';
import { refusalText, unregisteredSliceText } from './internal/refusal-text.ts';
import { storableProblem, stringProblem } from './internal/storable-problem.ts';
import { checkedSnapshots, type ToolDelivery, toolDeliveries } from './internal/tool-delivery.ts';
import { isTrustedAs } from './internal/trusted-value.ts';
import { valueProblem } from './internal/value-problem.ts';
import type { PlankitEvent, SessionChange, ToolInvoked } from './plankit-event.ts';
import type { Reducer, ReducerEvent } from './reducer.ts';
import type { Result } from './result.ts';
import { SessionError } from './session-error.ts';
import type { SessionSnapshot } from './session-snapshot.ts';
import { ToolCall } from './tool-call.ts';

/** Returns the current time in epoch milliseconds. @public */
export type Clock = () => number;

/** Options of {@link Session}. @public */
export interface SessionOptions {
  /** The bus the session listens on for {@link ToolInvoked}; a private one by default. */
  readonly bus?: EventBus<PlankitEvent> | undefined;
  /** A stable id, 1-256 characters; a random UUID by default. */
  readonly sessionId?: string | undefined;
  /** Where time comes from when a caller gives none; `Date.now` by default. */
  readonly clock?: Clock | undefined;
  /**
   * Keep only the newest this many entries of the tool-call log in memory (a positive
   * integer); every entry by default. An attached store still records every call.
   */
  readonly maxLoggedCalls?: number | undefined;
}

/** Options of {@link Session.register} when the reducer writes to another slice. @public */
export interface RegisterOptions<T> {
  /** The slice the reducer writes to; the dispatched data type's own slice by default. */
  readonly slice: DataType<T>;
}

/** Options of {@link Session.dispatch}. @public */
export interface DispatchOptions {
  /** When, in epoch milliseconds; the session's clock by default. */
  readonly now?: number | undefined;
}

interface Route {
  readonly reducer: Reducer<unknown, unknown>;
  readonly slice: string;
}

const EMPTY: readonly unknown[] = Object.freeze([]);
const LOG = dataTypeName(ToolCall);
const OPTION_KEYS = new Set(['bus', 'sessionId', 'clock', 'maxLoggedCalls']);

// The log keeps every call, so it appends without the structural dedupe of `append`. The
// session runs this reducer on its chunked log instead (see #commit); this array form is
// what another reducer writing the log slice would see it do.
const appendCall: Reducer<unknown> = (slice, event) => Object.freeze([...slice, event.value]);

type Slices = Readonly<Record<string, readonly unknown[]>>;

// One getter for every slices object (no closure per commit): it reads the log the object
// carries. Slice names match defineDataType's pattern, so plain assignment is safe below.
const LOG_SLICE: PropertyDescriptor = {
  get(this: object) {
    return (logsOfSlices.get(this) as CallLog).toArray();
  },
  enumerable: true,
};

/**
 * A frozen slices object whose log slice is read from `log` (built into a frozen array on
 * first read), so a commit costs nothing per logged call.
 */
function frozenSlices(
  names: Iterable<string>,
  values: ReadonlyMap<string, readonly unknown[]>,
  log: CallLog,
): Slices {
  const slices: Record<string, readonly unknown[] | undefined> = {};
  for (const name of names) {
    if (name === LOG) Object.defineProperty(slices, LOG, LOG_SLICE);
    else slices[name] = values.get(name);
  }
  logsOfSlices.set(slices, log);
  return Object.freeze(slices) as Slices;
}

/**
 * A new frozen snapshot. Its slices object carries the session's call log (see frozenSlices),
 * which is also what tells rollback it need not check them again.
 */
function checkedState(sessionId: string, revision: number, slices: Slices): SessionSnapshot {
  return Object.freeze({ sessionId, revision, slices });
}

/**
 * Holds an agent's state as immutable slices keyed by data type. Values are dispatched (by
 * hand or from tool results on the bus) to the reducers registered for their data type; each
 * change commits atomically and yields a new frozen {@link SessionSnapshot}.
 *
 * @example
 * ```ts
 * const session = new Session();
 * session.register(Note, append);
 * session.dispatch(Note, { text: 'hello' });
 * selectAll(session, Note); // [{ text: 'hello' }]
 * ```
 * @public
 */
export class Session {
  /** The session's id. */
  readonly sessionId: string;
  /** The bus the session listens on. */
  readonly bus: EventBus<PlankitEvent>;
  /** The session's clock. */
  readonly clock: Clock;
  /** How many tool-call log entries the session keeps in memory; undefined keeps all. */
  readonly maxLoggedCalls: number | undefined;

  #state: SessionSnapshot;
  #log: CallLog = CallLog.EMPTY;
  readonly #routes = new Map<string, Route[]>();
  readonly #slices = new Map<string, DataType>();
  readonly #types = new Map<string, DataType>();
  readonly #unsubscribe: Unsubscribe;
  // The counts of the plan last reported on plankit:plan, so the next report starts from them.
  readonly #planCounts: PlanCountsMemo = { steps: undefined, counts: undefined };

  /**
   * Creates an empty session listening to `options.bus` for tool results.
   *
   * @param options - bus, id and clock; every one optional
   */
  constructor(options: SessionOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw invalidArgument('new Session', 'options', 'must be an object');
    }
    checkOptionKeys('new Session', options, OPTION_KEYS, '');
    const {
      bus = new InProcessEventBus(),
      sessionId = crypto.randomUUID(),
      clock = Date.now,
      maxLoggedCalls,
    } = options;
    if (typeof sessionId !== 'string' || sessionId.length === 0 || sessionId.length > 256) {
      throw invalidArgument('new Session', 'sessionId', 'must be a string of 1-256 characters');
    }
    if (typeof clock !== 'function')
      throw invalidArgument('new Session', 'clock', 'must be a function');
    if (typeof bus !== 'object' || bus === null || typeof bus.subscribe !== 'function') {
      throw invalidArgument('new Session', 'bus', 'must be an EventBus');
    }
    if (
      maxLoggedCalls !== undefined &&
      (typeof maxLoggedCalls !== 'number' ||
        !Number.isSafeInteger(maxLoggedCalls) ||
        maxLoggedCalls < 1)
    ) {
      throw invalidArgument('new Session', 'maxLoggedCalls', 'must be a positive integer');
    }
    this.sessionId = sessionId;
    this.bus = bus;
    this.clock = clock;
    this.maxLoggedCalls = maxLoggedCalls;
    this.#state = checkedState(sessionId, 0, Object.freeze({}));
    this.register(ToolCall, appendCall as Reducer<ToolCall>);
    this.#unsubscribe = bus.subscribe('ToolInvoked', (event) => this.#onToolInvoked(event));
  }

  /**
   * Registers `reducer` for values of `dataType`, writing to the slice `options.slice` (the
   * data type's own slice by default). Reducers of one data type run in registration order;
   * registering the same reducer for the same data type and slice again does nothing.
   *
   * @throws PlankitError on a programmer error: an unnamed data type or a non-function reducer
   */
  register<E>(dataType: DataType<E>, reducer: Reducer<E, E>): void;
  register<E, T>(dataType: DataType<E>, reducer: Reducer<T, E>, options: RegisterOptions<T>): void;
  register(
    dataType: DataType,
    reducer: Reducer<unknown>,
    options?: RegisterOptions<unknown>,
  ): void {
    const source = this.#nameOf(dataType, 'Session.register', 'dataType');
    const sliceType = options?.slice ?? dataType;
    const slice = this.#nameOf(sliceType, 'Session.register', 'options.slice');
    if (typeof reducer !== 'function') {
      throw invalidArgument('Session.register', 'reducer', 'must be a function');
    }
    this.#types.set(source, dataType);
    this.#types.set(slice, sliceType);
    this.#slices.set(slice, sliceType);
    const routes = this.#routes.get(source) ?? [];
    if (routes.some((route) => route.reducer === reducer && route.slice === slice)) return;
    routes.push({ reducer, slice });
    this.#routes.set(source, routes);
  }

  /**
   * Checks `value` against `dataType`'s schema and that every store can hold it (JSON data:
   * no U+0000, lone surrogates, non-finite numbers, or nesting deeper than 256), then applies
   * the parsed value to every reducer registered for `dataType`, atomically: if the check
   * fails or any reducer throws, nothing changes and the error comes back. What commits is
   * exactly what a store's replay will check and apply again. The value is deeply frozen.
   *
   * @returns the snapshot after the change (the same snapshot when nothing changed), or a
   *   {@link SessionError}: `value_invalid` (naming the field) or `reducer_failed`
   * @throws PlankitError `argument_invalid` for a time that is not a finite number, from
   *   `options.now` or the clock
   */
  dispatch<E>(
    dataType: DataType<E>,
    value: E,
    options: DispatchOptions = {},
  ): Result<SessionSnapshot, SessionError> {
    const name = this.#nameOf(dataType, 'Session.dispatch', 'dataType');
    const now = this.#now(options, 'Session.dispatch');
    const checked = this.#check(dataType, name, value);
    if (!checked.ok) return checked;
    // Frozen in place (after the check, which is iterative and bounds the depth): the caller
    // cannot mutate what it sent.
    deepFreeze(value);
    return this.#commit([{ dataType: name, value: checked.value }], now);
  }

  /** The current state; frozen, so keep it as long as you like. */
  snapshot(): SessionSnapshot {
    return this.#state;
  }

  /**
   * Restores the slices of an earlier snapshot (this session's, or one read with
   * {@link snapshotFromJSON}). Any other snapshot is checked first, value by value, as
   * `snapshotFromJSON` would. The revision keeps growing: a rollback is a change too.
   *
   * @returns the new snapshot, or a {@link SessionError}: `slice_unregistered` naming a slice
   *   this session lacks, `snapshot_invalid` naming a value its schema refuses or no store can hold
   * @throws PlankitError `argument_invalid` for a time that is not a finite number
   */
  rollback(
    snapshot: SessionSnapshot,
    options: DispatchOptions = {},
  ): Result<SessionSnapshot, SessionError> {
    if (typeof snapshot !== 'object' || snapshot === null || typeof snapshot.slices !== 'object') {
      throw invalidArgument('Session.rollback', 'snapshot', 'must be a SessionSnapshot');
    }
    for (const name of Object.keys(snapshot.slices)) {
      if (!this.#slices.has(name)) {
        return {
          ok: false,
          error: new SessionError('slice_unregistered', unregisteredSliceText(name), {
            field: `slices.${name}`,
            sessionId: this.sessionId,
          }),
        };
      }
    }
    const now = this.#now(options, 'Session.rollback');
    // A snapshot this session made carries its chunked log: restoring it costs nothing per call.
    const names = Object.keys(snapshot.slices);
    let log = logsOfSlices.get(snapshot.slices);
    const values = new Map<string, readonly unknown[]>();
    // Slices a session committed (they carry its log) or snapshotFromJSON read were checked.
    if (log !== undefined || checkedSnapshots.get(snapshot) === true) {
      for (const name of names) {
        if (name === LOG && log !== undefined) continue;
        values.set(name, deepFreeze(snapshot.slices[name] as readonly unknown[]));
      }
    } else {
      const checked = this.#checkSlices(snapshot.slices);
      if (!checked.ok) return checked;
      log = undefined;
      for (const name of names) values.set(name, deepFreeze(checked.value[name] as unknown[]));
    }
    if (log === undefined) log = CallLog.from(values.get(LOG) ?? EMPTY);
    const restoredRevision = snapshot.revision;
    const before = this.#state.slices;
    this.#log = log;
    this.#state = checkedState(
      this.sessionId,
      this.#state.revision + 1,
      frozenSlices(names, values, log),
    );
    const revision = this.#state.revision;
    this.#publishPlanChange(before, 'rollback', now, undefined, undefined);
    this.bus.publish(
      Object.freeze({
        type: 'SessionRolledBack',
        sessionId: this.sessionId,
        revision,
        restoredRevision,
        at: now,
      }),
    );
    return { ok: true, value: this.#state };
  }

  /** The values of one slice, oldest first. */
  select<T>(dataType: DataType<T>): readonly T[] {
    return (this.#state.slices[dataTypeName(dataType)] ?? EMPTY) as readonly T[];
  }

  /** The data types of every registered slice, by name. */
  sliceTypes(): ReadonlyMap<string, DataType> {
    return new Map(this.#slices);
  }

  /** Stops listening to the bus. The session keeps its state and can still be dispatched to. */
  dispose(): void {
    this.#unsubscribe();
  }

  /** A data type's name, refusing a second schema under a name this session already uses. */
  #nameOf(dataType: DataType, where: string, field: string): string {
    const name = dataTypeName(dataType);
    const known = this.#types.get(name);
    if (known !== undefined && known !== dataType) {
      throw invalidArgument(where, field, `names ${name}, already used by another schema`);
    }
    return name;
  }

  #onToolInvoked(event: ToolInvoked): void {
    // invokeTool names the one session it means; other publishers are matched by id.
    const delivery = toolDeliveries.get(event);
    if (delivery === undefined ? event.sessionId !== this.sessionId : delivery.target !== this)
      return;
    if (!event.result.success) return;
    const outcome = this.#reduceToolResult(event, delivery);
    if (delivery !== undefined) delivery.outcome = outcome;
    if (!outcome.ok) throw outcome.error;
  }

  #reduceToolResult(
    event: ToolInvoked,
    delivery: ToolDelivery | undefined,
  ): Result<SessionSnapshot, SessionError> {
    const resultType = delivery?.resultType;
    if (typeof event.at !== 'number' || !Number.isFinite(event.at)) {
      throw invalidArgument('ToolInvoked', 'at', 'must be a finite number');
    }
    const { message, value } = event.result;
    // Frozen as built (params and value already are), so the commit's deepFreeze is O(1).
    const entry: ToolCall = Object.freeze({
      tool: event.tool,
      params: event.params,
      result: Object.freeze({ success: true as const, message, value }),
      at: event.at,
    });
    const changes: SessionChange[] = [];
    let trusted = false;
    if (event.resultType !== null) {
      const type = resultType ?? this.#types.get(event.resultType);
      trusted = type !== undefined && isTrustedAs(value, type);
      if (type === undefined || trusted) {
        // A value a built-in handler built from parsed params (see trustedValue) parses to an
        // equal value every store can hold: neither the schema nor the storable walk runs again.
        changes.push({ dataType: event.resultType, value });
      } else {
        const checked = this.#check(type, event.resultType, value);
        if (!checked.ok) return checked;
        changes.push({ dataType: event.resultType, value: checked.value });
      }
    }
    if (resultType === undefined) {
      // Published by someone else: the whole entry is checked as a dispatch would check it.
      const logged = this.#check(ToolCall, LOG, entry);
      if (!logged.ok) return logged;
      changes.push({ dataType: LOG, value: logged.value });
    } else {
      // From invokeTool, which parsed the params and checked them storable before the call
      // succeeded: check only what is new here, so the cost is the call's, not the state's.
      const problem = this.#entryProblem(entry, trusted);
      if (problem !== undefined) return problem;
      changes.push({ dataType: LOG, value: entry });
    }
    return this.#commit(changes, event.at, delivery?.callId, event.tool);
  }

  /**
   * Why an entry built from an invokeTool result could not be logged, if it could not. A
   * trusted value (see trustedValue) is storable by construction, so its walk is skipped.
   */
  #entryProblem(entry: ToolCall, trusted: boolean): Result<never, SessionError> | undefined {
    let field = 'tool';
    let rule = stringProblem(entry.tool);
    if (rule === undefined) {
      field = 'result.message';
      rule = stringProblem(entry.result.message);
    }
    if (rule === undefined) {
      const problem = trusted ? undefined : storableProblem(entry.result.value);
      if (problem === undefined) return undefined;
      field = problem.path === '' ? 'result.value' : `result.value.${problem.path}`;
      field = field.replace('.[', '[');
      rule = problem.rule;
    }
    return {
      ok: false,
      error: new SessionError(
        'value_invalid',
        refusalText(`Value of ${LOG} cannot be stored: ${field} ${rule}.`),
        { field, sessionId: this.sessionId },
      ),
    };
  }

  /** The time of a change: `options.now`, else the clock; refused unless finite. */
  #now(options: DispatchOptions, where: string): number {
    if (typeof options !== 'object' || options === null) {
      throw invalidArgument(where, 'options', 'must be an object');
    }
    if (options.now !== undefined) {
      if (typeof options.now !== 'number' || !Number.isFinite(options.now))
        throw invalidArgument(where, 'options.now', 'must be a finite number');
      return options.now;
    }
    const now = this.clock();
    if (typeof now !== 'number' || !Number.isFinite(now))
      throw invalidArgument(where, 'clock', 'must return a finite number');
    return now;
  }

  /** `value` as `dataType` parses it, if it does and every store can hold the result. */
  #check(dataType: DataType, name: string, value: unknown): Result<unknown, SessionError> {
    const problem = valueProblem(dataType, value);
    if (!('field' in problem)) return { ok: true, value: problem.data };
    return {
      ok: false,
      error: new SessionError('value_invalid', refusalText(`Value of ${name} ${problem.message}`), {
        field: problem.field || undefined,
        sessionId: this.sessionId,
      }),
    };
  }

  /** Every slice value as its data type parses it, or the first one that fails. */
  #checkSlices(
    slices: Readonly<Record<string, readonly unknown[]>>,
  ): Result<Record<string, readonly unknown[]>, SessionError> {
    const out: Record<string, readonly unknown[]> = {};
    for (const name of Object.keys(slices)) {
      const type = this.#slices.get(name) as DataType;
      const values = slices[name];
      if (!Array.isArray(values)) {
        return {
          ok: false,
          error: new SessionError('snapshot_invalid', `Slice ${name} must be an array.`, {
            field: `slices.${name}`,
            sessionId: this.sessionId,
          }),
        };
      }
      const parsed: unknown[] = [];
      for (let index = 0; index < values.length; index++) {
        const problem = valueProblem(type, values[index]);
        if ('field' in problem) {
          const where = problem.field === '' ? '' : `.${problem.field}`;
          return {
            ok: false,
            error: new SessionError(
              'snapshot_invalid',
              refusalText(`Slice ${name} item ${index} ${problem.message}`),
              { field: `slices.${name}[${index}]${where}`, sessionId: this.sessionId },
            ),
          };
        }
        parsed.push(problem.data);
      }
      Object.defineProperty(out, name, { value: parsed, enumerable: true });
    }
    return { ok: true, value: out };
  }

  #commit(
    changes: readonly SessionChange[],
    now: number,
    callId?: string,
    toolName?: string,
  ): Result<SessionSnapshot, SessionError> {
    const before = this.#state.slices;
    const staged = new Map<string, readonly unknown[]>();
    // The log slice is staged as a chunked log while only the built-in append writes it.
    let log: CallLog | undefined;
    for (const change of changes) {
      const value = deepFreeze(change.value);
      const event: ReducerEvent<unknown> = {
        dataType: change.dataType,
        value,
        sessionId: this.sessionId,
        at: now,
      };
      for (const route of this.#routes.get(change.dataType) ?? []) {
        if (route.slice === LOG && route.reducer === appendCall && !staged.has(LOG)) {
          log = (log ?? this.#log).append(value, this.maxLoggedCalls);
          continue;
        }
        if (route.slice === LOG && log !== undefined) {
          // Another reducer writes the log: hand it the array, and keep its output as one.
          staged.set(LOG, log.toArray());
          log = undefined;
        }
        const current = staged.get(route.slice) ?? before[route.slice] ?? EMPTY;
        let next: readonly unknown[];
        try {
          next = route.reducer(current, event);
        } catch (cause) {
          return { ok: false, error: this.#reducerError(change.dataType, route.slice, cause) };
        }
        if (!Array.isArray(next)) {
          return {
            ok: false,
            error: this.#reducerError(change.dataType, route.slice, 'it returned a non-array'),
          };
        }
        staged.set(route.slice, next);
      }
    }
    let changed = log !== undefined;
    for (const [slice, values] of staged) if (values !== (before[slice] ?? EMPTY)) changed = true;
    if (!changed) return { ok: true, value: this.#state };
    // The slices in their order (those before, then new ones); a log array another reducer
    // staged becomes a new chunked log, an append keeps the one staged above.
    const slices: Record<string, readonly unknown[] | undefined> = {};
    for (const name of Object.keys(before)) {
      if (name === LOG) Object.defineProperty(slices, LOG, LOG_SLICE);
      else slices[name] = before[name];
    }
    for (const [slice, next] of staged) {
      if (slice !== LOG) slices[slice] = deepFreeze(next);
      else log = CallLog.from(deepFreeze(next));
    }
    if (log === undefined) log = this.#log;
    else if (!Object.hasOwn(slices, LOG)) Object.defineProperty(slices, LOG, LOG_SLICE);
    logsOfSlices.set(slices, log);
    this.#log = log;
    this.#state = checkedState(
      this.sessionId,
      this.#state.revision + 1,
      Object.freeze(slices) as Slices,
    );
    this.#publishPlanChange(before, 'commit', now, callId, toolName);
    // Frozen piece by piece: every value in it already is.
    for (const change of changes) Object.freeze(change);
    this.bus.publish(
      Object.freeze({
        type: 'SessionCommitted',
        sessionId: this.sessionId,
        revision: this.#state.revision,
        changes: Object.freeze(changes),
        at: now,
      }),
    );
    return { ok: true, value: this.#state };
  }

  /**
   * Tells `plankit:plan` subscribers, if any, how the plan slice changed from `before` to the
   * state just committed; builds nothing while nobody listens.
   */
  #publishPlanChange(
    before: Slices,
    cause: PlanChangeSource['cause'],
    at: number,
    callId: string | undefined,
    toolName: string | undefined,
  ): void {
    const channel = diagnosticsChannel(PLAN_CHANNEL);
    if (!channel.hasSubscribers) return;
    const { slices, revision } = this.#state;
    if (before[PLAN_SLICE] === slices[PLAN_SLICE] || plansQuiet(this)) return;
    const source = { sessionId: this.sessionId, revision, cause, at, callId, toolName };
    const payload = planChanged(source, before[PLAN_SLICE], slices[PLAN_SLICE], this.#planCounts);
    channel.publish(Object.freeze(payload));
  }

  #reducerError(dataType: string, slice: string, cause: unknown): SessionError {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return new SessionError(
      'reducer_failed',
      refusalText(`Reducer for ${dataType} into slice ${slice} failed: ${reason}`),
      {
        cause,
        sessionId: this.sessionId,
      },
    );
  }
}
