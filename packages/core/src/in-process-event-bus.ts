import { EventEmitter } from 'eventemitter3';
import { invalidArgument } from './internal/invalid-argument.ts';
import type { PlankitEvent } from './plankit-event.ts';

/** Anything with a string `type` can travel on a bus. @public */
export interface BusEvent {
  /** Discriminates the event; handlers subscribe by it. */
  readonly type: string;
}

/** A handler that threw while an event was delivered. @public */
export interface HandlerFailure {
  /** The type of the event being delivered. */
  readonly type: string;
  /** What the handler threw. */
  readonly error: unknown;
}

/** What {@link EventBus.publish} reports: how many handlers ran and which of them threw. @public */
export interface PublishResult {
  /** Handlers the event was delivered to. */
  readonly delivered: number;
  /** Handlers that threw, in delivery order; the others still ran. */
  readonly failures: readonly HandlerFailure[];
}

/** Removes a subscription; calling it twice is harmless. @public */
export type Unsubscribe = () => void;

/** A handler for one event type. @public */
export type EventHandler<E> = (event: E) => void;

/**
 * A typed publish/subscribe channel. Sessions listen on one for {@link ToolInvoked}.
 *
 * @public
 */
export interface EventBus<E extends BusEvent = PlankitEvent> {
  /** Calls `handler` for every event of `type`, until the returned function is called. */
  subscribe<K extends E['type']>(
    type: K,
    handler: EventHandler<Extract<E, { type: K }>>,
  ): Unsubscribe;
  /**
   * Delivers `event` itself (the same object, not a copy) synchronously to its subscribers,
   * in subscription order. Sessions rely on both to know which `invokeTool` call an event is.
   */
  publish(event: E): PublishResult;
}

type Listener = (event: BusEvent, failures: HandlerFailure[]) => void;

/**
 * The in-process {@link EventBus}: synchronous delivery in subscription order. A handler that
 * throws is reported in the {@link PublishResult} and does not stop the handlers after it.
 *
 * @public
 */
export class InProcessEventBus<E extends BusEvent = PlankitEvent> implements EventBus<E> {
  readonly #emitter: EventEmitter = new EventEmitter();

  subscribe<K extends E['type']>(
    type: K,
    handler: EventHandler<Extract<E, { type: K }>>,
  ): Unsubscribe {
    if (typeof handler !== 'function') {
      throw invalidArgument('InProcessEventBus.subscribe', 'handler', 'must be a function');
    }
    const listener: Listener = (event, failures) => {
      try {
        handler(event as Extract<E, { type: K }>);
      } catch (error) {
        failures.push(Object.freeze({ type, error }));
      }
    };
    this.#emitter.on(type, listener);
    return () => {
      this.#emitter.off(type, listener);
    };
  }

  publish(event: E): PublishResult {
    if (typeof event !== 'object' || event === null || typeof event.type !== 'string') {
      throw invalidArgument(
        'InProcessEventBus.publish',
        'event',
        'must be an object with a string type',
      );
    }
    const failures: HandlerFailure[] = [];
    const delivered = this.#emitter.listenerCount(event.type);
    this.#emitter.emit(event.type, event, failures);
    if (failures.length > 0) return Object.freeze({ delivered, failures: Object.freeze(failures) });
    // The common outcome, shared: publishing runs twice per tool call.
    let result = QUIET[delivered];
    if (result === undefined) {
      result = Object.freeze({ delivered, failures: NO_FAILURES });
      if (delivered < 64) QUIET[delivered] = result;
    }
    return result;
  }
}

const NO_FAILURES: readonly HandlerFailure[] = Object.freeze([]);
const QUIET: PublishResult[] = [];
