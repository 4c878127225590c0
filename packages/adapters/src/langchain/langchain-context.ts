import type { RunnableConfig } from '@langchain/core/runnables';

/**
 * What a LangChain tool call tells a session resolver about its conversation, read from the
 * `RunnableConfig` LangGraph hands the tool: the thread and the checkpoint it runs in.
 *
 * @public
 */
export interface LangChainContext {
  /** `config.configurable.thread_id`: the conversation; `undefined` when the run names none. */
  readonly threadId: string | undefined;
  /** `config.configurable.checkpoint_ns`: the (sub)graph namespace; `undefined` at the top level. */
  readonly checkpointNs: string | undefined;
  /** `config.configurable.checkpoint_id`: the checkpoint the run started from, when the host gave one. */
  readonly checkpointId: string | undefined;
  /** The whole config, for resolvers that read more (`configurable.user_id`, metadata). */
  readonly config: RunnableConfig | undefined;
}

interface Configurable {
  readonly thread_id?: unknown;
  readonly checkpoint_ns?: unknown;
  readonly checkpoint_id?: unknown;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * The {@link LangChainContext} of a tool call's config. A thread id that is not a non-empty
 * string counts as missing (it is never turned into a shared default).
 */
export function langChainContext(config: unknown): LangChainContext {
  const configurable =
    typeof config === 'object' && config !== null
      ? (config as { configurable?: unknown }).configurable
      : undefined;
  const fields: Configurable =
    typeof configurable === 'object' && configurable !== null ? configurable : {};
  return {
    threadId: text(fields.thread_id),
    checkpointNs: text(fields.checkpoint_ns),
    checkpointId: text(fields.checkpoint_id),
    config: config as RunnableConfig | undefined,
  };
}
