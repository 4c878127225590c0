import { PromptRenderError } from './prompt-render-error.ts';

/** Values a placeholder accepts. @public */
export type TemplateValue = string | number | boolean;

const PLACEHOLDER = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Removes the common leading whitespace of non-blank lines, then trims the whole text. */
export function dedent(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let common: number | undefined;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const indent = line.length - line.trimStart().length;
    common = common === undefined ? indent : Math.min(common, indent);
  }
  const cut = common ?? 0;
  return lines
    .map((line) => (line.trim() === '' ? '' : line.slice(cut)))
    .join('\n')
    .trim();
}

/** The placeholder names of a template, in order of first appearance. */
export function placeholders(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1];
    if (name !== undefined && !names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * Fills `${name}` placeholders in one pass (values are never re-scanned), turning `$${` into
 * a literal `${`.
 */
export function fillTemplate(
  template: string,
  params: Readonly<Record<string, unknown>>,
  sectionKey: string,
): string {
  return template.replace(PLACEHOLDER, (_whole, name: string | undefined) => {
    if (name === undefined) return '${';
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    if (value === undefined || value === null) {
      throw new PromptRenderError(
        'placeholder_missing',
        `Section '${sectionKey}' has no value for placeholder \${${name}}.`,
        {
          field: name,
        },
      );
    }
    if (typeof value === 'string' || typeof value === 'boolean') return String(value);
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    throw new PromptRenderError(
      'placeholder_invalid',
      `Section '${sectionKey}' placeholder \${${name}} must be a string, a finite number or a boolean, got ${describe(value)}.`,
      { field: name },
    );
  });
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
