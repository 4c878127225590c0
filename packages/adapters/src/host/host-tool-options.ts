import type { AnyTool, Clock } from '@plankit/core';
import {
  type ArgumentError,
  checkOptionKeys,
  invalidArgument,
} from '@plankit/core/internal-unstable';

/**
 * Strict mode for every tool (`true` or `false`), or decided per tool. Absent, each tool's own
 * `strict` trait decides (plankit's planning tools declare it; a tool that declares none is
 * not strict).
 *
 * @public
 */
export type StrictOption = boolean | ((tool: AnyTool) => boolean);

/**
 * What a host adapter's tool result means for a pool's conversation (`SessionPool.resolver`):
 *
 * - `'sync'` (the default): the result reaches the host only once the store has acknowledged
 *   the call's change, so a result the model reads means "stored"; a failed write comes back
 *   as the refusal (`session_store_failed`, `session_conflict`) instead of the tool's result.
 * - `'async'`: the result comes back as soon as the call has run; the pool's attachment writes
 *   it in the background (batched with the calls after it), and a crash before the write
 *   loses a change the model was told about. `SessionPool.flush` or `run` make it durable.
 *
 * With a fixed `Session` there is no pool to wait on: the app that attached it calls its
 * attachment's `flush`. Named after LangGraph's durability modes; there is no `'exit'`, since
 * a host call has no end of run to defer the write to (a pool writes when a copy is evicted
 * or closed, which is what `'async'` already gives).
 *
 * @public
 */
export type Durability = 'sync' | 'async';

/** The durability of a host call when its adapter names none. @public */
export const DEFAULT_DURABILITY: Durability = 'sync';

/**
 * The options every host adapter names the same way: each adapter takes the ones its host has
 * a use for (a host without strict mode takes no `strict`), beside its own, and refuses any
 * key it does not declare.
 *
 * @public
 */
export interface HostToolOptions {
  /**
   * Strict mode, for all tools or per tool: the tool is offered with a schema rewritten for it
   * (every key required, optional ones nullable, objects closed), and the model's `null` for
   * an optional field is read back as absent. By default the tool's own `strict` trait.
   */
  readonly strict?: StrictOption | undefined;
  /** Where each call's time comes from, in epoch milliseconds; the session's clock by default. */
  readonly clock?: Clock | undefined;
  /**
   * How long a call waits for an earlier call of its model response that the host announced
   * but has not run (one awaiting approval, or held by a guardrail), in milliseconds; 30,000
   * by default.
   */
  readonly orderTimeoutMs?: number | undefined;
  /**
   * Whether a tool result waits for the store (`'sync'`, the default) or comes back before the
   * change is written (`'async'`): see {@link Durability}. Only a pool's conversations are
   * written by plankit; with a fixed `Session` the option changes nothing.
   */
  readonly durability?: Durability | undefined;
}

/** The longest delay a timer takes, in milliseconds: past it, `setTimeout` fires at once. */
export const MAX_TIMEOUT_MS: number = 2 ** 31 - 1;

/**
 * Checks a host adapter's options once, when it is built: every key is one `declared` (the
 * adapter's own set), `clock` is a function, `strict` a boolean or a function, and
 * `orderTimeoutMs` a non-negative number, `durability` `'sync'` or `'async'`. `now`, which is only ever a number, gets its own
 * refusal pointing at `clock`; so does `text` in an adapter that converts tools it is given,
 * pointing at the tools' own option. Returns the clock (`undefined`: the session's decides).
 *
 * @throws the `error` (a `PlankitError` `argument_invalid` by default) naming the field
 */
export function checkHostOptions(
  where: string,
  options: object,
  declared: ReadonlySet<string>,
  error: ArgumentError = invalidArgument,
): Clock | undefined {
  if (Object.hasOwn(options, 'now') && !declared.has('now'))
    throw error(where, 'options.now', 'is not an option; a time source is options.clock');
  // The text mode is decided where the tools are built; an adapter converting them could only
  // disagree with it.
  if (Object.hasOwn(options, 'text') && !declared.has('text'))
    throw error(
      where,
      'options.text',
      "is not an option; the text mode is the tools' own: createPlanningTools(session, { text })",
    );
  checkOptionKeys(where, options, declared, 'options.', error);
  const { clock, strict, orderTimeoutMs, durability } = options as HostToolOptions;
  if (durability !== undefined && durability !== 'sync' && durability !== 'async')
    throw error(where, 'options.durability', "must be 'sync' or 'async'");
  if (clock !== undefined && typeof clock !== 'function')
    throw error(where, 'options.clock', 'must be a function returning epoch milliseconds');
  if (strict !== undefined && typeof strict !== 'boolean' && typeof strict !== 'function')
    throw error(where, 'options.strict', 'must be a boolean or a function of the tool');
  if (
    orderTimeoutMs !== undefined &&
    !(typeof orderTimeoutMs === 'number' && orderTimeoutMs >= 0 && orderTimeoutMs <= MAX_TIMEOUT_MS)
  )
    throw error(
      where,
      'options.orderTimeoutMs',
      'must be a number of milliseconds from 0 to 2^31 - 1',
    );
  return clock;
}

/** Whether `tool` is strict under `strict`: the option, else the tool's own trait. */
export function isStrict(tool: AnyTool, strict: StrictOption | undefined): boolean {
  if (typeof strict === 'function') return strict(tool);
  return strict ?? tool.traits?.strict === true;
}
