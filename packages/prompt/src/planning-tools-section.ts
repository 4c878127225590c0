import {
  createPlanningTools,
  type DependencyOptions,
  type InProgressMode,
  inProgressRule,
  PLANNING_LIMITS,
  type PlanningToolsFor,
  Session,
  STEP_STATUSES,
} from '@plankit/core';
import { unknownOption } from '@plankit/core/internal';
import { type PlanModelCopyOptions, planModelLines } from './plan-model-lines.ts';
import { mindsetLines, PLANNING_STRATEGIES, PlanningStrategy } from './planning-strategy.ts';
import { PromptRenderError } from './prompt-render-error.ts';
import { type PromptSection, renderHeading, type SectionRenderOptions } from './prompt-section.ts';

/** What {@link PlanningToolsSection} takes. @public */
export interface PlanningToolsSectionOptions {
  /** The session the tools read and write; its planning reducers are registered (idempotently). */
  readonly session: Session;
  /** The mindset to coach; {@link PlanningStrategy.REACT} by default. */
  readonly strategy?: PlanningStrategy | undefined;
  /** `'single'` allows one `in_progress` step at a time, in the copy and in the validator. */
  readonly inProgress?: InProgressMode | undefined;
  /** Whether hosts may override the copy and tool descriptions; `false` by default. */
  readonly acceptsOverrides?: boolean | undefined;
  /**
   * Steps carry `depends_on` (core's `dependencies` option of `createPlanningTools`, passed
   * through as given), and the copy gains two rule lines about it. Off by default.
   */
  readonly dependencies?: boolean | DependencyOptions | undefined;
  /**
   * Adds `planning_apply_batch` (core's `batch` option), and the copy gains one rule line
   * about it. Off by default.
   */
  readonly batch?: boolean | undefined;
  /**
   * Every mutating tool takes an optional `explanation`, recorded in the plan history (core's
   * `history` option), and the copy gains one rule line about it. Off by default.
   */
  readonly history?: boolean | undefined;
  /**
   * Adds `planning_claim_step` and `planning_release_step` (core's `owners` option; needs
   * `agent`), and the copy gains one rule line about them. Off by default.
   */
  readonly owners?: boolean | undefined;
  /** The id of the agent the tools act for (core's `agent` option): the owner and the actor. */
  readonly agent?: string | undefined;
}

const OPTION_KEYS = new Set([
  'session',
  'strategy',
  'inProgress',
  'acceptsOverrides',
  'dependencies',
  'batch',
  'history',
  'owners',
  'agent',
]);

function planningBody(
  strategy: PlanningStrategy,
  inProgress: InProgressMode,
  planModel: PlanModelCopyOptions,
): string {
  const { objective, title, details } = PLANNING_LIMITS;
  const rule = inProgressRule(inProgress);
  return [
    'Use planning tools for multi-step or stateful work that requires an execution plan.',
    ...mindsetLines(strategy),
    `- Start with \`planning_setup_plan\` to set an objective (<=${objective} ASCII characters) and optional initial steps.`,
    '- Step ids use the `S###` format, stay stable, and must be referenced for every update.',
    `- Keep steps concise (<=${title} ASCII characters for titles, <=${details} for details).`,
    '- Extend plans with `planning_add_step` and refine steps with `planning_update_step`.',
    `- Track progress via \`planning_mark_step\` (${STEP_STATUSES.join(', ')}).${rule === null ? '' : ` ${rule}`}`,
    '- Inspect the latest plan using `planning_read_plan`.',
    '- Use `planning_clear_plan` only when abandoning the objective.',
    ...planModelLines(strategy, planModel),
    'Stay brief, ASCII-only, and skip planning for trivial single-step tasks.',
  ].join('\n');
}

/**
 * The planning section: the instructions for the six planning tools, in one of three
 * strategies, and the tools themselves bound to a session. The opt-in plan-model options
 * (`dependencies`, `batch`, `history`, `owners` with `agent`) are passed to `createPlanningTools` and each adds its own short
 * rule lines to the copy; with them off the copy is the reference copy, byte for byte.
 *
 * @example
 * ```ts
 * const planning = new PlanningToolsSection({ session, strategy: PlanningStrategy.PLAN_ACT_REFLECT });
 * planning.render(undefined, { depth: 0, number: '2' }); // '## 2. Planning Tools\n\n...'
 * planning.tools(); // the six tools, reference order
 * new PlanningToolsSection({ session, batch: true }).tools().planning_apply_batch; // by name
 * ```
 * @public
 */
export class PlanningToolsSection<
  O extends PlanningToolsSectionOptions = PlanningToolsSectionOptions,
> implements PromptSection<undefined>
{
  /** Always `planning.tools`. */
  readonly key: string = 'planning.tools';
  /** Always `Planning Tools`. */
  readonly title: string = 'Planning Tools';
  /** None. */
  readonly children: readonly PromptSection[] = Object.freeze([]);
  /** The session the tools are bound to. */
  readonly session: Session;
  /** The coached mindset. */
  readonly strategy: PlanningStrategy;
  /** The in-progress rule, shared by the copy and the validator. */
  readonly inProgress: InProgressMode;
  /** Whether hosts may override the copy and tool descriptions. */
  readonly acceptsOverrides: boolean;
  /** The `dependencies` option as given (`false` when absent). */
  readonly dependencies: boolean | DependencyOptions;
  /** Whether `planning_apply_batch` is offered. */
  readonly batch: boolean;
  /** Whether mutations take an `explanation` recorded in the plan history. */
  readonly history: boolean;
  /** Whether the claim and release tools are offered. */
  readonly owners: boolean;
  /** The agent the tools act for, or undefined. */
  readonly agent: string | undefined;
  readonly #tools: PlanningToolsFor<O>;
  readonly #body: string;

  /**
   * Creates the section and registers the planning reducers on the session.
   *
   * @throws PromptRenderError `section_invalid` for a missing session or an unknown option
   */
  constructor(options: O) {
    if (typeof options !== 'object' || options === null || !(options.session instanceof Session)) {
      throw new PromptRenderError('section_invalid', 'PlanningToolsSection needs a session.', {
        field: 'session',
      });
    }
    const extra = unknownOption(options, OPTION_KEYS);
    if (extra !== undefined) {
      throw new PromptRenderError(
        'section_invalid',
        `PlanningToolsSection: ${extra} is not an option.`,
        {
          field: extra,
        },
      );
    }
    const strategy = options.strategy ?? PlanningStrategy.REACT;
    if (!PLANNING_STRATEGIES.includes(strategy)) {
      throw new PromptRenderError(
        'section_invalid',
        `PlanningToolsSection strategy must be one of ${PLANNING_STRATEGIES.join(', ')}.`,
        { field: 'strategy' },
      );
    }
    const inProgress = options.inProgress ?? 'any';
    const acceptsOverrides = options.acceptsOverrides ?? false;
    const dependencies = options.dependencies ?? false;
    const batch = options.batch ?? false;
    const history = options.history ?? false;
    const owners = options.owners ?? false;
    const agent = options.agent;
    let tools: PlanningToolsFor<O>;
    try {
      // createPlanningTools checks `dependencies` and `batch`, naming the field it refuses.
      tools = createPlanningTools(options.session, {
        inProgress,
        acceptsOverrides,
        dependencies,
        batch,
        history,
        owners,
        ...(agent === undefined ? {} : { agent }),
      }) as unknown as PlanningToolsFor<O>;
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new PromptRenderError('section_invalid', `PlanningToolsSection: ${reason}`, { cause });
    }
    this.session = options.session;
    this.strategy = strategy;
    this.inProgress = inProgress;
    this.acceptsOverrides = acceptsOverrides;
    this.dependencies = dependencies;
    this.batch = batch;
    this.history = history;
    this.owners = owners;
    this.agent = agent;
    this.#tools = tools;
    this.#body = planningBody(strategy, inProgress, {
      dependencies: dependencies !== false,
      batch: batch === true,
      history: history === true,
      owners: owners === true,
    });
  }

  /**
   * The six planning tools, in reference order, then `planning_apply_batch` with `batch` (and
   * the claim and release tools with `owners`), each also by name (`tools().planning_mark_step`):
   * the tools `createPlanningTools` built for this section (the one way to get them), exposed as
   * every prompt section exposes its tools, so `prompt.render().tools` can collect them.
   */
  tools(): PlanningToolsFor<O> {
    return this.#tools;
  }

  /** The body template for this strategy and rule; it has no placeholders. */
  originalBodyTemplate(): string {
    return this.#body;
  }

  /** Renders the heading (`## Planning Tools`, or numbered) and the body. Params are ignored. */
  render(_params?: undefined, options: SectionRenderOptions = {}): string {
    return `${renderHeading(this.key, this.title, options)}\n\n${this.#body}`;
  }

  /**
   * The same section over another session.
   *
   * @throws PromptRenderError `section_invalid` without a session
   */
  clone({ session }: { readonly session: Session }): PlanningToolsSection<O> {
    return new PlanningToolsSection<O>({
      session,
      strategy: this.strategy,
      inProgress: this.inProgress,
      acceptsOverrides: this.acceptsOverrides,
      dependencies: this.dependencies,
      batch: this.batch,
      history: this.history,
      owners: this.owners,
      ...(this.agent === undefined ? {} : { agent: this.agent }),
    } as unknown as O);
  }
}
