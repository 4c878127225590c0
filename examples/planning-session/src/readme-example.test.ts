import { readFile } from 'node:fs/promises';
import { expect, it, vi } from 'vitest';

it('is the example the README shows, and prints what it says', async () => {
  const source = await readFile(new URL('./readme-example.ts', import.meta.url), 'utf8');
  const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
  expect(readme).toContain(`\`\`\`ts\n${source}\`\`\``);
  expect(source.trimEnd().split('\n').length).toBeLessThanOrEqual(20);

  const printed: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => printed.push(line));
  await import('./readme-example.ts');
  log.mockRestore();
  expect(printed).toEqual([
    '## 1. Planning Tools',
    'Tool validation failed: Step S009 does not exist.',
    [
      '<plan-reminder>',
      'Objective: Ship v2',
      'Done: 1 of 2 steps',
      'Open:',
      'S002 [pending] Tag the release',
      'Keep the plan current with planning_mark_step.',
      '</plan-reminder>',
    ].join('\n'),
  ]);
});
