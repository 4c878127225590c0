import { MAX_TOOL_ISSUES } from '@plankit/core/constants';
import {
  checkOptionKeys,
  clipText,
  deepFreeze,
  escapeControl,
  isRecord,
  refusalText,
  unstorableText,
} from '@plankit/core/internal-unstable';
import * as z from 'zod';
import { ControllerError } from '../controller-error.ts';
import { canonicalJson } from '../internal/canonical-json.ts';
import { controllerArgument, isText, isUnit } from '../internal/checks.ts';
import type { InteractionPolicy } from '../policy/interaction-policy.ts';
import { checkPolicy } from '../policy/resolve-policy.ts';
import {
  type AnyStageTool,
  isStageTool,
  type StageTool,
  type StageToolOutput,
} from './define-stage-tool.ts';

/** What a {@link ToolExecutor} run resolves to: the tool's JSON plus what the host needs. @public */
export interface StageToolResult<D = unknown> extends StageToolOutput<D> {
  /** The tool asked for. */
  readonly tool: string;
  /** True when the answer came from the session's memo, without running the tool. */
  readonly cached: boolean;
  /** The memo key (canonical JSON of input, model, policy and tool), or null when not memoisable. */
  readonly key: string | null;
  /** Why it failed, for the host: `tool_unknown`, `tool_prerequisite_missing`, `tool_input_invalid`, `tool_failed`, `tool_output_invalid`; null on success. */
  readonly error: ControllerError | null;
}

/** Options of {@link createToolExecutor}. @public */
export interface ToolExecutorOptions {
  /** The stage tools, made by `defineStageTool`, with distinct names. */
  readonly tools: readonly AnyStageTool[];
  /** The model id (and version) that keys the memo. */
  readonly modelId: string;
  /** The interaction policy in force, part of the memo key; null by default. */
  readonly policy?: InteractionPolicy | null | undefined;
}

/** Options of one {@link ToolExecutor} run. @public */
export interface ToolRunOptions {
  /** The names of the artifacts present. */
  readonly artifacts: Iterable<string>;
  /** A policy for this run (a session override), instead of the executor's. */
  readonly policy?: InteractionPolicy | null | undefined;
}

/** Runs stage tools for one session, memoising successful results. @public */
export interface ToolExecutor {
  /** The tools by name. */
  readonly tools: ReadonlyMap<string, AnyStageTool>;
  /**
   * Runs a tool by name (or by the tool itself, for typed data): checks prerequisites, parses
   * the input, answers from the memo or runs the tool. Resolves to a failure rather than
   * rejecting for anything the model or the tool got wrong, including input or output text no
   * store can hold (U+0000, lone surrogates). A failure's message stays under 2,000
   * characters (the first explanations, then `and N more`); `explanations` lists them all.
   *
   * @throws ControllerError `argument_invalid` (as a rejection) for bad options
   */
  run<I, D>(
    tool: StageTool<I, D>,
    input: unknown,
    options: ToolRunOptions,
  ): Promise<StageToolResult<D>>;
  /** Runs a tool by name; see the other overload. */
  run(tool: string, input: unknown, options: ToolRunOptions): Promise<StageToolResult>;
}

const OPTION_KEYS: ReadonlySet<string> = new Set(['tools', 'modelId', 'policy']);
const RUN_KEYS: ReadonlySet<string> = new Set(['artifacts', 'policy']);

function argument(field: string, rule: string): ControllerError {
  return new ControllerError('argument_invalid', `createToolExecutor: ${field} ${rule}.`, {
    field,
  });
}

// Room for listed explanations, leaving the rest of the 2,000 characters for the count.
const LISTED_BUDGET = 1800;
// One schema issue as the model reads it, as core's invoke-tool clips them.
const ISSUE_LIMIT = 200;

/**
 * The refusal text of `explanations`: as many as fit, then `and N more`, so it stays under
 * 2,000 characters however many there are; the result's `explanations` keeps them all.
 */
function refusalOf(explanations: readonly string[], total = explanations.length): string {
  let message = '';
  let listed = 0;
  for (const text of explanations) {
    const next = listed === 0 ? text : `${message} ${text}`;
    if (listed > 0 && next.length > LISTED_BUDGET) break;
    message = clipText(next, LISTED_BUDGET);
    listed++;
  }
  if (listed < total) message += ` ... and ${total - listed} more.`;
  return refusalText(message);
}

function failed(
  tool: string,
  code: ControllerError['code'],
  explanations: readonly string[],
  key: string | null,
  cause?: unknown,
  omitted = 0,
): StageToolResult<never> {
  // With `omitted`, the last explanation only counts the issues not kept; the message counts them.
  const listed = omitted === 0 ? explanations : explanations.slice(0, -1);
  const error = new ControllerError(code, refusalOf(listed, listed.length + omitted), { cause });
  return Object.freeze({
    ok: false,
    confidence: 0,
    explanations: Object.freeze([...explanations]),
    data: null,
    tool,
    cached: false,
    key,
    error,
  });
}

function outputProblem(output: unknown): string | null {
  if (!isRecord(output)) return 'it must be { ok, confidence, explanations, data }';
  if (typeof output['ok'] !== 'boolean') return 'ok must be a boolean';
  if (!isUnit(output['confidence'])) return 'confidence must be a number from 0 to 1';
  const explanations = output['explanations'];
  if (!Array.isArray(explanations) || !explanations.every((item) => typeof item === 'string')) {
    return 'explanations must be an array of strings';
  }
  if (!('data' in output)) return 'data is missing';
  return null;
}

async function execute(
  tool: AnyStageTool,
  input: unknown,
  context: Parameters<AnyStageTool['run']>[1],
  key: string | null,
): Promise<StageToolResult> {
  let output: unknown;
  try {
    output = await tool.run(input, context);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const explanation = refusalText(`Tool '${tool.name}' failed: ${reason}`);
    return failed(tool.name, 'tool_failed', [explanation], key, cause);
  }
  const problem = outputProblem(output);
  if (problem !== null) {
    return failed(
      tool.name,
      'tool_output_invalid',
      [`Tool '${tool.name}' returned malformed output: ${problem}.`],
      key,
    );
  }
  const { ok, confidence, explanations, data } = output as StageToolOutput;
  // Hosts store what a tool returns; text no store can hold is the tool's fault.
  const unstorable = unstorableText(explanations, 'explanations') ?? unstorableText(data, 'data');
  if (unstorable !== undefined) {
    return failed(
      tool.name,
      'tool_output_invalid',
      [
        refusalText(
          `Tool '${tool.name}' returned output no store can hold: ${clipText(unstorable.path, 400)} ${unstorable.rule}.`,
        ),
      ],
      key,
    );
  }
  return Object.freeze({
    ok,
    confidence,
    explanations: Object.freeze([...explanations]),
    data: deepFreeze(data),
    tool: tool.name,
    cached: false,
    key,
    error: ok
      ? null
      : new ControllerError('tool_failed', `Tool '${tool.name}' reported a failure.`),
  });
}

/**
 * Creates the executor of one session's stage tools: it checks each
 * tool's prerequisites against the artifacts present, parses the input with the tool's schema,
 * turns exceptions and malformed outputs into `{ ok: false, confidence: 0, explanations, data:
 * null }`, and memoises successful results by the canonical JSON of input, model id and
 * policy (concurrent identical calls share one run).
 *
 * @throws ControllerError `argument_invalid` naming the option: tools not made by
 *   `defineStageTool`, repeated names, an empty model id, an invalid policy
 * @example
 * ```ts
 * const executor = createToolExecutor({ tools: [patternSelector, grammar], modelId: 'my-model-2025-01' });
 * const result = await executor.run('grammar_validator', args, { artifacts: ['plan_outline'] });
 * if (!result.ok) console.log(result.explanations);
 * ```
 * @public
 */
export function createToolExecutor(options: ToolExecutorOptions): ToolExecutor {
  if (!isRecord(options)) throw argument('options', 'must be an object');
  checkOptionKeys('createToolExecutor', options, OPTION_KEYS, 'options.', controllerArgument);
  const { tools, modelId, policy = null } = options;
  if (!Array.isArray(tools)) throw argument('options.tools', 'must be an array of stage tools');
  const byName = new Map<string, AnyStageTool>();
  for (const [index, tool] of tools.entries()) {
    if (!isStageTool(tool))
      throw argument(`options.tools[${index}]`, 'must be made by defineStageTool');
    if (byName.has(tool.name))
      throw argument(`options.tools[${index}]`, `repeats the name ${tool.name}`);
    byName.set(tool.name, tool);
  }
  if (!isText(modelId, 256)) throw argument('options.modelId', 'must be 1-256 characters');
  const basePolicy = policy === null ? null : checkPolicy('createToolExecutor', policy);
  const memo = new Map<string, Promise<StageToolResult>>();

  async function run(
    requested: unknown,
    input: unknown,
    runOptions: ToolRunOptions,
  ): Promise<StageToolResult> {
    if (!isRecord(runOptions)) throw argument('run options', 'must be an object');
    checkOptionKeys('createToolExecutor', runOptions, RUN_KEYS, 'run options.', controllerArgument);
    const { artifacts } = runOptions;
    if (
      typeof artifacts !== 'object' ||
      artifacts === null ||
      typeof artifacts[Symbol.iterator] !== 'function'
    ) {
      throw argument('run options.artifacts', 'must be an iterable of artifact names');
    }
    const present = new Set<string>();
    for (const name of artifacts) {
      if (typeof name !== 'string')
        throw argument('run options.artifacts', 'must hold strings only');
      present.add(name);
    }
    const effective =
      runOptions.policy === undefined
        ? basePolicy
        : runOptions.policy === null
          ? null
          : checkPolicy('ToolExecutor.run', runOptions.policy);

    const name = isStageTool(requested) ? requested.name : requested;
    const tool = typeof name === 'string' ? byName.get(name) : undefined;
    if (tool === undefined || (isStageTool(requested) && requested !== tool)) {
      // Escaped, so a name the model sent stays on the line it is quoted in.
      const label = escapeControl(clipText(typeof name === 'string' ? name : String(name), 200));
      return failed(label, 'tool_unknown', [`Tool '${label}' is not available here.`], null);
    }
    const missing = tool.prerequisites.filter((artifact) => !present.has(artifact));
    if (missing.length > 0) {
      return failed(
        tool.name,
        'tool_prerequisite_missing',
        [`Missing prerequisites: ${missing.join(', ')}.`],
        null,
      );
    }
    let parsed: z.ZodSafeParseResult<unknown>;
    try {
      try {
        parsed = tool.input.safeParse(input);
      } catch (error) {
        // A schema with an asynchronous refinement or transform parses asynchronously.
        if (!(error instanceof z.core.$ZodAsyncError)) throw error;
        parsed = await tool.input.safeParseAsync(input);
      }
    } catch (cause) {
      // A transform or refinement that breaks on the input fails the call as a throwing run.
      const reason = cause instanceof Error ? cause.message : String(cause);
      const explanation = refusalText(`Tool '${tool.name}' failed: ${reason}`);
      return failed(tool.name, 'tool_failed', [explanation], null, cause);
    }
    if (!parsed.success) {
      // The first MAX_TOOL_ISSUES issues and a count of the rest, as core keeps them: a
      // refusal of 100,000 bad items stays small on the host side too.
      const issues = parsed.error.issues;
      const explanations = issues.slice(0, MAX_TOOL_ISSUES).map((issue) => {
        const path = issue.path.map((part) => clipText(String(part), 80)).join('.');
        const text = path === '' ? issue.message : `${path}: ${issue.message}`;
        return clipText(escapeControl(text), ISSUE_LIMIT);
      });
      const omitted = issues.length - explanations.length;
      if (omitted > 0) explanations.push(`... and ${omitted} more issues, not kept.`);
      return failed(
        tool.name,
        'tool_input_invalid',
        explanations.length > 0 ? explanations : ['Invalid input.'],
        null,
        undefined,
        omitted,
      );
    }
    const unstorable = unstorableText(parsed.data, 'input');
    if (unstorable !== undefined) {
      return failed(
        tool.name,
        'tool_input_invalid',
        [
          refusalText(
            `${clipText(unstorable.path, 400)} ${unstorable.rule}, so no store could hold it.`,
          ),
        ],
        null,
      );
    }
    const key =
      canonicalJson({ input: parsed.data, model: modelId, policy: effective, tool: tool.name }) ??
      null;
    const context = Object.freeze({
      toolName: tool.name,
      modelId,
      policy: effective,
      artifacts: present,
    });
    if (key === null) return execute(tool, parsed.data, context, null);
    const known = memo.get(key);
    if (known !== undefined) {
      const answer = await known;
      // A failure is dropped from the memo when it settles; a caller that raced it sees it too.
      return answer.ok ? Object.freeze({ ...answer, cached: true }) : answer;
    }
    const pending = execute(tool, parsed.data, context, key);
    memo.set(key, pending);
    const answer = await pending;
    if (!answer.ok && memo.get(key) === pending) memo.delete(key);
    return answer;
  }

  return Object.freeze({ tools: byName, run: run as ToolExecutor['run'] });
}
