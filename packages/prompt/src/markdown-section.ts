import type { AnyTool } from '@plankit/core';
import { unknownOption } from '@plankit/core/internal-unstable';
import { PromptRenderError } from './prompt-render-error.ts';
import {
  checkSectionIdentity,
  type PromptSection,
  renderChildren,
  renderHeading,
  type SectionRenderOptions,
} from './prompt-section.ts';
import { dedent, fillTemplate, placeholders, type TemplateValue } from './render-template.ts';

/** Params a {@link MarkdownSection} fills its placeholders from. @public */
export type SectionParams = Readonly<Record<string, TemplateValue | null | undefined>>;

/** What {@link MarkdownSection} takes. @public */
export interface MarkdownSectionOptions<TParams extends object> {
  /** The heading text, one line. */
  readonly title: string;
  /** Unique within a prompt: `^[a-z0-9][a-z0-9._-]{0,63}$`. */
  readonly key: string;
  /** The body, with `${name}` placeholders; dedented and trimmed when rendered. */
  readonly template: string;
  /** Values used where `render` gives none. */
  readonly defaultParams?: Partial<TParams> | undefined;
  /** Sections rendered after the body, one level deeper. */
  readonly children?: readonly PromptSection[] | undefined;
}

const OPTION_KEYS = new Set(['title', 'key', 'template', 'defaultParams', 'children']);

/**
 * A markdown section with a templated body: a heading of `depth + 2` hashes (optionally
 * numbered), a blank line, and the dedented body with `${name}` placeholders filled.
 *
 * @example
 * ```ts
 * const behaviour = new MarkdownSection<{ objective: string }>({
 *   title: 'Behaviour',
 *   key: 'behaviour',
 *   template: 'Stay focused on ${objective}.',
 * });
 * behaviour.render({ objective: 'triage open bug reports' });
 * // '## Behaviour\n\nStay focused on triage open bug reports.'
 * ```
 * @public
 */
export class MarkdownSection<TParams extends object = SectionParams>
  implements PromptSection<TParams>
{
  /** The section's key. */
  readonly key: string;
  /** The heading text. */
  readonly title: string;
  /** The body template, dedented and trimmed. */
  readonly template: string;
  /** Values used where `render` gives none. */
  readonly defaultParams: Readonly<Partial<TParams>> | undefined;
  /** Nested sections. */
  readonly children: readonly PromptSection[];
  readonly #placeholders: readonly string[];

  /**
   * Creates a section, checking its definition.
   *
   * @throws PromptRenderError `section_invalid`, naming the field
   */
  constructor(options: MarkdownSectionOptions<TParams>) {
    if (typeof options !== 'object' || options === null) {
      throw new PromptRenderError('section_invalid', 'MarkdownSection options must be an object.');
    }
    const extra = unknownOption(options, OPTION_KEYS);
    if (extra !== undefined) {
      throw new PromptRenderError(
        'section_invalid',
        `MarkdownSection: ${extra} is not an option.`,
        {
          field: extra,
        },
      );
    }
    checkSectionIdentity(options.key, options.title);
    if (typeof options.template !== 'string') {
      throw new PromptRenderError(
        'section_invalid',
        `Section '${options.key}' template must be a string.`,
        {
          field: 'template',
        },
      );
    }
    const children = options.children ?? [];
    if (!Array.isArray(children) || children.some((child) => typeof child?.render !== 'function')) {
      throw new PromptRenderError(
        'section_invalid',
        `Section '${options.key}' children must be sections.`,
        {
          field: 'children',
        },
      );
    }
    this.key = options.key;
    this.title = options.title;
    this.template = dedent(options.template);
    this.defaultParams =
      options.defaultParams === undefined ? undefined : Object.freeze({ ...options.defaultParams });
    this.children = Object.freeze([...children]);
    this.#placeholders = Object.freeze(placeholders(this.template));
  }

  /**
   * Renders the heading, the body and the children.
   *
   * @throws PromptRenderError when params are missing, a placeholder has no (or an invalid)
   *   value, or the depth or number is invalid
   */
  render(params?: TParams, options: SectionRenderOptions = {}): string {
    const heading = renderHeading(this.key, this.title, options);
    const body = this.#body(params);
    return [
      body === '' ? heading : `${heading}\n\n${body}`,
      ...renderChildren(this.children, options),
    ].join('\n\n');
  }

  /** A plain section exposes no tools. */
  tools(): readonly AnyTool[] {
    return [];
  }

  #body(params: TParams | undefined): string {
    if (this.#placeholders.length === 0) return this.template;
    if (params === undefined && this.defaultParams === undefined) {
      throw new PromptRenderError(
        'params_missing',
        `Section '${this.key}' needs params for ${this.#placeholders.map((name) => `\${${name}}`).join(', ')}.`,
        { field: this.#placeholders[0] },
      );
    }
    if (params !== undefined && (typeof params !== 'object' || params === null)) {
      throw new PromptRenderError(
        'params_missing',
        `Section '${this.key}' params must be an object.`,
      );
    }
    return fillTemplate(this.template, { ...this.defaultParams, ...params }, this.key);
  }
}
