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
}

/** The longest delay a timer takes, in milliseconds: past it, `setTimeout` fires at once. */
export const MAX_TIMEOUT_MS: number = 2 ** 31 - 1;

/**
 * Checks a host adapter's options once, when it is built: every key is one `declared` (the
 * adapter's own set), `clock` is a function, `strict` a boolean or a function, and
 * `orderTimeoutMs` a non-negative number. `now`, which is only ever a number, gets its own
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
  const { clock, strict, orderTimeoutMs } = options as HostToolOptions;
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
