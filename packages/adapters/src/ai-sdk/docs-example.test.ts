import { readFile } from 'node:fs/promises';
import { expect, it, vi } from 'vitest';

// The snippet is written for ai@7, what `npm install ai` gives today: here `ai` is ai@7 as in an
// app that installed only it (its types are checked by types-ai-v7/tsconfig.json).
vi.mock('ai', () => import('ai-v7'));
vi.mock('ai/test', () => import('ai-v7/test'));

it('is the AI SDK snippet docs/adapters.md shows, and prints what it says', async () => {
  const example = new URL('../../types-ai-v7/docs-example.ts', import.meta.url);
  const source = await readFile(example, 'utf8');
  const docs = await readFile(new URL('../../../../docs/adapters.md', import.meta.url), 'utf8');
  expect(docs).toContain(`\`\`\`ts ai7\n${source}\`\`\``);

  const printed: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => printed.push(line));
  // By URL, so the repository's ai@6 type check does not follow it.
  await import(example.href);
  log.mockRestore();
  expect(printed).toEqual([
    'c1 ok: Plan initialised with 1 step.',
    'c2 ok: Step S001 marked as done.',
    'c3 error (step_unknown): Tool validation failed: Step S009 does not exist.',
    'Shipped.',
  ]);
});
