import { expect, it } from 'vitest';
import { runDemo } from './run-demo.ts';

it('runs the whole planning session, including one refused call and its correction', async () => {
  const lines: string[] = [];
  await runDemo((line) => lines.push(line));
  const output = lines.join('\n');
  expect(output).toContain('-> refused: Tool validation failed: Title must be ASCII.');
  expect(output).toContain('Status: completed');
  expect(output).toContain('restored into a new session: identical');
  await expect(output).toMatchFileSnapshot('./__snapshots__/demo-output.txt');
});
