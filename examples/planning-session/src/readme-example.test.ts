import { readFile } from 'node:fs/promises';
import { expect, it, vi } from 'vitest';

it('is the example the README shows, and prints what its comments say', async () => {
  const source = await readFile(new URL('./readme-example.ts', import.meta.url), 'utf8');
  const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
  expect(readme).toContain(`\`\`\`ts\n${source}\`\`\``);

  const printed: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => printed.push(line));
  await import('./readme-example.ts');
  log.mockRestore();
  const expected = source
    .split('\n')
    .filter((line) => line.startsWith('//') && !line.startsWith('// Hand'))
    .map((line) => line.replace(/^\/\/ ?/, ''))
    .join('\n');
  expect(printed).toEqual(['Tool validation failed: Step S009 does not exist.', expected]);
});
