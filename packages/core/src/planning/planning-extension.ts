import type { DataType } from '../define-data-type.ts';
import type { AnyTool } from '../define-tool.ts';
import type { Reducer } from '../reducer.ts';
import type { Session } from '../session.ts';
import type { PlanViewField } from '../view/plan-view-field.ts';
import type { Plan, PlanStep, StepStatus } from './plan.ts';
import type { NewPlanStep } from './plan-commands.ts';
import type { TextMode } from './text-mode.ts';

/**
 * A command an extension's tools dispatch, with the reducer that applies it to the plan
 * slice. `createPlanningTools` registers every declared command on the sessions its tools run
 * on; a store attached to such a session replays them, and LangGraph's `plan` channel takes
 * them as `command` edits. Declaring a command is what makes it part of the plan model.
 *
 * @public
 */
export interface PlanningCommand<E> {
  /** The command's data type (from `defineDataType`); its name is what stores record. */
  readonly dataType: DataType<E>;
  /** Applies one command to the plan slice; throws a `ToolValidationError` to refuse it. */
  readonly reducer: Reducer<Plan, E>;
}

/**
 * The planning commands of a list of extensions, for code that does not know their types.
 *
 * @public
 */
export type AnyPlanningCommand = PlanningCommand<
  // biome-ignore lint/suspicious/noExplicitAny: each command's reducer takes its own value type
  any
>;

/**
 * A data type an extension keeps in a slice other than the plan, with the reducer that applies
 * it: a slice of its own (a goal, say, with `replaceLatest`), or a command routed to one
 * (`slice`). Registering the extension registers it on the session, and every store attached
 * to the session logs and replays it like the plan's commands, without naming it.
 *
 * @public
 */
export interface ExtensionDataType<E, T = E> {
  /** The data type (from `defineDataType`); its name is what stores record. */
  readonly dataType: DataType<E>;
  /** Applies one value to the slice; throws to refuse it (the dispatch then changes nothing). */
  readonly reducer: Reducer<T, E>;
  /** The slice it writes to; the data type's own slice when absent. */
  readonly slice?: DataType<T> | undefined;
}

/**
 * The data types of a list of extensions, for code that does not know their types.
 *
 * @public
 */
export type AnyExtensionDataType = ExtensionDataType<
  // biome-ignore lint/suspicious/noExplicitAny: each data type's reducer takes its own value type
  any,
  // biome-ignore lint/suspicious/noExplicitAny: and writes its own slice
  any
>;

/**
 * What {@link createPlanningTools} hands every extension: the settings all the extensions
 * passed in agree on, the checks they declare, and the helpers the reference tools use, so
 * extension tools check text, marks and reducers exactly as the six do.
 *
 * @public
 */
export interface PlanningToolsContext {
  /** Whether the tools accept description overrides. */
  readonly acceptsOverrides: boolean;
  /** Registers the planning reducers, and every extension's, on the session a call runs on. */
  readonly prepare: (session: Session) => Session;
  /**
   * The tools' text mode (`'ascii'` or `'unicode'`): the mode every text an extension's tool
   * takes is checked in (`requiredText`, `optionalText` of the text rules).
   */
  readonly text: TextMode;
  /** The reference checks and normalisation of new steps (title, details), in `text` mode. */
  readonly normaliseSteps: (steps: readonly NewPlanStep[], field: string) => NewPlanStep[];
  /** The in-progress rule sentence, or `null` when any number of steps may be in progress. */
  readonly singleRule: string | null;
  /** Every extension's settings, merged: a key two extensions give holds the value they agree on. */
  readonly settings: Readonly<Record<string, unknown>>;
  /** Every extension's commands, in the order the extensions are listed. */
  readonly commands: readonly AnyPlanningCommand[];
  /** Runs every extension's `checkMarkTarget` on a step about to be marked or noted. */
  readonly checkMarkTarget: (step: PlanStep) => void;
  /** Runs every extension's `checkMark`: their warnings joined by spaces, or `null`. */
  readonly checkMark: (plan: Plan, index: number, status: StepStatus) => string | null;
}

/**
 * What an extension does to the types of the tools `createPlanningTools` returns. Only the
 * type checker reads it; an extension never sets it at run time.
 *
 * @public
 */
export interface PlanningExtensionTypes {
  /** The tools it adds or replaces, by name. */
  readonly tools?: object;
  /** True when every tool that changes the plan takes an `explanation` (see `WithHistory`). */
  readonly explained?: boolean;
  /** True when it records the plan history (`planHistory`), so hosts keep it too. */
  readonly planHistory?: boolean;
}

/**
 * True when one of the extensions `E` declares `Flag` (`explained`, `planHistory`) in its
 * {@link PlanningExtensionTypes}: what the tools' types and the hosts' state follow. @internal
 */
export type AnyExtensionDeclares<
  E extends readonly unknown[],
  Flag extends 'explained' | 'planHistory',
> = true extends {
  [K in keyof E]: E[K] extends PlanningExtension<string, infer T>
    ? T extends { readonly [P in Flag]: true }
      ? true
      : false
    : false;
}[number]
  ? true
  : false;

/**
 * One opt-in part of the plan model, passed to {@link createPlanningTools} in `extensions`.
 * An extension declares everything it adds, and the tools, the prompt copy, the stores and the
 * hosts use what it declares: its commands (replayed by stores, accepted by LangGraph's plan
 * channel), its data types in slices of their own (replayed by stores), its plan-view fields,
 * its tools, its mark checks, its settings and its lines of the planning prompt.
 * plankit's own are `dependencies()`, `batch()`, `history()` and `owners()` from
 * `@plankit/core/plan-model`, written on this same interface; an app that does not import one
 * does not bundle it.
 *
 * Each hook is optional and runs once per `createPlanningTools` call, except `register`
 * (once per session a tool runs on) and the mark checks (once per mark).
 *
 * @public
 */
export interface PlanningExtension<
  Name extends string = string,
  Types extends PlanningExtensionTypes = PlanningExtensionTypes,
> {
  /** A unique name: two extensions of one name are refused. */
  readonly name: Name;
  /**
   * Settings the tools and the other extensions read (`context.settings`); two extensions
   * that give one key different values are refused.
   */
  readonly settings?: Readonly<Record<string, unknown>> | undefined;
  /** The commands its tools dispatch to the plan slice, with their reducers. */
  readonly commands?: readonly AnyPlanningCommand[] | undefined;
  /**
   * The data types it keeps in slices other than the plan, with their reducers: registered on
   * every session the extension is registered on (in the order listed, after the commands),
   * and replayed by every store attached to such a session.
   */
  readonly dataTypes?: readonly AnyExtensionDataType[] | undefined;
  /**
   * Registers reducers of other slices on a session (the plan history's, say); must be
   * idempotent. It gets every extension's commands, so it can cover them too.
   */
  readonly register?:
    | ((session: Session, commands: readonly AnyPlanningCommand[]) => void)
    | undefined;
  /**
   * The tools this extension brings: `replace` swaps reference tools of the same name,
   * `add` appends new ones after the six, in the order the extensions are listed.
   */
  readonly tools?:
    | ((context: PlanningToolsContext) => {
        readonly replace?: readonly AnyTool[] | undefined;
        readonly add?: readonly AnyTool[] | undefined;
      })
    | undefined;
  /** Throws a `ToolValidationError` to refuse a mark of `step` before its status is checked. */
  readonly checkMarkTarget?: ((step: PlanStep) => void) | undefined;
  /**
   * Checks a mark of `plan.steps[index]` as `status` after the reference checks: throws a
   * `ToolValidationError` to refuse it, or returns a warning to append to the result message.
   */
  readonly checkMark?:
    | ((plan: Plan, index: number, status: StepStatus) => string | null)
    | undefined;
  /** Wraps every tool that changes the plan, after all tools are built. */
  readonly wrap?: ((tool: AnyTool, context: PlanningToolsContext) => AnyTool) | undefined;
  /**
   * The lines it adds to the planning prompt (`PlanningToolsSection` of `@plankit/prompt`),
   * after the reference bullets, for the coached strategy: `'react'`, `'plan_act_reflect'`
   * or `'goal_decompose_route_synthesise'`. Say when to use what; what a tool does is said in
   * its description.
   */
  readonly promptLines?: ((strategy: string) => readonly string[]) | undefined;
  /**
   * Fields it adds to the plan view (`planView(session)` of `@plankit/core/plan-view`), each
   * read from the session's slices, under `view.fields`.
   */
  readonly viewFields?: readonly PlanViewField[] | undefined;
  /** Type only: what it does to the tools' types. Never set. */
  readonly types?: Types | undefined;
}
