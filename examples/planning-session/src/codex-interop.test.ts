import { expect, it } from 'vitest';
import { runCodexInterop } from './codex-interop.ts';

it('carries Codex update_plan calls into a plankit plan and back, ids stable', async () => {
  const lines: string[] = [];
  await runCodexInterop((line) => lines.push(line));
  const output = lines.join('\n');
  expect(lines[0]).toBe('Turn 1: planning_setup_plan, planning_mark_step');
  expect(lines[1]).toBe('Turn 2: planning_update_step, planning_mark_step, planning_mark_step');
  expect(output).toContain('S002');
  expect(output).toContain('Fix the tokenizer');
  expect(output).toContain('"step":"Update the changelog","status":"in_progress"');
  expect(output).toContain('Refused: status_invalid');
  await expect(output).toMatchFileSnapshot('./__snapshots__/codex-interop-output.txt');
});
