import { describe, expect, it } from 'vitest';
import { requestChanges } from '../review/request-changes.ts';
import { planned, waitingJob } from '../testing/review-fixtures.ts';
import { refusal, unwrap } from '../testing/unwrap.ts';
import { completeTodo } from './complete-todo.ts';
import type { PhaseJob } from './phase-job.ts';
import { phaseJobFromJSON } from './phase-job-from-json.ts';
import { startPhaseJob } from './start-phase-job.ts';

const T0 = 1_000_000;

// biome-ignore lint/suspicious/noExplicitAny: the tests edit parsed JSON at any depth
type Data = any;

function altered(job: PhaseJob, change: (data: Data) => void): string {
  const data = JSON.parse(JSON.stringify(job));
  change(data);
  return JSON.stringify(data);
}

describe('phaseJobFromJSON', () => {
  it('reads back every job the steps make, equal and frozen, from text or parsed data', () => {
    const waiting = waitingJob(T0);
    const revising = unwrap(requestChanges(waiting, { now: T0 + 1, feedback: 'more' }));
    const started = startPhaseJob({ jobId: 'j', now: T0 });
    const progressed = unwrap(completeTodo(started, { id: 1, now: T0 }));
    for (const job of [started, progressed, waiting, revising]) {
      const read = unwrap(phaseJobFromJSON(JSON.stringify(job)));
      expect(read).toEqual(job);
      expect(Object.isFrozen(read.todos)).toBe(true);
      expect(unwrap(phaseJobFromJSON(JSON.parse(JSON.stringify(job))))).toEqual(job);
    }
  });

  it('refuses malformed JSON, another format and another version', () => {
    expect(refusal(phaseJobFromJSON('{"format":'))).toMatchObject({
      code: 'state_invalid',
      field: 'text',
    });
    expect(refusal(phaseJobFromJSON({ format: 'plankit.workshop' })).field).toBe('format');
    expect(
      refusal(
        phaseJobFromJSON(
          altered(startPhaseJob({ jobId: 'j', now: 0 }), (d) => {
            d.version = 2;
          }),
        ),
      ).code,
    ).toBe('state_version_unknown');
  });

  it('names the field of a bad value', () => {
    const job = startPhaseJob({ jobId: 'j', now: 0 });
    const cases: [(data: Data) => void, string][] = [
      [
        (d) => {
          d.todos[0].id = '1';
        },
        'todos[0].id',
      ],
      [
        (d) => {
          d.extra = true;
        },
        'value',
      ],
      [
        (d) => {
          d.machine.state = 'nowhere';
        },
        'machine.state',
      ],
      [
        (d) => {
          d.machine.caps.turns = 3;
        },
        'machine.caps',
      ],
      [
        (d) => {
          d.phase = 'tactical';
        },
        'phase',
      ],
      [
        (d) => {
          d.phaseKind = 'tactical';
        },
        'phaseKind',
      ],
      [
        (d) => {
          d.todos[1].id = 1;
        },
        'todos',
      ],
      [
        (d) => {
          d.review.status = 'required';
        },
        'review.status',
      ],
      [
        (d) => {
          d.review.cycles = 1;
        },
        'review.feedback',
      ],
      [
        (d) => {
          d.updatedAt = -1;
        },
        'updatedAt',
      ],
      [
        (d) => {
          d.handoff = { phase: null, description: null, todos: [{ id: 1, content: 'a' }] };
        },
        'handoff',
      ],
    ];
    for (const [change, field] of cases) {
      const error = refusal(phaseJobFromJSON(altered(job, change)));
      expect(error.code, field).toBe('state_invalid');
      expect(error.field, error.message).toBe(field);
    }
  });

  it('refuses unknown keys at any depth', () => {
    const job = startPhaseJob({ jobId: 'j', now: 0 });
    expect(
      refusal(
        phaseJobFromJSON(
          altered(job, (d) => {
            d.signals = [{ type: 'history_reset', extra: 1 }];
          }),
        ),
      ).field,
    ).toMatch(/^signals\[0\]/);
  });
});

describe('phaseJobFromJSON: the todos gate', () => {
  const tactical = planned(startPhaseJob({ jobId: 'j', now: T0 }), T0);
  const waiting = waitingJob(T0);

  it('reads back the tactical phase and the held hand-off the gate let through', () => {
    expect(tactical.phase).toBe('tactical');
    expect(unwrap(phaseJobFromJSON(JSON.stringify(tactical)))).toEqual(tactical);
    expect(unwrap(phaseJobFromJSON(JSON.stringify(waiting)))).toEqual(waiting);
  });

  const todo = (id: number) => ({ id, content: `Do ${id}`, status: 'pending' });
  it.each<[string, PhaseJob, (data: Data) => void, string]>([
    [
      'a tactical phase with no todos',
      tactical,
      (d) => {
        d.todos = [];
      },
      'todos',
    ],
    [
      'a tactical phase with 30 todos',
      tactical,
      (d) => {
        d.todos = Array.from({ length: 30 }, (_, i) => todo(i + 1));
      },
      'todos',
    ],
    [
      'a tactical todo with blank content',
      tactical,
      (d) => {
        d.todos[0].content = '   ';
      },
      'todos',
    ],
    [
      'a held hand-off of 2 todos',
      waiting,
      (d) => {
        d.handoff.todos = d.handoff.todos.slice(0, 2);
      },
      'handoff.todos',
    ],
    [
      'strategic todos that are not the predefined ones',
      waiting,
      (d) => {
        d.todos[0].content = 'Something else';
      },
      'todos',
    ],
    [
      'a predefined list with repeated ids',
      waiting,
      (d) => {
        d.settings.todos.revision = [
          { id: 1, content: 'a' },
          { id: 1, content: 'b' },
        ];
      },
      'settings.todos.revision',
    ],
  ])('refuses %s', (_, job, change, field) => {
    const error = refusal(phaseJobFromJSON(altered(job, change)));
    expect(error).toMatchObject({ code: 'state_invalid', field });
    expect(error.message.length).toBeLessThan(2000);
  });
});
