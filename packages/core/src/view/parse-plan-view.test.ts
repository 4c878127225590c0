import { describe, expect, it } from 'vitest';
import {
  MAX_PLAN_VIEW_FIELD_DEPTH,
  MAX_PLAN_VIEW_FIELDS,
  MAX_PLAN_VIEW_STEPS,
  parsePlanView,
} from './parse-plan-view.ts';
import type { PlanView } from './plan-view.ts';

const step = (id: string, status: string, depends: string[] = [], waiting: string[] = []) => ({
  step_id: id,
  title: `Step ${id}`,
  details: null,
  status,
  depends_on: depends,
  waiting_on: waiting,
  owner: null,
  last_note: null,
});

const base = (): Record<string, unknown> => ({
  kind: 'plankit.plan',
  version: 1,
  objective: 'Ship',
  status: 'active',
  steps: [
    step('S001', 'done'),
    step('S002', 'pending', ['S001', 'S003'], ['S003']),
    step('S003', 'in_progress'),
  ],
  counts: { total: 3, done: 1, in_progress: 1, pending: 1, blocked: 0 },
  revision: { number: 4, explanation: 'why', agent: 'lead' },
});

function edited(
  edit: (view: Record<string, unknown> & { steps: Record<string, unknown>[] }) => void,
) {
  const view = base() as Record<string, unknown> & { steps: Record<string, unknown>[] };
  edit(view);
  return view;
}

describe('parsePlanView', () => {
  it('reads a well-formed view, leaving out fields it does not know (an own __proto__ key too)', () => {
    const json = JSON.stringify(base()).replace(/^\{/, '{"__proto__":{"kind":"x"},"extra":1,');
    const read = parsePlanView(JSON.parse(json));
    expect(read.ok).toBe(true);
    const value = (read as { value: PlanView }).value;
    expect(value).toEqual(base());
    expect(Object.keys(value)).not.toContain('extra');
    expect(Object.hasOwn(value, '__proto__')).toBe(false);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.isFrozen(value.steps[1]?.depends_on)).toBe(true);
  });

  it.each([
    [
      'not an object',
      'text',
      'plan_view_foreign',
      '',
      'Not a plan view: expected an object with kind "plankit.plan".',
    ],
    [
      'a foreign kind',
      edited((v) => {
        v['kind'] = 'other';
      }),
      'plan_view_foreign',
      'kind',
      'Not a plan view: expected an object with kind "plankit.plan".',
    ],
    [
      'a later version',
      edited((v) => {
        v['version'] = 2;
      }),
      'plan_view_version_unknown',
      'version',
      'Plan view field version must be 1, the version this reader knows, not 2.',
    ],
    [
      "a step id not in the tools' form",
      edited((v) => {
        (v.steps[0] as Record<string, unknown>)['step_id'] = 'S1';
      }),
      'plan_view_invalid',
      'steps[0].step_id',
      'Plan view field steps[0].step_id "S1" must be S and a step number from 001 to 9007199254740991 (S001, S1000), as the tools number steps.',
    ],
    [
      'a repeated step id',
      edited((v) => {
        (v.steps[2] as Record<string, unknown>)['step_id'] = 'S001';
      }),
      'plan_view_invalid',
      'steps[2].step_id',
      'Plan view field steps[2].step_id repeats S001.',
    ],
    [
      'a missing title',
      edited((v) => {
        delete (v.steps[0] as Record<string, unknown>)['title'];
      }),
      'plan_view_invalid',
      'steps[0].title',
      'Plan view field steps[0].title must be a string, not undefined (missing).',
    ],
    [
      'an unknown status',
      edited((v) => {
        (v.steps[0] as Record<string, unknown>)['status'] = 'skipped';
      }),
      'plan_view_invalid',
      'steps[0].status',
      'Plan view field steps[0].status must be one of pending, in_progress, blocked, done, not "skipped".',
    ],
    [
      'a dependency on no step',
      edited((v) => {
        (v.steps[1] as Record<string, unknown>)['depends_on'] = ['S009'];
      }),
      'plan_view_invalid',
      'steps[1].depends_on[0]',
      'Plan view field steps[1].depends_on[0] must name another step of the plan, not S009.',
    ],
    [
      'waiting_on that disagrees',
      edited((v) => {
        (v.steps[1] as Record<string, unknown>)['waiting_on'] = [];
      }),
      'plan_view_invalid',
      'steps[1].waiting_on',
      'Plan view field steps[1].waiting_on must list the depends_on ids whose step is not done, in order (S003).',
    ],
    [
      'counts that disagree',
      edited((v) => {
        v['counts'] = { total: 3, done: 2, in_progress: 0, pending: 1, blocked: 0 };
      }),
      'plan_view_invalid',
      'counts.done',
      'Plan view field counts.done must be 1, the number the steps give, not 2.',
    ],
    [
      'NaN in the counts',
      edited((v) => {
        v['counts'] = { total: Number.NaN };
      }),
      'plan_view_invalid',
      'counts.total',
      'Plan view field counts.total must be a whole number of at least 0, not a non-finite number.',
    ],
    [
      'a status that disagrees',
      edited((v) => {
        v['status'] = 'completed';
      }),
      'plan_view_invalid',
      'status',
      'Plan view field status must be active for these steps, not completed.',
    ],
    [
      'a malformed owner',
      edited((v) => {
        (v.steps[0] as Record<string, unknown>)['owner'] = '__proto__';
      }),
      'plan_view_invalid',
      'steps[0].owner',
      'Plan view field steps[0].owner must be 1-64 characters (letters, digits and . _ : @ / + -), starting with a letter or digit.',
    ],
    [
      'a revision number of 0',
      edited((v) => {
        v['revision'] = { number: 0, explanation: null, agent: null };
      }),
      'plan_view_invalid',
      'revision.number',
      'Plan view field revision.number must be a whole number of at least 1, not 0.',
    ],
    [
      'a control character in a note',
      edited((v) => {
        (v.steps[0] as Record<string, unknown>)['last_note'] = 'a\nb';
      }),
      'plan_view_invalid',
      'steps[0].last_note',
      'Plan view field steps[0].last_note must not contain control characters.',
    ],
  ])('refuses %s, naming the field and the rule', (_name, value, code, field, message) => {
    expect(parsePlanView(value)).toEqual({ ok: false, error: { code, field, message } });
  });

  it('reads text in any language that the tools of either text mode could store, and refuses the rest naming the code point', () => {
    const world = edited((view) => {
      view['objective'] = '\u30ea\u30ea\u30fc\u30b9';
      (view.steps[0] as Record<string, unknown>)['title'] = 'Ship v2 \u{1f680}';
      (view.steps[1] as Record<string, unknown>)['last_note'] = 'Don\u2019t forget tests';
      (view['revision'] as Record<string, unknown>)['explanation'] = 'caf\u00e9';
    });
    const read = parsePlanView(world);
    expect(read.ok && read.value.steps[0]?.title).toBe('Ship v2 \u{1f680}');
    const cases: [
      (view: Record<string, unknown> & { steps: Record<string, unknown>[] }) => void,
      string,
      string,
    ][] = [
      [
        (view) => {
          (view.steps[2] as Record<string, unknown>)['title'] = 'a\u202eb';
        },
        'steps[2].title',
        'Plan view field steps[2].title must not contain U+202E (a bidirectional control).',
      ],
      [
        (view) => {
          view['objective'] = 'cafe\u0301';
        },
        'objective',
        'Plan view field objective must be in Unicode normalization form C (NFC).',
      ],
      [
        (view) => {
          (view['revision'] as Record<string, unknown>)['explanation'] = 'ok\u{e0041}';
        },
        'revision.explanation',
        'Plan view field revision.explanation must not contain U+E0041 (an invisible character).',
      ],
    ];
    for (const [edit, field, message] of cases) {
      expect(parsePlanView(edited(edit))).toEqual({
        ok: false,
        error: { code: 'plan_view_invalid', field, message },
      });
    }
  });

  it('keeps the fields extensions add as JSON data, copied and frozen', () => {
    const goal = { objective: 'Ship', status: 'active', budget: { tokens: null, turns: [1, 2] } };
    const given = { ...base(), fields: { goal, constructor: 'x' } };
    const read = parsePlanView(given);
    expect(read.ok && read.value.fields).toEqual({ goal, constructor: 'x' });
    const fields = (read as { value: PlanView }).value.fields as Record<string, unknown>;
    expect(fields['goal']).not.toBe(goal);
    expect(Object.isFrozen((fields['goal'] as typeof goal).budget.turns)).toBe(true);
    goal.objective = 'changed';
    expect((fields['goal'] as typeof goal).objective).toBe('Ship');
    // Absent stays absent.
    const plain = parsePlanView(base());
    expect(plain.ok && 'fields' in plain.value).toBe(false);
  });

  it.each([
    ['not an object', [], 'fields', 'Plan view field fields must be an object, not an array.'],
    [
      'a bad name',
      { 'Goal!': 1 },
      'fields["Goal!"]',
      'Plan view field fields["Goal!"] name must be 1-64 of a-z, 0-9 and _, starting with a letter (such as goal).',
    ],
    [
      'a string no store holds',
      { goal: { objective: 'a\u0000b' } },
      'fields.goal.objective',
      'Plan view field fields.goal.objective must not contain U+0000.',
    ],
    [
      'a number that is not finite',
      { goal: { turns: [1, Number.NaN] } },
      'fields.goal.turns[1]',
      'Plan view field fields.goal.turns[1] must be a finite number.',
    ],
    [
      'a value JSON lacks',
      { goal: { at: new Date(0) } },
      'fields.goal.at',
      'Plan view field fields.goal.at must be JSON data, not an object.',
    ],
  ])('refuses fields that are %s', (_name, fields, field, message) => {
    const read = parsePlanView({
      ...base(),
      fields,
    });
    expect(read.ok ? null : read.error).toEqual({ code: 'plan_view_invalid', field, message });
  });

  it('refuses more than MAX_PLAN_VIEW_FIELDS fields, or one nested past MAX_PLAN_VIEW_FIELD_DEPTH', () => {
    const many = Object.fromEntries(
      Array.from({ length: MAX_PLAN_VIEW_FIELDS + 1 }, (_, i) => [`f${i}`, i]),
    );
    const tooMany = parsePlanView({ ...base(), fields: many });
    expect(!tooMany.ok && tooMany.error.message).toBe(
      `Plan view field fields must hold at most ${MAX_PLAN_VIEW_FIELDS} fields, not ${MAX_PLAN_VIEW_FIELDS + 1}.`,
    );
    let deep: unknown = 1;
    for (let i = 0; i <= MAX_PLAN_VIEW_FIELD_DEPTH; i++) deep = [deep];
    const tooDeep = parsePlanView({ ...base(), fields: { deep } });
    expect(!tooDeep.ok && tooDeep.error.message).toContain(
      `is nested too deep (more than ${MAX_PLAN_VIEW_FIELD_DEPTH} levels)`,
    );
  });

  it('refuses more than MAX_PLAN_VIEW_STEPS steps before reading any', () => {
    const steps = new Array(MAX_PLAN_VIEW_STEPS + 1).fill(null);
    const read = parsePlanView({ ...base(), steps });
    expect(read.ok || read.error).toMatchObject({ code: 'plan_view_too_large', field: 'steps' });
  });

  it('never throws on a getter or proxy that throws', () => {
    const getter = Object.defineProperty(base(), 'objective', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    const proxy = new Proxy(base(), {
      getPrototypeOf() {
        throw new Error('boom');
      },
    });
    for (const value of [getter, proxy]) {
      expect(parsePlanView(value)).toEqual({
        ok: false,
        error: {
          code: 'plan_view_invalid',
          field: '',
          message: 'Plan view could not be read: it is not plain JSON data.',
        },
      });
    }
  });
});
