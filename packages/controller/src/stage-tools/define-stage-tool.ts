import { isRecord } from '@plankit/core/internal-unstable';
import * as z from 'zod';
import { ControllerError } from '../controller-error.ts';
import { unknownKey } from '../internal/checks.ts';
import type { InteractionPolicy } from '../policy/interaction-policy.ts';

/**
 * What every stage tool returns (the stage tool contract): JSON the model reads.
 *
 * @typeParam D - the data
 * @public
 */
export interface StageToolOutput<D = unknown> {
  /** Whether the tool did its job. */
  readonly ok: boolean;
  /** How sure it is, from 0 to 1 (always 0 on failure). */
  readonly confidence: number;
  /** Why, one sentence each. */
  readonly explanations: readonly string[];
  /** The result (null on failure). */
  readonly data: D | null;
}

/** What a stage tool's `run` gets besides its input. @public */
export interface StageToolContext {
  /** The tool's name. */
  readonly toolName: string;
  /** The model the agent runs on. */
  readonly modelId: string;
  /** The interaction policy in force, or null. */
  readonly policy: InteractionPolicy | null;
  /** The artifacts present. */
  readonly artifacts: ReadonlySet<string>;
}

/**
 * A tool the agent uses inside a stage, with what it needs and what it makes. Build one with
 * {@link defineStageTool}; run it with a {@link ToolExecutor}.
 *
 * @typeParam I - the input after parsing
 * @typeParam D - the output's data
 * @public
 */
export interface StageTool<I = unknown, D = unknown> {
  /** Matches `^[a-z0-9_-]{1,64}$`. */
  readonly name: string;
  /**
   * 1-200 printable ASCII characters, in every text mode: a tool definition follows core's
   * `defineTool` rule; the Unicode text mode is for plan text, not definitions.
   */
  readonly description: string;
  /** The schema the input is parsed with. */
  readonly input: z.ZodType<I, unknown>;
  /** Artifacts that must be present before it runs. */
  readonly prerequisites: readonly string[];
  /** Artifacts it makes. */
  readonly produces: readonly string[];
  /** Runs the tool. Method syntax keeps tools assignable to {@link AnyStageTool}. */
  run(input: I, context: StageToolContext): StageToolOutput<D> | Promise<StageToolOutput<D>>;
}

/** A stage tool of any input and data, for lists of tools. @public */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous tool list needs the widest types
export type AnyStageTool = StageTool<any, any>;

/** What {@link defineStageTool} takes. @public */
export interface StageToolDefinition<S extends z.ZodType, D> {
  /** Matches `^[a-z0-9_-]{1,64}$`. */
  readonly name: string;
  /**
   * 1-200 printable ASCII characters, in every text mode: a tool definition follows core's
   * `defineTool` rule; the Unicode text mode is for plan text, not definitions.
   */
  readonly description: string;
  /** A zod schema; use `z.strictObject` so unknown keys are refused. */
  readonly input: S;
  /** Artifacts that must be present (distinct names, 1-64 characters `[A-Za-z0-9_.:-]`). */
  readonly prerequisites?: readonly string[] | undefined;
  /** Artifacts it makes (same rules). */
  readonly produces?: readonly string[] | undefined;
  /** The implementation: pure of anything but its input, policy and model, so it can be memoised. */
  readonly run: (
    input: z.output<S>,
    context: StageToolContext,
  ) => StageToolOutput<D> | Promise<StageToolOutput<D>>;
}

const NAME = /^[a-z0-9_-]{1,64}$/;
const ASCII = /^[\x20-\x7e]{1,200}$/;
const ARTIFACT = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;
const KEYS: ReadonlySet<string> = new Set([
  'name',
  'description',
  'input',
  'prerequisites',
  'produces',
  'run',
]);
const tools = new WeakSet<object>();

function fail(field: string, rule: string): ControllerError {
  return new ControllerError('definition_invalid', `defineStageTool: ${field} ${rule}.`, { field });
}

function artifacts(value: unknown, field: string): readonly string[] {
  if (value === undefined) return Object.freeze([]);
  if (!Array.isArray(value)) throw fail(field, 'must be an array of artifact names');
  const seen = new Set<string>();
  for (const [index, name] of value.entries()) {
    if (typeof name !== 'string' || !ARTIFACT.test(name)) {
      throw fail(`${field}[${index}]`, `must match ${ARTIFACT.source}`);
    }
    if (seen.has(name)) throw fail(`${field}[${index}]`, `repeats ${name}`);
    seen.add(name);
  }
  return Object.freeze([...seen]);
}

/**
 * Defines a stage tool, checking the definition at once.
 *
 * @throws ControllerError `definition_invalid` naming the field: a bad name or description, a
 *   non-zod input, bad artifact names, a missing `run`, an unknown key
 * @example
 * ```ts
 * const grammar = defineStageTool({
 *   name: 'grammar_validator',
 *   description: 'Check the outline against the planning grammar.',
 *   input: z.strictObject({ outline_id: z.string() }),
 *   prerequisites: ['plan_outline'],
 *   produces: ['outline_report'],
 *   run: ({ outline_id }) => ({ ok: true, confidence: 0.9, explanations: [], data: { outline_id, violations: [] } }),
 * });
 * ```
 * @public
 */
export function defineStageTool<S extends z.ZodType, D>(
  definition: StageToolDefinition<S, D>,
): StageTool<z.output<S>, D> {
  if (!isRecord(definition)) throw fail('definition', 'must be an object');
  const extra = unknownKey(definition, KEYS);
  if (extra !== undefined) throw fail(extra, 'is not a known key');
  const { name, description, input, run } = definition;
  if (typeof name !== 'string' || !NAME.test(name)) throw fail('name', `must match ${NAME.source}`);
  if (typeof description !== 'string' || !ASCII.test(description)) {
    throw fail('description', 'must be 1-200 printable ASCII characters');
  }
  if (!(input instanceof z.ZodType)) throw fail('input', 'must be a zod schema');
  if (typeof run !== 'function') throw fail('run', 'must be a function');
  const tool: StageTool<z.output<S>, D> = Object.freeze({
    name,
    description,
    input: input as z.ZodType<z.output<S>, unknown>,
    prerequisites: artifacts(definition.prerequisites, 'prerequisites'),
    produces: artifacts(definition.produces, 'produces'),
    run,
  });
  tools.add(tool);
  return tool;
}

/** True for a tool {@link defineStageTool} made. */
export function isStageTool(value: unknown): value is AnyStageTool {
  return typeof value === 'object' && value !== null && tools.has(value);
}
