import type { AnyTool } from '@plankit/core';
import { PromptRenderError } from './prompt-render-error.ts';
import type { PromptSection } from './prompt-section.ts';

/** What {@link Prompt} takes. @public */
export interface PromptOptions {
  /** Namespace, such as `agents/background`. */
  readonly ns: string;
  /** Key within the namespace. */
  readonly key: string;
  /** A human-readable name. */
  readonly name: string;
  /** The top-level sections, in order. */
  readonly sections: readonly PromptSection[];
}

/** Params of {@link Prompt.render}: each section's params under its key. @public */
export type PromptParams = Readonly<Record<string, unknown>>;

/** What {@link Prompt.render} returns. @public */
export interface RenderedPrompt {
  /** The markdown: numbered top-level sections joined by blank lines, no trailing newline. */
  readonly markdown: string;
  /** Every tool the sections expose, depth-first, in order. */
  readonly tools: readonly AnyTool[];
}

const ID = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,127}$/;

function* walk(sections: readonly PromptSection[]): Generator<PromptSection> {
  for (const section of sections) {
    yield section;
    yield* walk(section.children);
  }
}

/**
 * A system prompt made of sections. Rendering is deterministic: no time, no randomness,
 * stable ordering, so hosts can pin the output with snapshot tests.
 *
 * @example
 * ```ts
 * const prompt = new Prompt({ ns: 'agents/background', key: 'session-plan', name: 'session-plan', sections: [behaviour, planning] });
 * const { markdown, tools } = prompt.render({ behaviour: { objective: 'triage open bug reports' } });
 * ```
 * @public
 */
export class Prompt {
  /** Namespace. */
  readonly ns: string;
  /** Key within the namespace. */
  readonly key: string;
  /** Human-readable name. */
  readonly name: string;
  /** The top-level sections. */
  readonly sections: readonly PromptSection[];

  /**
   * Creates a prompt, checking that section keys and tool names are unique across the tree.
   *
   * @throws PromptRenderError `section_invalid`, naming the duplicate
   */
  constructor(options: PromptOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new PromptRenderError('section_invalid', 'Prompt options must be an object.');
    }
    for (const field of ['ns', 'key', 'name'] as const) {
      if (typeof options[field] !== 'string' || !ID.test(options[field])) {
        throw new PromptRenderError('section_invalid', `Prompt ${field} must match ${ID.source}.`, {
          field,
        });
      }
    }
    if (!Array.isArray(options.sections) || options.sections.length === 0) {
      throw new PromptRenderError('section_invalid', 'Prompt sections must be a non-empty array.', {
        field: 'sections',
      });
    }
    const keys = new Set<string>();
    const toolNames = new Set<string>();
    for (const section of walk(options.sections)) {
      if (typeof section?.render !== 'function') {
        throw new PromptRenderError('section_invalid', 'Prompt sections must be sections.', {
          field: 'sections',
        });
      }
      if (keys.has(section.key)) {
        throw new PromptRenderError(
          'section_invalid',
          `Section key '${section.key}' appears twice.`,
          { field: 'sections' },
        );
      }
      keys.add(section.key);
      for (const tool of section.tools()) {
        if (toolNames.has(tool.name)) {
          throw new PromptRenderError('section_invalid', `Tool '${tool.name}' is exposed twice.`, {
            field: 'sections',
          });
        }
        toolNames.add(tool.name);
      }
    }
    this.ns = options.ns;
    this.key = options.key;
    this.name = options.name;
    this.sections = Object.freeze([...options.sections]);
  }

  /**
   * Renders every section (top-level sections numbered 1, 2, ...) with the params under its
   * key, and collects the tools.
   *
   * @throws PromptRenderError when a section's params are missing or invalid
   */
  render(params: PromptParams = {}): RenderedPrompt {
    if (typeof params !== 'object' || params === null) {
      throw new PromptRenderError(
        'params_missing',
        `Prompt '${this.key}' params must be an object keyed by section.`,
      );
    }
    const markdown = this.sections
      .map((section, index) =>
        section.render(params[section.key], {
          depth: 0,
          number: `${index + 1}`,
          childParams: params,
        }),
      )
      .join('\n\n');
    const tools: AnyTool[] = [];
    for (const section of walk(this.sections)) tools.push(...section.tools());
    return Object.freeze({ markdown, tools: Object.freeze(tools) });
  }
}
