import * as z from 'zod';
import type { DataType } from './define-data-type.ts';
import { dataTypeName } from './define-data-type.ts';
import { unknownOption } from './internal/check-option-keys.ts';
import { isRecord } from './internal/is-record.ts';
import { PlankitError } from './plankit-error.ts';
import type { Session } from './session.ts';

/** What a handler gets besides its parameters. @public */
export interface ToolContext {
  /** The session the tool runs against. */
  readonly session: Session;
  /** When, in epoch milliseconds: handlers use this rather than reading a clock. */
  readonly now: number;
  /** The tool's name. */
  readonly toolName: string;
}

/** What a handler returns when it accepts the call. @public */
export interface ToolReturn<R> {
  /** The message the model reads. */
  readonly message: string;
  /** The normalised value; reduced into the session when the tool has a `resultType`. */
  readonly value: R;
}

/**
 * A tool's implementation. Throw a {@link ToolValidationError} to refuse the input with a
 * message the model can act on.
 *
 * @public
 */
export type ToolHandler<P, R> = (
  params: P,
  context: ToolContext,
) => ToolReturn<R> | Promise<ToolReturn<R>>;

/**
 * Facts about a tool that hosts need: whether its schema is sent in strict mode, a title to
 * show people, and the hints MCP calls annotations. Declared once on the tool, read by every
 * adapter; an undeclared trait leaves the host's default. Hints only: a client must not trust
 * them for safety.
 *
 * @public
 */
export interface ToolTraits {
  /** Send the schema in strict mode (OpenAI, Anthropic, AI SDK, Agents SDK); `false` if absent. */
  readonly strict?: boolean;
  /** A short title for people, 1-100 characters without control characters. */
  readonly title?: string;
  /** The tool does not change its environment; never with a `resultType` (that changes the session). */
  readonly readOnly?: boolean;
  /** The tool may overwrite or remove state (meaningful when not read-only). */
  readonly destructive?: boolean;
  /** Repeating a call with the same arguments has no further effect (when not read-only). */
  readonly idempotent?: boolean;
  /** The tool reaches outside the session (the web, other systems). */
  readonly openWorld?: boolean;
  /**
   * What a planning tool does with the session's plan, so hosts can narrow, gate or describe
   * planning tools without knowing their names: `'read'` shows it (its value is the plan),
   * `'start'` can begin one, `'edit'` works on its open steps, `'clear'` abandons it. Absent:
   * the tool is not a planning tool.
   */
  readonly plan?: 'read' | 'start' | 'edit' | 'clear';
}

/**
 * A tool: a name and description for the model, a zod schema for its parameters, and a
 * handler. Build one with {@link defineTool}; run it with {@link invokeTool}.
 *
 * @typeParam P - the parameters after parsing
 * @typeParam R - the result value
 * @typeParam I - the parameters as the model sends them
 * @public
 */
export interface Tool<P = unknown, R = unknown, I = P> {
  /** Matches `^[a-z0-9_-]{1,64}$`. */
  readonly name: string;
  /** 1-200 ASCII characters. */
  readonly description: string;
  /** The schema the model's arguments are parsed with. */
  readonly parameters: z.ZodType<P, I>;
  /** The data type result values are dispatched as, or `null` when the tool only reads. */
  readonly resultType: DataType<R> | null;
  /** Whether hosts may override the description (prompt-override tooling); `false` by default. */
  readonly acceptsOverrides: boolean;
  /** What hosts need to know about the tool, frozen; `{}` when none were declared. */
  readonly traits: ToolTraits;
  /** Runs the tool; see {@link ToolHandler}. Method syntax keeps tools assignable to `AnyTool`. */
  handler(params: P, context: ToolContext): ToolReturn<R> | Promise<ToolReturn<R>>;
}

/** A tool of any parameter and result type, for lists of tools. @public */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous tool list needs the widest types
export type AnyTool = Tool<any, any, any>;

/** What {@link defineTool} takes. @public */
export interface ToolDefinition<S extends z.ZodType, R> {
  /** Matches `^[a-z0-9_-]{1,64}$`. */
  readonly name: string;
  /** 1-200 ASCII characters. */
  readonly description: string;
  /** A zod v4 schema; use `z.strictObject` so unknown keys are refused. */
  readonly parameters: S;
  /** The data type result values are dispatched as; omit for tools that only read. */
  readonly resultType?: DataType<R> | null | undefined;
  /** Whether hosts may override the description; `false` by default. */
  readonly acceptsOverrides?: boolean | undefined;
  /** What hosts need to know about the tool; see {@link ToolTraits}. */
  readonly traits?: ToolTraits | undefined;
  /** The implementation. */
  readonly handler: ToolHandler<z.output<S>, R>;
}

const NAME = /^[a-z0-9_-]{1,64}$/;
const ASCII = /^[\x20-\x7e]{1,200}$/;
const KEYS = new Set([
  'name',
  'description',
  'parameters',
  'resultType',
  'handler',
  'acceptsOverrides',
  'traits',
]);
const FLAGS = ['strict', 'readOnly', 'destructive', 'idempotent', 'openWorld'] as const;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is about control characters
const TITLE = /^[^\u0000-\u001f\u007f]{1,100}$/u;
const PLAN_ROLES = ['read', 'start', 'edit', 'clear'];
const NO_TRAITS: ToolTraits = Object.freeze({});

function definitionError(field: string, rule: string): PlankitError {
  return new PlankitError('tool_definition_invalid', `defineTool: ${field} ${rule}.`, { field });
}

function checkTraits(traits: unknown, hasResult: boolean): ToolTraits {
  if (traits === undefined) return NO_TRAITS;
  if (!isRecord(traits)) throw definitionError('traits', 'must be an object');
  const out: Record<string, boolean | string> = {};
  for (const [key, value] of Object.entries(traits)) {
    if (value === undefined) continue;
    if (key === 'title') {
      if (typeof value !== 'string' || !TITLE.test(value))
        throw definitionError(
          'traits.title',
          'must be 1-100 characters without control characters',
        );
    } else if (key === 'plan') {
      if (typeof value !== 'string' || !PLAN_ROLES.includes(value))
        throw definitionError('traits.plan', "must be 'read', 'start', 'edit' or 'clear'");
    } else if (!(FLAGS as readonly string[]).includes(key)) {
      throw definitionError(`traits.${key}`, 'is not a known trait');
    } else if (typeof value !== 'boolean') {
      throw definitionError(`traits.${key}`, 'must be a boolean');
    }
    out[key] = value;
  }
  if (out['readOnly'] === true && hasResult)
    throw definitionError('traits.readOnly', 'must not be true for a tool with a resultType');
  return Object.freeze(out) as ToolTraits;
}

/**
 * Defines a tool, checking the definition at once.
 *
 * @throws PlankitError `tool_definition_invalid` naming the field: a bad name, description,
 *   schema, handler, result type or trait, or an unknown key
 * @example
 * ```ts
 * const echo = defineTool({
 *   name: 'echo',
 *   description: 'Repeat the text back.',
 *   parameters: z.strictObject({ text: z.string() }),
 *   traits: { strict: true, title: 'Echo', readOnly: true },
 *   handler: ({ text }) => ({ message: text, value: { text } }),
 * });
 * ```
 * @public
 */
export function defineTool<S extends z.ZodType, R>(
  definition: ToolDefinition<S, R>,
): Tool<z.output<S>, R, z.input<S>> {
  if (typeof definition !== 'object' || definition === null) {
    throw definitionError('definition', 'must be an object');
  }
  const extra = unknownOption(definition, KEYS);
  if (extra !== undefined) throw definitionError(extra, 'is not a known key');
  const {
    name,
    description,
    parameters,
    handler,
    resultType = null,
    acceptsOverrides = false,
    traits,
  } = definition;
  if (typeof name !== 'string' || !NAME.test(name))
    throw definitionError('name', `must match ${NAME.source}`);
  if (typeof description !== 'string' || !ASCII.test(description)) {
    throw definitionError('description', 'must be 1-200 printable ASCII characters');
  }
  if (!(parameters instanceof z.ZodType))
    throw definitionError('parameters', 'must be a zod schema');
  if (typeof handler !== 'function') throw definitionError('handler', 'must be a function');
  if (resultType !== null) dataTypeName(resultType);
  if (typeof acceptsOverrides !== 'boolean')
    throw definitionError('acceptsOverrides', 'must be a boolean');
  const checkedTraits = checkTraits(traits, resultType !== null);
  // The definition's own generics guarantee the schema's output is what the handler takes.
  const schema = parameters as z.ZodType<z.output<S>, z.input<S>>;
  return Object.freeze({
    name,
    description,
    parameters: schema,
    resultType,
    acceptsOverrides,
    traits: checkedTraits,
    handler,
  });
}
