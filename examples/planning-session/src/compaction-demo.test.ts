import { expect, it } from 'vitest';
import { runCompactionDemo } from './compaction-demo.ts';

it('keeps the plan exactly through 10 compactions that drop everything else', async () => {
  const lines: string[] = [];
  await runCompactionDemo((line) => lines.push(line));
  const output = lines.join('\n');
  expect(output.match(/plan intact/g)).toHaveLength(10);
  expect(output).not.toContain('LOST');
  expect(output).toContain('Status: completed');
  expect(output).toContain(
    'S010 [done] Release task 10 | notes: Task 10 checked | depends on: S009',
  );
  await expect(output).toMatchFileSnapshot('./__snapshots__/compaction-output.txt');
});
