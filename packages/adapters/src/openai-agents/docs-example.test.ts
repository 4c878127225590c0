import { readFile } from 'node:fs/promises';
import { expect, it, vi } from 'vitest';

it('is the OpenAI Agents SDK snippet docs/adapters.md shows, and prints what it says', async () => {
  const source = await readFile(new URL('./docs-example.ts', import.meta.url), 'utf8');
  const docs = await readFile(new URL('../../../../docs/adapters.md', import.meta.url), 'utf8');
  expect(docs).toContain(`\`\`\`ts\n${source}\`\`\``);

  const printed: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => printed.push(line));
  await import('./docs-example.ts');
  log.mockRestore();
  expect(printed).toEqual(['waiting for: planning_clear_plan', 'Done.', 'plan: abandoned']);
});
