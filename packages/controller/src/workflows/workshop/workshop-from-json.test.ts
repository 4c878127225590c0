import { describe, expect, it } from 'vitest';
import { refusal, unwrap } from '../testing/unwrap.ts';
import { compiled, formalizing, round } from '../testing/workshop-steps.ts';
import { redoWorkshop } from './redo-workshop.ts';
import { workshopFromJSON } from './workshop-from-json.ts';
import type { WorkshopState } from './workshop-state.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests edit parsed JSON at any depth
type Data = any;

function altered(state: WorkshopState, change: (data: Data) => void): string {
  const data = JSON.parse(JSON.stringify(state));
  change(data);
  return JSON.stringify(data);
}

describe('workshopFromJSON', () => {
  it('reads back every state, equal and frozen', () => {
    const ready = round(compiled());
    const redone = unwrap(redoWorkshop(ready, { now: ready.updatedAt }));
    for (const state of [formalizing(), compiled(), ready, redone]) {
      const read = unwrap(workshopFromJSON(JSON.stringify(state)));
      expect(read).toEqual(state);
      expect(Object.isFrozen(read.transcript)).toBe(true);
    }
  });

  it('refuses states that break an invariant, naming the field', () => {
    const ready = round(compiled());
    const cases: [WorkshopState, (data: Data) => void, string][] = [
      [
        formalizing(),
        (d) => {
          d.machine.state = 'workshop';
          d.machine.trace[d.machine.trace.length - 1].to = 'workshop';
          d.artifacts = [{ name: 'plan.md', content: '#' }];
        },
        'artifacts',
      ],
      [
        ready,
        (d) => {
          d.artifacts = d.artifacts.slice(0, 2);
        },
        'artifacts',
      ],
      [
        ready,
        (d) => {
          d.artifacts[1].content = '# edited by hand';
        },
        'artifacts',
      ],
      [
        ready,
        (d) => {
          d.artifacts.reverse();
        },
        'artifacts[1].name',
      ],
      [
        ready,
        (d) => {
          d.transcript[0].round = 3;
        },
        'transcript[1].round',
      ],
      [
        ready,
        (d) => {
          d.round = 1;
        },
        'transcript[1].round',
      ],
      [
        ready,
        (d) => {
          d.attempt = 2;
        },
        'attempt',
      ],
      [
        ready,
        (d) => {
          d.machine.caps.turns = 5;
        },
        'machine.caps',
      ],
      [
        ready,
        (d) => {
          d.machine.state = 'nowhere';
        },
        'machine.state',
      ],
      [
        ready,
        (d) => {
          d.transcript[0].content = '';
        },
        'transcript[0].content',
      ],
    ];
    for (const [state, change, field] of cases) {
      const error = refusal(workshopFromJSON(altered(state, change)));
      expect(error.code).toBe('state_invalid');
      expect(error.field, error.message).toBe(field);
    }
    expect(
      refusal(
        workshopFromJSON(
          altered(ready, (d) => {
            d.version = 9;
          }),
        ),
      ).code,
    ).toBe('state_version_unknown');
    expect(refusal(workshopFromJSON('nope')).field).toBe('text');
  });
});
