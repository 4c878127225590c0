import type { Result } from '@plankit/core';
import { storableProblem } from '@plankit/core/internal-unstable';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binaryString } from '../../core/src/testing/binary-string.ts';
import { defineMachine } from './engine/define-machine.ts';
import { initialSnapshot } from './engine/initial-snapshot.ts';
import type { MachineSnapshot } from './engine/machine-snapshot.ts';
import { machineSnapshotFromJSON } from './engine/machine-snapshot-from-json.ts';
import { reportCap } from './engine/report-cap.ts';
import { resume } from './engine/resume.ts';
import { transition } from './engine/transition.ts';
import { completeJob } from './workflows/phases/complete-job.ts';
import { completeTodo } from './workflows/phases/complete-todo.ts';
import type { PhaseJob } from './workflows/phases/phase-job.ts';
import { phaseJobFromJSON } from './workflows/phases/phase-job-from-json.ts';
import { startPhaseJob } from './workflows/phases/start-phase-job.ts';
import { approvePlan } from './workflows/review/approve-plan.ts';
import { requestChanges } from './workflows/review/request-changes.ts';
import { skipReview } from './workflows/review/skip-review.ts';
import { redoWorkshop } from './workflows/workshop/redo-workshop.ts';
import { startWorkshop } from './workflows/workshop/start-workshop.ts';
import { workshopFromJSON } from './workflows/workshop/workshop-from-json.ts';
import { workshopRound } from './workflows/workshop/workshop-round.ts';
import type { WorkshopState } from './workflows/workshop/workshop-state.ts';
import { writeArtifact } from './workflows/workshop/write-artifact.ts';

// Whatever these functions accept or return survives its own JSON and fromJSON
// exactly, and every refusal stays under 2,000 characters, whatever text the input holds.

const EDGES = [
  '\ud800',
  '\udfff',
  'a\udc00',
  '\ud83d\ude00',
  '\u0000',
  '\n',
  '\r\n',
  '\t',
  '\u007f',
  '\u0085',
  '\u2028',
  '\ufeff',
  '"',
  '\\',
  'x',
  ' ',
];
/** Text with the edges of Unicode and JSON in it: lone surrogates, U+0000, controls, pairs. */
const text: fc.Arbitrary<string> = fc.oneof(
  {
    arbitrary: fc.string({ unit: fc.constantFrom(...EDGES), minLength: 1, maxLength: 12 }),
    weight: 4,
  },
  { arbitrary: binaryString({ minLength: 1, maxLength: 12 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }), weight: 2 },
  // Long enough to reach every length rule, with an edge at the end.
  {
    arbitrary: fc
      .tuple(fc.integer({ min: 1_900, max: 120_000 }), fc.constantFrom(...EDGES))
      .map(([n, edge]) => `${'y'.repeat(n)}${edge}`),
    weight: 1,
  },
);

/** The result's value read back through JSON and `read`, or its refusal checked. */
function check<T>(
  before: T,
  result: Result<T, Error>,
  read: (json: unknown) => Result<T, Error>,
): T {
  const frozen = JSON.stringify(before);
  if (!result.ok) {
    expect(result.error.message.length).toBeLessThan(2000);
    expect(JSON.stringify(before)).toBe(frozen);
    return before;
  }
  const value = result.value;
  expect(storableProblem(value)).toBeUndefined();
  const back = read(JSON.parse(JSON.stringify(value)));
  if (!back.ok) throw back.error;
  expect(back.value).toEqual(value);
  return value;
}

const machine = defineMachine({
  id: 'texts',
  initial: 'a',
  caps: { turns: 40 },
  onCap: { default: 'z' },
  states: {
    a: { on: { go: 'b', end: 'z' } },
    b: { on: { go: 'a', end: 'z' } },
    z: { kind: 'final' },
  },
});

describe('unicode edge text round-trips or is refused', () => {
  it('machine snapshots', () => {
    const event = fc.record(
      {
        outcome: fc.oneof(fc.constant('go'), text),
        reason: text,
        violations: fc.array(text, { maxLength: 3 }),
        adaptations: fc.array(fc.record({ kind: text, summary: text }), { maxLength: 2 }),
        tool: fc.oneof(text, fc.record({ name: text, args: text, result: text })),
      },
      { requiredKeys: ['outcome'] },
    );
    const step = fc.oneof(
      { arbitrary: event.map((e) => ({ kind: 'event' as const, e })), weight: 6 },
      { arbitrary: text.map((reason) => ({ kind: 'cap' as const, reason })), weight: 1 },
      { arbitrary: text.map((reason) => ({ kind: 'resume' as const, reason })), weight: 1 },
    );
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
        let snapshot: MachineSnapshot = initialSnapshot(machine, { now: 0 });
        const read = (json: unknown) => machineSnapshotFromJSON(machine, json);
        for (const [i, s] of steps.entries()) {
          const now = i + 1;
          const result =
            s.kind === 'event'
              ? transition(machine, snapshot, { ...s.e, now })
              : s.kind === 'cap'
                ? reportCap(machine, snapshot, { cap: 'turns', now, reason: s.reason })
                : resume(machine, snapshot, { now, reason: s.reason });
          snapshot = check(snapshot, result as Result<MachineSnapshot, Error>, read);
        }
      }),
      { numRuns: 80 },
    );
  }, 30_000);

  it('workshop states', () => {
    const step = fc.oneof(
      {
        arbitrary: fc
          .array(fc.record({ actor: text, content: text }), { minLength: 1, maxLength: 3 })
          .map((entries) => ({ kind: 'round' as const, entries })),
        weight: 5,
      },
      {
        arbitrary: fc
          .tuple(fc.constantFrom('planning.ai.json', 'plan.files.json', 'plan.md'), text)
          .map(([name, content]) => ({ kind: 'write' as const, name, content })),
        weight: 2,
      },
      { arbitrary: text.map((reason) => ({ kind: 'redo' as const, reason })), weight: 1 },
    );
    fc.assert(
      fc.property(text, fc.array(step, { minLength: 1, maxLength: 10 }), (brief, steps) => {
        let state: WorkshopState;
        try {
          state = startWorkshop({ now: 0, brief });
        } catch (error) {
          expect((error as Error).message.length).toBeLessThan(2000);
          state = startWorkshop({ now: 0, brief: 'Plan it.' });
        }
        expect(unwrapRead(workshopFromJSON(JSON.parse(JSON.stringify(state))))).toEqual(state);
        for (const [i, s] of steps.entries()) {
          const now = i + 1;
          const result =
            s.kind === 'round'
              ? workshopRound(state, {
                  now,
                  entries: s.entries,
                  signals: { no_new_info: i % 3 === 2 },
                })
              : s.kind === 'write'
                ? writeArtifact(state, { now, name: s.name, content: s.content })
                : redoWorkshop(state, { now, reason: s.reason });
          state = check(state, result, workshopFromJSON);
        }
      }),
      { numRuns: 60 },
    );
  }, 30_000);

  it('phase jobs', () => {
    const todos = fc
      .tuple(fc.integer({ min: 0, max: 6 }), text, fc.boolean())
      .map(([slot, edge, quoted]) => {
        const items = Array.from({ length: 5 }, (_, i) => `  - id: ${i + 1}\n    content: t${i}`);
        const scalar = quoted ? JSON.stringify(edge) : edge;
        if (slot < 5) items[slot] = `  - id: ${slot + 1}\n    content: ${scalar}`;
        const head =
          slot === 5 ? `phase: ${scalar}\n` : slot === 6 ? `description: ${scalar}\n` : '';
        return `${head}todos:\n${items.join('\n')}\n`;
      });
    const review = fc.oneof(
      text.map((feedback) => ({ kind: 'changes' as const, feedback })),
      text.map((reason) => ({ kind: 'approve' as const, reason })),
      text.map((reason) => ({ kind: 'skip' as const, reason })),
    );
    fc.assert(
      fc.property(todos, review, text, (yaml, decision, summary) => {
        let job: PhaseJob = startPhaseJob({ jobId: 'job-1', now: 0, interactive: true });
        let now = 0;
        for (const todo of job.todos) {
          now += 1;
          job = check(job, completeTodo(job, { id: todo.id, now, todos: yaml }), phaseJobFromJSON);
        }
        now += 1;
        const decided =
          decision.kind === 'changes'
            ? requestChanges(job, { now, feedback: decision.feedback })
            : decision.kind === 'approve'
              ? approvePlan(job, { now, reason: decision.reason })
              : skipReview(job, { now, reason: decision.reason });
        job = check(job, decided, phaseJobFromJSON);
        job = check(job, completeJob(job, { now: now + 1, summary }), phaseJobFromJSON);
      }),
      { numRuns: 60 },
    );
  }, 30_000);
});

function unwrapRead<T>(result: Result<T, Error>): T {
  if (!result.ok) throw result.error;
  return result.value;
}
