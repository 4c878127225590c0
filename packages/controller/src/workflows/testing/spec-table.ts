import { readFileSync } from 'node:fs';

/** One row of a machine's transition table in specs/workflows.md. */
export interface SpecRow {
  readonly state: string;
  readonly kind: string;
  readonly outcome: string;
  readonly target: string;
}

/** The rows of the first table after `heading` in specs/workflows.md. */
export function specTable(heading: string): SpecRow[] {
  const spec = readFileSync(new URL('../../../../../specs/workflows.md', import.meta.url), 'utf8');
  const section = spec.slice(spec.indexOf(heading));
  const lines = section.split('\n');
  const start = lines.findIndex((line) => line.startsWith('| state'));
  const rows: SpecRow[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [state = '', kind = '', outcome = '', target = ''] = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim().replace(/`/g, ''));
    rows.push({ state, kind, outcome, target });
  }
  return rows;
}

/** The docs page with each machine's diagram. */
export function workflowsDoc(): string {
  return readFileSync(new URL('../../../../../docs/workflows.md', import.meta.url), 'utf8');
}
