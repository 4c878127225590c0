import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { budgetFromJSON } from './budget/budget-from-json.ts';
import { createBudget } from './budget/create-budget.ts';
import { reserveBudget } from './budget/reserve-budget.ts';
import { ControllerError } from './controller-error.ts';
import { defineMachine } from './engine/define-machine.ts';
import { initialSnapshot } from './engine/initial-snapshot.ts';
import { machineSnapshotFromJSON } from './engine/machine-snapshot-from-json.ts';
import { reportCap } from './engine/report-cap.ts';
import { transition } from './engine/transition.ts';
import { createToolExecutor } from './stage-tools/create-tool-executor.ts';
import { defineStageTool } from './stage-tools/define-stage-tool.ts';
import { completeTodo } from './workflows/phases/complete-todo.ts';
import { phaseJobFromJSON } from './workflows/phases/phase-job-from-json.ts';
import { startPhaseJob } from './workflows/phases/start-phase-job.ts';
import { validateTodos } from './workflows/phases/validate-todos.ts';
import { requestChanges } from './workflows/review/request-changes.ts';
import { waitingJob } from './workflows/testing/review-fixtures.ts';
import { refusal, unwrap } from './workflows/testing/unwrap.ts';
import { formalizing } from './workflows/testing/workshop-steps.ts';
import { WorkflowError } from './workflows/workflow-error.ts';
import { startWorkshop } from './workflows/workshop/start-workshop.ts';
import { workshopFromJSON } from './workflows/workshop/workshop-from-json.ts';
import { workshopRound } from './workflows/workshop/workshop-round.ts';
import { writeArtifact } from './workflows/workshop/write-artifact.ts';

// Core's Session.dispatch refuses text no store can hold, and so does every controller function.
const LONE = '\ud800';
const UNSTORABLE = ['\ud800', 'a\udc00b', 'tail\ud83d', 'nul\u0000'];
const STORABLE = ['emoji 😀', 'tab\tnewline\nCR\r', 'del\u007f c1\u0085 sep\u2028', '\ufeffbom'];

const machine = defineMachine({
  id: 'm',
  initial: 'a',
  onCap: { default: 'z' },
  states: { a: { on: { go: 'b', end: 'z' } }, b: { on: { go: 'a' } }, z: { kind: 'final' } },
});

describe('controller functions refuse text no store can hold', () => {
  it.each(UNSTORABLE)('workshopRound refuses %j in an entry, naming the field', (text) => {
    const state = startWorkshop({ now: 0, brief: 'Plan it.' });
    const before = JSON.stringify(state);
    const error = refusal(
      workshopRound(state, { now: 1, entries: [{ actor: 'user', content: `x${text}` }] }),
    );
    expect(WorkflowError.isInstance(error)).toBe(true);
    expect(error.code).toBe('input_invalid');
    expect(error.field).toBe('input.entries[0].content');
    expect(error.message).toMatch(/must not contain (U\+0000|a lone surrogate)/);
    expect(JSON.stringify(state)).toBe(before);
  });

  it.each(STORABLE)('workshopRound keeps storable text %j, which reads back exactly', (text) => {
    const state = startWorkshop({ now: 0, brief: 'Plan it.' });
    const next = unwrap(
      workshopRound(state, { now: 1, entries: [{ actor: 'user', content: text }] }),
    );
    expect(unwrap(workshopFromJSON(JSON.parse(JSON.stringify(next))))).toEqual(next);
  });

  it('reserveBudget refuses a lone surrogate in the turn or the id', () => {
    const budget = createBudget({ now: 0 });
    const turn = reserveBudget(budget, { id: 'r1', usd: 0.1, turn: LONE, now: 1 });
    expect(turn.ok).toBe(false);
    if (!turn.ok) {
      expect(ControllerError.isInstance(turn.error)).toBe(true);
      expect(turn.error.code).toBe('input_invalid');
      expect(turn.error.field).toBe('input.turn');
    }
    const id = reserveBudget(budget, { id: `r${LONE}`, usd: 0.1, now: 1 });
    expect(!id.ok && id.error.field).toBe('input.id');
    const nul = reserveBudget(budget, { id: 'r\u0000', usd: 0.1, now: 1 });
    expect(!nul.ok && nul.error.field).toBe('input.id');
  });

  it('transition and reportCap refuse unstorable reasons, violations, adaptations and tool names', () => {
    const start = initialSnapshot(machine, { now: 0 });
    const cases: [Record<string, unknown>, string][] = [
      [{ reason: LONE }, 'event.reason'],
      [{ violations: ['ok', `v${LONE}`] }, 'event.violations[1]'],
      [{ adaptations: [{ kind: 'k', summary: 'a\u0000' }] }, 'event.adaptations[0].summary'],
      [{ tool: `t${LONE}` }, 'event.tool'],
      [{ tool: { name: `t${LONE}` } }, 'event.tool.name'],
      [{ outcome: LONE }, 'event.outcome'],
    ];
    for (const [extra, field] of cases) {
      const result = transition(machine, start, { outcome: 'go', now: 1, ...extra } as never);
      expect(result.ok, field).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe('input_invalid');
        expect(result.error.field).toBe(field);
      }
    }
    const capped = reportCap(machine, start, { cap: 'turns', now: 1, reason: `r${LONE}` });
    expect(!capped.ok && capped.error.field).toBe('input.reason');
    // Tool args and results are only hashed, never stored: any JSON is fine there.
    expect(
      transition(machine, start, { outcome: 'go', now: 1, tool: { name: 't', args: LONE } }).ok,
    ).toBe(true);
  });

  it('writeArtifact, requestChanges and completeTodo refuse unstorable text', () => {
    const state = formalizing();
    const artifact = refusal(
      writeArtifact(state, { now: 10, name: 'planning.ai.json', content: `{"t":"${LONE}"}` }),
    );
    expect(artifact.field).toBe('input.content');
    const job = waitingJob(0);
    expect(refusal(requestChanges(job, { now: 1, feedback: `fix${LONE}` })).field).toBe(
      'input.feedback',
    );
    // The hand-off (the last strategic todo) reads todos.yaml, whose escapes can make U+0000.
    const items = Array.from({ length: 5 }, (_, i) => `  - id: ${i + 1}\n    content: "t${i}"`);
    items[1] = '  - id: 2\n    content: "bad \\0 text"';
    const yaml = `todos:\n${items.join('\n')}\n`;
    let next = startPhaseJob({ jobId: 'j1', now: 0 });
    const last = next.todos[next.todos.length - 1];
    for (const todo of next.todos.slice(0, -1))
      next = unwrap(completeTodo(next, { id: todo.id, now: 1, todos: yaml }));
    if (last === undefined) throw new Error('no todo');
    // A rejected hand-off is a step: the agent reads why, and the job stays storable.
    const rejected = unwrap(completeTodo(next, { id: last.id, now: 1, todos: yaml }));
    expect(rejected.phase).toBe('strategic');
    expect(JSON.stringify(rejected.signals)).toContain('todos[1].content must not contain U+0000');
    expect(unwrap(phaseJobFromJSON(JSON.stringify(rejected)))).toEqual(rejected);
  });

  it('validateTodos refuses a todo whose content (from YAML escapes) no store can hold', () => {
    const items = Array.from({ length: 5 }, (_, i) => `  - id: ${i + 1}\n    content: "t${i}"`);
    items[2] = '  - id: 3\n    content: "lone \\ud800"';
    const error = refusal(validateTodos(`todos:\n${items.join('\n')}\n`));
    expect(error.code).toBe('todo_invalid');
    expect(error.field).toBe('todos[2].content');
    const phase = refusal(validateTodos(`phase: "\\0"\ntodos:\n${items.slice(0, 2).join('\n')}\n`));
    expect(['todo_invalid', 'todos_count']).toContain(phase.code);
  });

  it('startWorkshop and startPhaseJob throw argument_invalid naming the option', () => {
    expect(() => startWorkshop({ now: 0, brief: `b${LONE}` })).toThrow(/options\.brief/);
    expect(() =>
      startPhaseJob({
        jobId: 'j',
        now: 0,
        todos: { initial: [`x${LONE}`, 'b', 'c', 'd', 'e'] } as never,
      }),
    ).toThrow(WorkflowError);
  });

  it('every fromJSON refuses text JSON.parse lets through, naming the field', () => {
    const job = startPhaseJob({ jobId: 'j', now: 0 });
    const badJob = JSON.stringify(job).replace('"title":null', '"title":"\\ud800"');
    const readJob = refusal(phaseJobFromJSON(badJob));
    expect(readJob.code).toBe('state_invalid');
    expect(readJob.field).toBe('title');
    const workshop = startWorkshop({ now: 0, brief: 'Plan it.' });
    const badWorkshop = JSON.stringify(workshop).replace('Plan it.', 'Plan \\u0000');
    expect(refusal(workshopFromJSON(badWorkshop)).field).toBe('brief');
    const budget = unwrap(reserveBudget(createBudget({ now: 0 }), { id: 'r1', usd: 0, now: 0 }));
    const badBudget = JSON.stringify(budget).replaceAll('"r1"', '"r\\udfff"');
    const readBudget = budgetFromJSON(badBudget);
    expect(!readBudget.ok && readBudget.error.code).toBe('snapshot_invalid');
    const snapshot = unwrap(
      transition(machine, initialSnapshot(machine, { now: 0 }), {
        outcome: 'go',
        now: 1,
        reason: 'why',
      }),
    );
    const badSnapshot = JSON.stringify(snapshot).replace('"why"', '"\\ud800"');
    const readSnapshot = machineSnapshotFromJSON(machine, badSnapshot);
    expect(!readSnapshot.ok && readSnapshot.error.code).toBe('snapshot_invalid');
  });

  it('ToolExecutor refuses unstorable input and output text', async () => {
    const echo = defineStageTool({
      name: 'echo',
      description: 'Echo the text.',
      input: z.strictObject({ text: z.string() }),
      run: ({ text }) => ({ ok: true, confidence: 1, explanations: [], data: { text } }),
    });
    const leaky = defineStageTool({
      name: 'leaky',
      description: 'Returns a lone surrogate.',
      input: z.strictObject({}),
      run: () => ({ ok: true, confidence: 1, explanations: [], data: { deep: [LONE] } }),
    });
    const executor = createToolExecutor({ tools: [echo, leaky], modelId: 'm' });
    const input = await executor.run('echo', { text: LONE }, { artifacts: [] });
    expect(input.ok).toBe(false);
    expect(input.error?.code).toBe('tool_input_invalid');
    expect(input.error?.message).toContain('input.text');
    const output = await executor.run('leaky', {}, { artifacts: [] });
    expect(output.error?.code).toBe('tool_output_invalid');
    expect(output.error?.message).toContain('data.deep[0]');
  });
});
