import * as z from 'zod';
import { dataTypeName } from '../../define-data-type.ts';
import { type AnyTool, defineTool, type Tool, type ToolReturn } from '../../define-tool.ts';
import { isTrustedAs, trustedValue } from '../../internal/trusted-value.ts';
import type { Session } from '../../session.ts';
import { nullField } from '../optional-field.ts';
import { agentIdProblem } from '../owners/agent-id.ts';
import type { Plan } from '../plan.ts';
import type { AnyPlanningCommand } from '../planning-extension.ts';
import type { TextMode } from '../text-mode.ts';
import { optionalText } from '../text-rules.ts';
import { MAX_EXPLANATION, PLAN_COMMANDS, PlanChange } from './plan-change.ts';

/** The `explanation` parameter the `history()` extension adds, after normalisation. @public */
export interface Explained {
  /** Why, trimmed, up to 512 characters of the tools' text mode; `null` when absent or blank. */
  readonly explanation: string | null;
}

/** The `explanation` parameter the `history()` extension adds, as the model sends it. @public */
export interface ExplainedInput {
  /** Why the change is made, in one short sentence. */
  readonly explanation?: string | null | undefined;
}

/**
 * A planning tool with the `history()` extension: a tool that changes the plan (one whose
 * result is not the plan itself: the six's, the plan model's, and those whose commands
 * extensions declare) takes an optional `explanation` and dispatches a {@link PlanChange}
 * carrying its command; `planning_read_plan` stays as it is.
 *
 * @public
 */
export type WithHistory<T> =
  T extends Tool<infer P, infer R, infer I>
    ? [R] extends [Plan]
      ? T
      : [R] extends [PlanChange]
        ? T
        : Tool<P & Explained, PlanChange, I & ExplainedInput>
    : T;

/** Maps each tool of a by-name record through {@link WithHistory}. @public */
export type ToolsByNameWithHistory<T> = { readonly [K in keyof T]: WithHistory<T[K]> };

/**
 * True when `tool` dispatches a command a {@link PlanChange} carries: one of plankit's plan
 * commands, or one of `commands` (what the extensions declare). @internal
 */
export function carriesCommand(tool: AnyTool, commands: readonly AnyPlanningCommand[]): boolean {
  const type = tool.resultType;
  if (type === null || type === PlanChange) return false;
  return PLAN_COMMANDS.has(dataTypeName(type)) || commands.some((c) => c.dataType === type);
}

/** What {@link withHistory} needs besides the tool. @internal */
export interface HistoryContext {
  readonly acceptsOverrides: boolean;
  readonly prepare: (session: Session) => Session;
  /** The agent the tools act for, recorded as the actor; `null` when not given. */
  readonly agent: string | null;
  /** The tools' text mode: the rules the explanation is checked by. */
  readonly text: TextMode;
}

/**
 * Wraps a mutating planning tool for the `history()` extension: the same name, description,
 * checks and messages, plus an optional `explanation` (checked after the tool's own checks,
 * like a note), and a result that carries the command with the actor and explanation. @internal
 */
export function withHistory<P, R, I>(
  tool: Tool<P, R, I>,
  context: HistoryContext,
): Tool<P & Explained, PlanChange, I & ExplainedInput> {
  const commandType = tool.resultType;
  if (commandType === null) throw new Error(`${tool.name} does not change the plan`);
  const command = dataTypeName(commandType);
  // The built-in extensions check their agent; a hand-written one may not have.
  const actorChecked = context.agent === null || agentIdProblem(context.agent) === undefined;
  const parameters = (tool.parameters as unknown as z.ZodObject).extend({
    // The name says what it is; the planning prompt asks for it (a description here would be
    // paid for on every tool of every request).
    explanation: nullField(z.string()),
  }) as unknown as z.ZodType<P & Explained, I & ExplainedInput>;
  return defineTool({
    name: tool.name,
    description: tool.description,
    parameters,
    resultType: PlanChange,
    acceptsOverrides: context.acceptsOverrides,
    traits: tool.traits,
    handler: (params, toolContext) => {
      context.prepare(toolContext.session);
      const { explanation, ...rest } = params;
      const wrap = (result: ToolReturn<R>): ToolReturn<PlanChange> => {
        const why = optionalText(
          explanation,
          'explanation',
          'Explanation',
          MAX_EXPLANATION,
          context.text,
        );
        const change = { command, value: result.value, actor: context.agent, explanation: why };
        // A command its handler built and trusted, with a well-formed actor and an explanation
        // checked by the tools' text rules, is a PlanChange the schema returns unchanged: the
        // session skips the second parse, and the command's reducer gets the very object its
        // handler built (so a batch is applied once, not twice).
        const trusted = actorChecked && isTrustedAs(result.value, commandType);
        return {
          message: result.message,
          value: trusted ? trustedValue(PlanChange, change) : change,
        };
      };
      // Synchronous tools stay synchronous: no await between reading the plan and the result.
      const result = tool.handler(rest as unknown as P, toolContext);
      return result instanceof Promise ? result.then(wrap) : wrap(result);
    },
  });
}
