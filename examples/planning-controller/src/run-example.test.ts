import { createPlanningController, replay } from '@plankit/controller';
import { expect, it } from 'vitest';
import { runExample } from './run-example.ts';

const planningMachine = createPlanningController();

it('drives the planning controller through a retry, a rejection and completion', async () => {
  const lines: string[] = [];
  const snapshot = runExample((line) => lines.push(line), { verbose: true });
  const output = lines.join('\n');
  expect(output).toContain('VALIDATE_OUTLINE --invalid_retryable--> DRAFT_OUTLINE');
  expect(output).toContain(
    `response_text: The plan is ready for your review. Reply 'approve' or 'propose changes: ...'`,
  );
  expect(output).toContain('reply "propose changes: move the public launch to May" -> rejected');
  expect(output).toContain('planning_status=complete');
  expect(output).toContain('stateDiagram-v2');
  expect(snapshot.state).toBe('COMPLETE');
  expect(snapshot.counters.retries).toEqual({ COMPLETE: 0 });
  expect(snapshot.trace.map((entry) => entry.outcome)).toContain('rejected');
  // The printed trace is the real one: replaying it gives the same snapshot.
  expect(replay(planningMachine, snapshot.trace, { now: snapshot.startedAt })).toEqual({
    ok: true,
    value: snapshot,
  });
  await expect(output).toMatchFileSnapshot('./__snapshots__/example-output.txt');
});

it('leaves the trace table and the diagram out unless verbose', async () => {
  const short: string[] = [];
  const verbose: string[] = [];
  const snapshot = runExample((line) => short.push(line));
  runExample((line) => verbose.push(line), { verbose: true });
  expect(snapshot.state).toBe('COMPLETE');
  // The short output is the verbose one up to the summary, and nothing after it.
  expect(verbose.slice(0, short.length)).toEqual(short);
  expect(short.at(-1)).toMatch(/^turns 17 in 3 runs, spent /);
  expect(short.join('\n')).not.toContain('Trace:');
  expect(short.join('\n')).not.toContain('stateDiagram-v2');
  expect(short.length).toBeLessThan(30);
  await expect(short.join('\n')).toMatchFileSnapshot('./__snapshots__/example-summary.txt');
});
