import type { RunnableConfig } from '@langchain/core/runnables';

/**
 * What a LangChain tool call tells a session resolver about its conversation, read from the
 * `RunnableConfig` LangGraph hands the tool: the thread, the (sub)graph and the checkpoint the
 * call runs in.
 *
 * @public
 */
export interface LangChainContext {
  /** `config.configurable.thread_id`: the conversation; `undefined` when the run names none. */
  readonly threadId: string | undefined;
  /**
   * The (sub)graph the call runs in, as LangGraph names it in `getSubgraphs`: `undefined` at
   * the top level of a graph, the parent graph's node names joined by `|` inside a subgraph
   * (`'research'`, `'research|review'`). Stable from call to call: LangGraph's per-task
   * segments (`tools:<task id>`, and the counter of a node's second subgraph) are left out,
   * and a functional-API `task` runs in its entrypoint's graph (`undefined` at the top level).
   * Outside a graph, `configurable.checkpoint_ns` as the caller gave it.
   */
  readonly checkpointNs: string | undefined;
  /**
   * The checkpoint the call's graph step runs on, in the call's (sub)graph: LangGraph clears
   * `configurable.checkpoint_id` in a task's config and keeps the id in
   * `configurable.checkpoint_map`, under the (sub)graph's namespace. At the top level, pass it
   * back as `configurable.checkpoint_id` (with `thread_id`) to `getState` to read the state the
   * call ran on (with a checkpointer that saved it). It names a new checkpoint
   * every step; on a fork (a run invoked with the `checkpoint_id` of an earlier state) it is the
   * checkpoint LangGraph writes for the fork, whose parent is the one the run named. Outside a
   * graph, `configurable.checkpoint_id` as the caller gave it, or `undefined`.
   */
  readonly checkpointId: string | undefined;
  /** The whole config, for resolvers that read more (`configurable.user_id`, metadata). */
  readonly config: RunnableConfig | undefined;
}

interface Configurable {
  readonly thread_id?: unknown;
  readonly checkpoint_ns?: unknown;
  readonly checkpoint_id?: unknown;
  readonly checkpoint_map?: unknown;
}

// LangGraph's namespace format (@langchain/langgraph, pregel/algo and utils/config): levels
// joined by `|`, each level `node:<task id>`, plus a bare counter level when one task runs a
// second subgraph.
const SEPARATOR = '|';
const COUNTER = /^\d+$/;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * Where a task's config places the call: the namespace of the graph running the task (the
 * task's own namespace without its last level) and that graph's checkpoint. `undefined` when
 * the config is not a LangGraph task's (no checkpoint map entry for that namespace).
 */
function taskPlace(fields: Configurable): { graph: string; checkpointId: string } | undefined {
  const namespace = fields.checkpoint_ns;
  const map = fields.checkpoint_map;
  if (typeof namespace !== 'string' || namespace === '') return undefined;
  if (typeof map !== 'object' || map === null) return undefined;
  const entries = map as Record<string, unknown>;
  const entry = (key: string) => (Object.hasOwn(entries, key) ? text(entries[key]) : undefined);
  let graph = enclosing(namespace);
  const checkpointId = entry(graph);
  if (checkpointId === undefined) return undefined;
  // A functional-API task runs in its entrypoint's graph: LangGraph files it under the calling
  // node's namespace, mapped to that same graph's checkpoint. Such levels are no subgraph.
  while (graph !== '') {
    const up = enclosing(graph);
    if (entry(up) !== checkpointId) break;
    graph = up;
  }
  return { graph, checkpointId };
}

/** The namespace one level up: without its last level (`''` above the top). */
function enclosing(namespace: string): string {
  const cut = namespace.lastIndexOf(SEPARATOR);
  return cut === -1 ? '' : namespace.slice(0, cut);
}

/** A graph namespace without its task ids and counters, as LangGraph's `recastCheckpointNamespace`. */
function stableNamespace(graph: string): string | undefined {
  const names = graph
    .split(SEPARATOR)
    .filter((level) => !COUNTER.test(level))
    .map((level) => level.split(':')[0] ?? level);
  return text(names.join(SEPARATOR));
}

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
  const place = taskPlace(fields);
  return {
    threadId: text(fields.thread_id),
    checkpointNs: place === undefined ? text(fields.checkpoint_ns) : stableNamespace(place.graph),
    checkpointId: place === undefined ? text(fields.checkpoint_id) : place.checkpointId,
    config: config as RunnableConfig | undefined,
  };
}
