import { escapeRefusedText } from '@plankit/core/internal-unstable';
import type { EvalReport } from './build-report.ts';
import { type ReportBlock, reportDocument } from './report-document.ts';

export { dollars, percent } from './report-document.ts';

/**
 * Text as one markdown line: every run of whitespace (line breaks included) becomes one space,
 * what the Unicode text mode refuses (control and bidirectional characters, invisible ones) is
 * written as a visible `\uXXXX`, and the characters markdown reads as syntax
 * (`\ ` * _ [ ] < > | ~ &`) are backslash-escaped, as is a leading `- + # =`, so the text shows
 * as written and can never start a list item or a heading, close a table cell, open HTML, or
 * reorder or hide the text around it.
 */
export function markdownText(text: string): string {
  return cellText(text).replace(/^[-+#=]/, (char) => `\\${char}`);
}

/**
 * Text as a heading: as {@link markdownText}, and a closing run of `#` (which markdown drops
 * from a heading) starts with an escaped `\#`, so the heading shows it.
 */
function headingText(text: string): string {
  return markdownText(text).replace(/ (#+)$/, ' \\$1');
}

/** Text as a table cell: as {@link markdownText}, but a cell can start with `-` or `+`. */
function cellText(text: string): string {
  return escapeRefusedText(text.replace(/\s+/g, ' ').trim()).replace(
    /[\\`*_[\]<>|~&]/g,
    (char) => `\\${char}`,
  );
}

function row(cells: readonly string[]): string {
  return `| ${cells.map(cellText).join(' | ')} |`;
}

function block(item: ReportBlock): string[] {
  switch (item.kind) {
    case 'title':
      return [`# ${headingText(item.text)}`, ''];
    case 'heading':
      return [`## ${headingText(item.text)}`, ''];
    case 'verdict':
      return [`- ${markdownText(item.text)}`];
    case 'paragraph':
      return [markdownText(item.text), ''];
    case 'table':
      return [
        row(item.head),
        `| ${item.numeric.map((right) => (right ? '---:' : '---')).join(' | ')} |`,
        ...item.rows.map(row),
        '',
      ];
    case 'charts':
      return [];
    default: {
      const unknown: never = item;
      throw new Error(`renderMarkdown: unknown block ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * The report as markdown: the verdict first, then the arms, pairs and plan behaviour tables,
 * judge verdicts, and the method. Config text (the name, labels, model ids) is escaped, so it
 * cannot shift a table column or forge a verdict line. Byte-stable for a given report.
 *
 * @public
 */
export function renderMarkdown(report: EvalReport): string {
  const lines: string[] = [];
  let previous: ReportBlock['kind'] | undefined;
  for (const item of reportDocument(report)) {
    // The verdict lines form one list; a blank line closes it before the next block.
    if (previous === 'verdict' && item.kind !== 'verdict') lines.push('');
    lines.push(...block(item));
    previous = item.kind;
  }
  while (lines.at(-1) === '') lines.pop();
  return `${lines.join('\n')}\n`;
}
