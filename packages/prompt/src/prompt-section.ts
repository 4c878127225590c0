import type { AnyTool } from '@plankit/core';
import { PromptRenderError } from './prompt-render-error.ts';

/** How a section is placed in the document. @public */
export interface SectionRenderOptions {
  /** Nesting depth, 0-4: the heading gets `depth + 2` hashes. 0 by default. */
  readonly depth?: number | undefined;
  /** Heading number, such as `2` or `2.1`; unnumbered when absent. */
  readonly number?: string | undefined;
  /** Params of child sections, keyed by their keys (a {@link Prompt} passes its params here). */
  readonly childParams?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Anything a {@link Prompt} can hold: a keyed, titled block that renders to markdown and may
 * expose tools.
 *
 * @public
 */
export interface PromptSection<TParams = unknown> {
  /** Unique within a prompt: `^[a-z0-9][a-z0-9._-]{0,63}$`. */
  readonly key: string;
  /** The heading text. */
  readonly title: string;
  /** Nested sections, rendered after the body. */
  readonly children: readonly PromptSection[];
  /** Renders the heading, the body and the children. */
  render(params?: TParams, options?: SectionRenderOptions): string;
  /** The tools this section (not its children) exposes, in order. */
  tools(): readonly AnyTool[];
}

const KEY = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const NUMBER = /^[0-9]+(\.[0-9]+)*$/;
const MAX_DEPTH = 4;

/** Checks a section's key and title at construction. */
export function checkSectionIdentity(key: unknown, title: unknown): void {
  if (typeof key !== 'string' || !KEY.test(key)) {
    throw new PromptRenderError(
      'section_invalid',
      `Section key must match ${KEY.source}, got ${JSON.stringify(key)}.`,
      {
        field: 'key',
      },
    );
  }
  if (typeof title !== 'string' || title.trim() === '' || /[\r\n]/.test(title)) {
    throw new PromptRenderError(
      'section_invalid',
      `Section '${key}' title must be one non-empty line.`,
      { field: 'title' },
    );
  }
}

/** The heading line, checking depth and number. */
export function renderHeading(key: string, title: string, options: SectionRenderOptions): string {
  const depth = options.depth ?? 0;
  if (!Number.isInteger(depth) || depth < 0 || depth > MAX_DEPTH) {
    throw new PromptRenderError(
      'options_invalid',
      `Section '${key}' depth must be an integer from 0 to ${MAX_DEPTH}.`,
      {
        field: 'depth',
      },
    );
  }
  const number = options.number;
  if (number !== undefined && (typeof number !== 'string' || !NUMBER.test(number))) {
    throw new PromptRenderError(
      'options_invalid',
      `Section '${key}' number must look like 2 or 2.1.`,
      { field: 'number' },
    );
  }
  return `${'#'.repeat(depth + 2)} ${number === undefined ? '' : `${number}. `}${title}`;
}

/** Renders `children` one level below a section, numbered under it when it is numbered. */
export function renderChildren(
  children: readonly PromptSection[],
  options: SectionRenderOptions,
): string[] {
  const depth = (options.depth ?? 0) + 1;
  return children.map((child, index) =>
    child.render(options.childParams?.[child.key], {
      depth,
      number: options.number === undefined ? undefined : `${options.number}.${index + 1}`,
      childParams: options.childParams,
    }),
  );
}
