import {
  createPlanningTools,
  type InProgressMode,
  type PlanningExtension,
  type PlanningToolsFor,
  Session,
  type TextMode,
} from '@plankit/core';
import { inProgressRule, PLANNING_LIMITS, STEP_STATUSES } from '@plankit/core/constants';
import {
  checkTextMode,
  clipText,
  movedFlagText,
  unknownOption,
} from '@plankit/core/internal-unstable';
import { mindsetLines, PLANNING_STRATEGIES, PlanningStrategy } from './planning-strategy.ts';
import { PromptRenderError } from './prompt-render-error.ts';
import { type PromptSection, renderHeading, type SectionRenderOptions } from './prompt-section.ts';

/** What {@link PlanningToolsSection} takes. @public */
export interface PlanningToolsSectionOptions<
  E extends readonly PlanningExtension[] = readonly PlanningExtension[],
> {
  /** The session the tools read and write; its planning reducers are registered (idempotently). */
  readonly session: Session;
  /** The mindset to coach; {@link PlanningStrategy.REACT} by default. */
  readonly strategy?: PlanningStrategy | undefined;
  /** `'single'` allows one `in_progress` step at a time, in the copy and in the validator. */
  readonly inProgress?: InProgressMode | undefined;
  /**
   * `'unicode'` lets plan text be in any language, in the copy and in the tools' rules (NFC,
   * no control, bidirectional or invisible characters); `'ascii'` (the default) keeps the
   * reference copy and rules, byte for byte.
   */
  readonly text?: TextMode | undefined;
  /** Whether hosts may override the copy and tool descriptions; `false` by default. */
  readonly acceptsOverrides?: boolean | undefined;
  /**
   * Parts of the plan model, such as `dependencies()`, `batch()`, `history()` and
   * `owners({ agent })` from `@plankit/core/plan-model`, or your own, passed to
   * `createPlanningTools`; the copy gets the lines each declares (`promptLines`), in the
   * order listed. None by default: the reference copy and tools.
   */
  readonly extensions?: E | undefined;
}

const OPTION_KEYS = new Set([
  'session',
  'strategy',
  'inProgress',
  'text',
  'acceptsOverrides',
  'extensions',
]);

// In unicode mode the copy names no character set (lengths are in code points either way),
// and the closing line asks for the user's language instead of ASCII; the rest is the same.
function planningBody(
  strategy: PlanningStrategy,
  inProgress: InProgressMode,
  text: TextMode,
  extensionLines: readonly string[],
): string {
  const { objective, title, details } = PLANNING_LIMITS;
  const rule = inProgressRule(inProgress);
  const characters = text === 'ascii' ? 'ASCII characters' : 'characters';
  return [
    'Use planning tools for multi-step or stateful work that requires an execution plan.',
    ...mindsetLines(strategy),
    `- Start with \`planning_setup_plan\` to set an objective (<=${objective} ${characters}) and optional initial steps.`,
    '- Step ids use the `S###` format, stay stable, and must be referenced for every update.',
    `- Keep steps concise (<=${title} ${characters} for titles, <=${details} for details).`,
    '- Extend plans with `planning_add_step` and refine steps with `planning_update_step`.',
    `- Track progress via \`planning_mark_step\` (${STEP_STATUSES.join(', ')}).${rule === null ? '' : ` ${rule}`}`,
    '- Inspect the latest plan using `planning_read_plan`.',
    '- Use `planning_clear_plan` only when abandoning the objective.',
    ...extensionLines,
    text === 'ascii'
      ? 'Stay brief, ASCII-only, and skip planning for trivial single-step tasks.'
      : "Stay brief, write plans in the user's language, and skip planning for trivial single-step tasks.",
  ].join('\n');
}

/** The lines the extensions declare for `strategy`, in the order they are listed. */
function extensionLines(
  extensions: readonly PlanningExtension[],
  strategy: PlanningStrategy,
): readonly string[] {
  const lines: string[] = [];
  for (const extension of extensions) {
    const own: unknown = extension.promptLines?.(strategy) ?? [];
    if (!Array.isArray(own) || own.some((line) => typeof line !== 'string')) {
      throw new PromptRenderError(
        'section_invalid',
        `PlanningToolsSection: the ${clipText(extension.name, 64)} extension's promptLines must return an array of strings.`,
        { field: 'extensions' },
      );
    }
    lines.push(...(own as readonly string[]));
  }
  return lines;
}

/**
 * The planning section: the instructions for the six planning tools, in one of three
 * strategies, and the tools themselves bound to a session. Plan-model extensions are passed
 * to `createPlanningTools`, and the copy gets the rule lines each declares, after the
 * reference bullets; without them the copy is the reference copy, byte for byte.
 *
 * @example
 * ```ts
 * const planning = new PlanningToolsSection({ session, strategy: PlanningStrategy.PLAN_ACT_REFLECT });
 * planning.render(undefined, { depth: 0, number: '2' }); // '## 2. Planning Tools\n\n...'
 * planning.tools(); // the six tools, reference order
 * new PlanningToolsSection({ session, extensions: [batch()] }).tools().planning_apply_batch;
 * ```
 * @public
 */
export class PlanningToolsSection<const E extends readonly PlanningExtension[] = readonly []>
  implements PromptSection<undefined>
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
  /** The text mode, shared by the copy and the validator. */
  readonly text: TextMode;
  /** Whether hosts may override the copy and tool descriptions. */
  readonly acceptsOverrides: boolean;
  /** The plan-model extensions the tools were built with. */
  readonly extensions: E;
  readonly #tools: PlanningToolsFor<E>;
  readonly #body: string;

  /**
   * Creates the section and registers the planning reducers on the session.
   *
   * @throws PromptRenderError `section_invalid` for a missing session or an unknown option
   */
  constructor(options: PlanningToolsSectionOptions<E>) {
    if (typeof options !== 'object' || options === null || !(options.session instanceof Session)) {
      throw new PromptRenderError('section_invalid', 'PlanningToolsSection needs a session.', {
        field: 'session',
      });
    }
    const extra = unknownOption(options, OPTION_KEYS);
    if (extra !== undefined) {
      const moved = movedFlagText(extra);
      throw new PromptRenderError(
        'section_invalid',
        moved === undefined
          ? `PlanningToolsSection: ${extra} is not an option.`
          : `PlanningToolsSection: ${extra} ${moved}.`,
        { field: extra },
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
    let text: TextMode;
    try {
      text = checkTextMode(options.text ?? 'ascii', 'PlanningToolsSection', 'text');
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new PromptRenderError('section_invalid', reason, { field: 'text', cause });
    }
    const acceptsOverrides = options.acceptsOverrides ?? false;
    const extensions = (options.extensions ?? []) as E;
    let tools: PlanningToolsFor<E>;
    try {
      tools = createPlanningTools(options.session, {
        inProgress,
        text,
        acceptsOverrides,
        extensions,
      });
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new PromptRenderError('section_invalid', `PlanningToolsSection: ${reason}`, { cause });
    }
    this.session = options.session;
    this.strategy = strategy;
    this.inProgress = inProgress;
    this.text = text;
    this.acceptsOverrides = acceptsOverrides;
    this.extensions = extensions;
    this.#tools = tools;
    this.#body = planningBody(strategy, inProgress, text, extensionLines(extensions, strategy));
  }

  /**
   * The six planning tools, in reference order, then the extensions' tools, each also by name
   * (`tools().planning_mark_step`):
   * the tools `createPlanningTools` built for this section (the one way to get them), exposed as
   * every prompt section exposes its tools, so `prompt.render().tools` can collect them.
   */
  tools(): PlanningToolsFor<E> {
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
  clone({ session }: { readonly session: Session }): PlanningToolsSection<E> {
    return new PlanningToolsSection<E>({
      session,
      strategy: this.strategy,
      inProgress: this.inProgress,
      text: this.text,
      acceptsOverrides: this.acceptsOverrides,
      extensions: this.extensions,
    });
  }
}
