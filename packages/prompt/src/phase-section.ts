import type { AnyTool } from '@plankit/core';
import { MarkdownSection } from './markdown-section.ts';
import { PromptRenderError } from './prompt-render-error.ts';
import { type PromptSection, renderHeading, type SectionRenderOptions } from './prompt-section.ts';

/** The two phases a long job alternates between. @public */
export type Phase = 'strategic' | 'tactical';

/** The number of todos a strategic phase must write for the next tactical phase. @public */
export interface TodoRange {
  /** Fewest todos, at least 1. */
  readonly min: number;
  /** Most todos, at least `min`. */
  readonly max: number;
}

/** What {@link PhaseSection} takes. @public */
export interface PhaseSectionOptions {
  /** Which phase the section instructs. */
  readonly phase: Phase;
  /** The todo count the controller accepts; 5-20 by default, as in the controller. */
  readonly todoRange?: TodoRange | undefined;
}

/** Params of {@link PhaseSection}. @public */
export interface PhaseParams {
  /** The phase number, from 1. */
  readonly phase_number: number;
  /** The workspace memory (`workspace.md`), injected as is. */
  readonly workspace_memory: string;
}

type Copy = {
  readonly title: string;
  readonly intro: string;
  readonly responsibilities: string;
  readonly important: string;
};

function copy(phase: Phase, range: TodoRange): Copy {
  switch (phase) {
    case 'strategic':
      return {
        title: 'Strategic Phase',
        intro:
          'You are in STRATEGIC MODE. Your job is to plan and organize work.\nCurrent phase: ${phase_number} (Strategic)',
        responsibilities: [
          '- Explore and understand the workspace',
          '- Create and maintain the execution plan',
          '- Break down work into manageable phases',
          '- Update workspace.md with learnings',
          '- Create clear, actionable todos for the tactical agent',
        ].join('\n'),
        important: [
          '- Use workspace tools to read files before making decisions',
          `- Write todos to todos.yaml (${range.min}-${range.max} items per phase)`,
          '- Call job_complete when the entire plan is executed',
          "- Do NOT execute domain-specific work - that's for tactical mode",
        ].join('\n'),
      };
    case 'tactical':
      return {
        title: 'Tactical Phase',
        intro:
          'You are in TACTICAL MODE. Your job is to execute the current phase.\nCurrent phase: ${phase_number} (Tactical)',
        responsibilities: [
          '- Work through each todo systematically',
          '- Use domain tools to accomplish tasks',
          '- Update workspace files as needed',
          '- Mark todos complete as you finish them',
        ].join('\n'),
        important: [
          '- Focus on the current todo list',
          '- Do NOT create new todos or modify the plan',
          "- Do NOT call job_complete - that's for strategic mode",
          '- When all todos are done, the system will transition to strategic mode',
        ].join('\n'),
      };
    default: {
      const unknown: never = phase;
      throw new PromptRenderError(
        'section_invalid',
        `Phase must be strategic or tactical, got ${String(unknown)}.`,
        {
          field: 'phase',
        },
      );
    }
  }
}

/**
 * The system-prompt section of one phase of a strategic/tactical job: what the agent is
 * responsible for, the workspace memory, and the rules of the phase. Each phase starts a fresh
 * conversation, so everything the agent needs to know travels in here.
 *
 * @example
 * ```ts
 * const strategic = new PhaseSection({ phase: 'strategic' });
 * strategic.render({ phase_number: 3, workspace_memory: await readFile('workspace.md', 'utf8') });
 * ```
 * @public
 */
export class PhaseSection implements PromptSection<PhaseParams> {
  /** `phase.strategic` or `phase.tactical`. */
  readonly key: string;
  /** `Strategic Phase` or `Tactical Phase`. */
  readonly title: string;
  /** `Your Responsibilities`, `Workspace Memory` and `Important`. */
  readonly children: readonly PromptSection[];
  /** The phase instructed. */
  readonly phase: Phase;
  /** The todo count the strategic rules name. */
  readonly todoRange: TodoRange;
  readonly #intro: MarkdownSection<PhaseParams>;

  /**
   * Creates the section for one phase.
   *
   * @throws PromptRenderError `section_invalid` for an unknown phase or a bad todo range
   */
  constructor(options: PhaseSectionOptions) {
    const range = options?.todoRange ?? { min: 5, max: 20 };
    if (
      !Number.isInteger(range.min) ||
      !Number.isInteger(range.max) ||
      range.min < 1 ||
      range.max < range.min
    ) {
      throw new PromptRenderError(
        'section_invalid',
        'PhaseSection todoRange must be integers with 1 <= min <= max.',
        {
          field: 'todoRange',
        },
      );
    }
    const phase = options.phase;
    const text = copy(phase, range);
    this.phase = phase;
    this.todoRange = Object.freeze({ min: range.min, max: range.max });
    this.key = `phase.${phase}`;
    this.title = text.title;
    this.#intro = new MarkdownSection<PhaseParams>({
      key: this.key,
      title: this.title,
      template: text.intro,
    });
    this.children = Object.freeze([
      new MarkdownSection({
        key: `${this.key}.responsibilities`,
        title: 'Your Responsibilities',
        template: text.responsibilities,
      }),
      new MarkdownSection<PhaseParams>({
        key: `${this.key}.memory`,
        title: 'Workspace Memory',
        template: '${workspace_memory}',
      }),
      new MarkdownSection({
        key: `${this.key}.important`,
        title: 'Important',
        template: text.important,
      }),
    ]);
  }

  /**
   * Renders the phase's instructions with the phase number and workspace memory
   * (`(empty)` when the memory is blank).
   *
   * @throws PromptRenderError when params are missing or invalid
   */
  render(params?: PhaseParams, options: SectionRenderOptions = {}): string {
    if (typeof params !== 'object' || params === null) {
      throw new PromptRenderError(
        'params_missing',
        `Section '${this.key}' needs params phase_number and workspace_memory.`,
      );
    }
    const { phase_number, workspace_memory } = params;
    if (!Number.isInteger(phase_number) || phase_number < 1) {
      throw new PromptRenderError(
        'placeholder_invalid',
        `Section '${this.key}' phase_number must be an integer >= 1.`,
        {
          field: 'phase_number',
        },
      );
    }
    if (typeof workspace_memory !== 'string') {
      throw new PromptRenderError(
        'placeholder_invalid',
        `Section '${this.key}' workspace_memory must be a string.`,
        {
          field: 'workspace_memory',
        },
      );
    }
    const filled = {
      phase_number,
      workspace_memory: workspace_memory.trim() === '' ? '(empty)' : workspace_memory,
    };
    const depth = options.depth ?? 0;
    renderHeading(this.key, this.title, options);
    return [
      this.#intro.render(filled, { depth, number: options.number }),
      ...this.children.map((child, index) =>
        child.render(filled, {
          depth: depth + 1,
          number: options.number === undefined ? undefined : `${options.number}.${index + 1}`,
        }),
      ),
    ].join('\n\n');
  }

  /** Phase sections expose no tools: the controller decides the tool set of each phase. */
  tools(): readonly AnyTool[] {
    return [];
  }
}
