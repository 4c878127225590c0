import type { AnyTool } from '../define-tool.ts';
import type { Session } from '../session.ts';
import type { OpenDependencyMode } from './dependencies/dependency-options.ts';
import type { Plan, PlanStep, StepStatus } from './plan.ts';
import type { NewPlanStep } from './plan-commands.ts';

/**
 * What {@link createPlanningTools} hands every extension: the settings all the extensions
 * passed in agree on, and the helpers the reference tools use, so extension tools check
 * text and register reducers exactly as the six do.
 *
 * @public
 */
export interface PlanningToolsContext {
  /** Whether the tools accept description overrides. */
  readonly acceptsOverrides: boolean;
  /** Registers the planning reducers, and every extension's, on the session a call runs on. */
  readonly prepare: (session: Session) => Session;
  /** The reference checks and normalisation of new steps (title, details). */
  readonly normaliseSteps: (steps: readonly NewPlanStep[], field: string) => NewPlanStep[];
  /** The in-progress rule sentence, or `null` when any number of steps may be in progress. */
  readonly singleRule: string | null;
  /** The dependency rule when an extension gives one, or `null`. */
  readonly dependencies: { readonly onOpenDependency: OpenDependencyMode } | null;
  /** The agent whose claims the tools respect and make, or `null` without owners. */
  readonly owner: string | null;
  /** The agent the tools act for (recorded by history), or `null`. */
  readonly agent: string | null;
}

/** What an extension asks of the others and of the tools' settings. @public */
export interface PlanningExtensionSettings {
  /** The dependency rule the tools apply. */
  readonly dependencies?: { readonly onOpenDependency: OpenDependencyMode } | undefined;
  /** The agent whose claims the tools respect and make. */
  readonly owner?: string | undefined;
  /** The agent the tools act for. */
  readonly agent?: string | undefined;
}

/**
 * One opt-in part of the plan model, passed to {@link createPlanningTools} in `extensions`.
 * plankit's own are `dependencies()`, `batch()`, `history()` and `owners()` from
 * `@plankit/core/plan-model`; an app that does not import one does not bundle it.
 *
 * Each hook is optional and runs once per `createPlanningTools` call, except `register`
 * (once per session a tool runs on) and the mark checks (once per mark).
 *
 * @public
 */
export interface PlanningExtension<Name extends string = string> {
  /** A unique name: two extensions of one name are refused. */
  readonly name: Name;
  /** Settings the tools and the other extensions read; two that disagree are refused. */
  readonly settings?: PlanningExtensionSettings | undefined;
  /** Registers this extension's reducers on a session; must be idempotent. */
  readonly register?: ((session: Session) => void) | undefined;
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
}
