import type { AnyTool, Clock } from '@plankit/core';
import { type ArgumentError, clipText } from '@plankit/core/internal-unstable';
import { AdapterError } from '../adapter-error.ts';
import { type JsonSchema, toolJsonSchema } from '../tool-json-schema.ts';
import { checkHostOptions, type HostToolOptions, isStrict } from './host-tool-options.ts';
import type { StrictJsonSchema } from './strict-schema/to-strict-json-schema.ts';

/** One tool as a host offers it, decided once when the adapter is built. */
export interface HostTool {
  /** The plankit tool. */
  readonly tool: AnyTool;
  /** Whether it is offered in strict mode. */
  readonly strict: boolean;
  /** The JSON Schema the host advertises: the strict form when strict. */
  readonly schema: JsonSchema;
  /** Reads the model's arguments back: strict mode's nulls become absent; else unchanged. */
  readonly restore: (args: unknown) => unknown;
}

/** A host adapter's tools and options, checked and resolved by {@link prepareHostTools}. */
export interface HostTools {
  /** Each tool as the host offers it, in the same order. */
  readonly offered: readonly HostTool[];
  /** The time source of every call; `undefined`: each session's own. */
  readonly clock: Clock | undefined;
  /** Reads a call's parsed arguments back for the tool that runs it (see {@link HostTool}). */
  readonly prepare: (args: Readonly<Record<string, unknown>>, tool: AnyTool) => unknown;
}

/** What {@link prepareHostTools} needs to know about the host. */
export interface HostPreparation {
  /** The adapter's name, which its refusals start with. */
  readonly where: string;
  /** Every option key the adapter takes, declared once; any other key is refused. */
  readonly keys: ReadonlySet<string>;
  /**
   * The strict form of a tool's schema in this host (such as `openAIStrictSchema`), throwing
   * `AdapterError` `schema_unsupported` when the host cannot express it. `null` for a host
   * without strict mode: every tool is offered with its own schema, and the strict converter
   * stays out of that host's bundle.
   */
  readonly strictSchema: ((tool: AnyTool) => StrictJsonSchema) | null;
  /** Builds the error for a bad option; `PlankitError` `argument_invalid` by default. */
  readonly error?: ArgumentError | undefined;
}

const unchanged = (args: unknown): unknown => args;

/**
 * Refuses two tools of one name: the model sees one definition and calls it by name, so the
 * call could run the other tool (a user's `planning_mark_step` next to the planning one).
 * With `only`, just those names are checked: the tools a middleware adds to a list it does
 * not own.
 *
 * @throws AdapterError `tools_invalid` naming both entries and the name
 */
export function checkUniqueNames(
  tools: readonly unknown[],
  where: string,
  only?: ReadonlySet<string>,
): void {
  const seen = new Map<string, number>();
  for (let index = 0; index < tools.length; index++) {
    const name: unknown = (tools[index] as { name?: unknown } | undefined)?.name;
    if (typeof name !== 'string' || (only !== undefined && !only.has(name))) continue;
    const first = seen.get(name);
    if (first === undefined) {
      seen.set(name, index);
      continue;
    }
    throw new AdapterError(
      'tools_invalid',
      `${where}: tools[${index}] and tools[${first}] are both named ${JSON.stringify(clipText(name, 200))}: tool names must be unique, since the model calls a tool by its name.`,
      { field: `tools[${index}].name` },
    );
  }
}

/**
 * The one preparation every host adapter makes when it is built: it checks the tool list and
 * the options (unknown keys, the clock), decides each tool's strictness (the `strict` option,
 * else the tool's own trait) and computes the schema the host advertises, so a host adapter
 * only maps these into its SDK's shapes.
 *
 * @throws AdapterError `tools_invalid` when `tools` is not an array or two tools share a
 *   name (naming both); `schema_unsupported` when
 *   a strict tool's schema cannot be expressed in the host's strict mode
 * @throws the preparation's `error` for an unknown option or a clock that is not a function
 */
export function prepareHostTools(
  tools: readonly AnyTool[],
  options: HostToolOptions,
  host: HostPreparation,
): HostTools {
  if (!Array.isArray(tools))
    throw new AdapterError(
      'tools_invalid',
      `${host.where}: tools must be an array of plankit tools.`,
      { field: 'tools' },
    );
  const clock = checkHostOptions(host.where, options, host.keys, host.error);
  checkUniqueNames(tools, host.where);
  const toStrict = host.strictSchema;
  const restorers = new Map<AnyTool, HostTool['restore']>();
  const offered = tools.map((tool): HostTool => {
    if (toStrict === null || !isStrict(tool, options.strict))
      return Object.freeze({
        tool,
        strict: false,
        schema: toolJsonSchema(tool),
        restore: unchanged,
      });
    const converted = toStrict(tool);
    const restore = (args: unknown): unknown => converted.restore(args);
    restorers.set(tool, restore);
    return Object.freeze({ tool, strict: true, schema: converted.schema, restore });
  });
  return Object.freeze({
    offered: Object.freeze(offered),
    clock,
    prepare: (args: Readonly<Record<string, unknown>>, tool: AnyTool): unknown =>
      (restorers.get(tool) ?? unchanged)(args),
  });
}
