import { isPlanningToolName } from './plankit-tool-of.ts';

/**
 * What a session resolver of the AI SDK adapter gets for one call: the app's own context,
 * where the host put it.
 *
 * - In a tool's `execute` (and `onInputAvailable`): `experimental_context` in `ai` 6; the
 *   tool's typed `context` in `ai` 7 (its `toolsContext` entry, see {@link toAISDKToolsContext}).
 * - In {@link planReminderStep} and {@link planFinished}: `experimental_context` in `ai` 6;
 *   `runtimeContext` in `ai` 7.
 *
 * `C` is the app's context type, as it passes it; `context` is `undefined` when the call was
 * given none.
 *
 * @example
 * ```ts
 * const session = pool.resolver(({ context }: AISDKContext<{ chatId: string }>) => context?.chatId);
 * ```
 * @public
 */
export interface AISDKContext<C = unknown> {
  /** The app's context of the call; `undefined` when it gave none. */
  readonly context: C | undefined;
}

/** The app's context of a tool call: `ai` 7's `context` when given, else `ai` 6's `experimental_context`. */
export function toolCallContext<C>(call: {
  readonly context?: unknown;
  readonly experimental_context?: unknown;
}): AISDKContext<C> {
  const context = call.context !== undefined ? call.context : call.experimental_context;
  return { context: context as C | undefined };
}

const isEmptyObject = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  Object.getPrototypeOf(value) === Object.prototype &&
  Object.keys(value).length === 0;

/** The entry of `ai` 7's `toolsContext` a plankit tool received, if any. */
function toolsEntry(toolsContext: unknown): unknown {
  if (typeof toolsContext !== 'object' || toolsContext === null) return undefined;
  const entries = Object.entries(toolsContext);
  const planning = entries.find(([name, value]) => isPlanningToolName(name) && value !== undefined);
  return (planning ?? entries.find(([, value]) => value !== undefined))?.[1];
}

/**
 * The app's context of a step: `ai` 7's `runtimeContext` when given, else `ai` 6's
 * `experimental_context`, else the context `ai` 7's `toolsContext` gave the planning tools.
 * `ai` 7 defaults `runtimeContext` to `{}`, which counts as not given, so an app that passes
 * only `toolsContext` still names its conversation to `planReminderStep` and `planFinished`.
 */
export function stepContext<C>(
  step:
    | {
        readonly runtimeContext?: unknown;
        readonly experimental_context?: unknown;
        readonly toolsContext?: unknown;
      }
    | undefined,
): AISDKContext<C> {
  const runtime = step?.runtimeContext;
  const context =
    runtime !== undefined && !isEmptyObject(runtime)
      ? runtime
      : step?.experimental_context !== undefined
        ? step.experimental_context
        : (toolsEntry(step?.toolsContext) ?? (runtime === undefined ? undefined : runtime));
  return { context: context as C | undefined };
}
