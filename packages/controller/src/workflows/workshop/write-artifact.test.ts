import { describe, expect, it } from 'vitest';
import { refusal, unwrap } from '../testing/unwrap.ts';
import { FILES, PLAN } from '../testing/workshop-fixtures.ts';
import { compiled, formalizing, round, write } from '../testing/workshop-steps.ts';
import { renderPlanMarkdown } from './render-plan-markdown.ts';
import { startWorkshop } from './start-workshop.ts';
import { workshopFromJSON } from './workshop-from-json.ts';
import { workshopRound } from './workshop-round.ts';
import { writeArtifact } from './write-artifact.ts';

describe('the workshop invariants', () => {
  it('1. no structured plan before formalizing', () => {
    let state = startWorkshop({ now: 0, brief: 'Add SSO.' });
    for (const next of [(s: typeof state) => round(s), (s: typeof state) => round(s)]) {
      const error = refusal(
        writeArtifact(state, { now: 10, name: 'planning.ai.json', content: JSON.stringify(PLAN) }),
      );
      expect(error.code).toBe('artifact_out_of_phase');
      expect(error.message).toBe(
        `planning.ai.json can only be written while formalizing; the workshop is in ${state.machine.state}. No structured plan exists before formalizing.`,
      );
      state = next(state);
    }
    expect(state.machine.state).toBe('workshop');
    expect(
      refusal(writeArtifact(state, { now: 10, name: 'plan.files.json', content: '{}' })).code,
    ).toBe('artifact_out_of_phase');
    expect(state.artifacts).toEqual([]);
  });

  it('2. review_ready requires every configured artifact', () => {
    const plan = write(formalizing(), 'planning.ai.json', JSON.stringify(PLAN));
    const blocked = round(plan, { commitment_readiness: true });
    expect(blocked.machine.state).toBe('formalizing');
    expect(blocked.problems).toEqual(['plan.files.json has not been written.']);
    expect(blocked.machine.trace.at(-1)).toMatchObject({
      outcome: 'plan_blocked',
      reason: 'plan.files.json has not been written.',
    });
    const ready = round(compiled());
    expect(ready.machine).toMatchObject({ state: 'review_ready', status: 'done' });
    expect(ready.problems).toEqual([]);
    expect(ready.artifacts.map((artifact) => artifact.name)).toEqual([
      'planning.ai.json',
      'plan.md',
      'plan.files.json',
    ]);
    const empty = round(formalizing());
    expect(empty.problems).toEqual([
      'planning.ai.json has not been written.',
      'plan.md has not been written.',
      'plan.files.json has not been written.',
    ]);
  });

  it('2. with a configured list, its own artifacts', () => {
    let state = round(
      round(startWorkshop({ now: 0, brief: 'b', artifacts: ['planning.ai.json', 'risks.md'] })),
      {
        no_new_info: true,
      },
    );
    state = write(state, 'planning.ai.json', JSON.stringify(PLAN));
    expect(round(state).problems).toEqual(['risks.md has not been written.']);
    expect(refusal(writeArtifact(state, { now: 99, name: 'plan.md', content: '#' })).code).toBe(
      'artifact_unknown',
    );
    expect(round(write(state, 'risks.md', '- none\n')).machine.state).toBe('review_ready');
  });

  it('3. planning.ai.json is the single source of truth; plan.md its rendering', () => {
    const state = write(formalizing(), 'planning.ai.json', `  ${JSON.stringify(PLAN)}  `);
    expect(state.artifacts).toEqual([
      { name: 'planning.ai.json', content: `${JSON.stringify(PLAN, null, 2)}\n` },
      { name: 'plan.md', content: renderPlanMarkdown(PLAN) },
    ]);
    const projection = refusal(
      writeArtifact(state, { now: 99, name: 'plan.md', content: '# My own plan' }),
    );
    expect(projection).toMatchObject({
      code: 'artifact_projection',
      message: 'plan.md is rendered from planning.ai.json; write planning.ai.json instead.',
    });
    const changed = { ...PLAN, title: 'Add SSO and SCIM' };
    const rewritten = write(state, 'planning.ai.json', JSON.stringify(changed));
    expect(rewritten.artifacts[1]?.content).toBe(renderPlanMarkdown(changed));
  });

  it('3. a structured plan that breaks the schema is refused, naming the field', () => {
    const state = formalizing();
    const cases: [string, string][] = [
      ['{', 'planning.ai.json is not valid JSON:'],
      [JSON.stringify({ ...PLAN, tasks: [] }), 'planning.ai.json tasks:'],
      [
        JSON.stringify({ ...PLAN, tasks: [{ id: 'T 1', title: 'x' }] }),
        'planning.ai.json tasks[0].id: must be 1-64 characters',
      ],
      [JSON.stringify({ ...PLAN, owner: 'me' }), 'planning.ai.json: Unrecognized key: "owner"'],
    ];
    for (const [content, message] of cases) {
      const error = refusal(writeArtifact(state, { now: 99, name: 'planning.ai.json', content }));
      expect(error.code).toBe('artifact_invalid');
      expect(error.message).toContain(message);
    }
    const files = refusal(
      writeArtifact(state, {
        now: 99,
        name: 'plan.files.json',
        content: '{"files":[{"path":"../x","action":"create","tasks":["T1"]}]}',
      }),
    );
    expect(files.message).toContain('plan.files.json files[0].path: must be a relative path');
  });

  it('4. a file plan inconsistent with the plan blocks formalizing', () => {
    const wrong = { files: [{ path: 'src/auth/oidc.ts', action: 'create', tasks: ['T1'] }] };
    const state = write(
      write(formalizing(), 'planning.ai.json', JSON.stringify(PLAN)),
      'plan.files.json',
      JSON.stringify(wrong),
    );
    const blocked = round(state, { commitment_readiness: true });
    expect(blocked.machine.state).toBe('formalizing');
    expect(blocked.problems).toEqual([
      'planning.ai.json: task T2 changes src/auth/password.ts, which plan.files.json does not list.',
    ]);
    const fixed = round(write(blocked, 'plan.files.json', JSON.stringify(FILES)));
    expect(fixed.machine.state).toBe('review_ready');
    const reported = round(compiled(), { file_plan_consistency: false });
    expect(reported.problems).toEqual(['file_plan_consistency was reported false.']);
    expect(round(compiled(), { blocking_questions: true }).problems).toEqual([
      'Blocking questions remain.',
    ]);
  });

  it('5. the transcript is never lost: review_ready refuses rounds and writes, redo plans again', () => {
    const ready = round(compiled());
    expect(
      refusal(workshopRound(ready, { now: 99, entries: [{ actor: 'a', content: 'b' }] })).code,
    ).toBe('workshop_done');
    expect(
      refusal(writeArtifact(ready, { now: 99, name: 'plan.files.json', content: '{}' })).code,
    ).toBe('workshop_done');
  });

  it('refuses bad input', () => {
    const state = formalizing();
    expect(refusal(writeArtifact(state, { now: 99, name: 'notes.md', content: 'x' })).message).toBe(
      '"notes.md" is not a planning output; the outputs are planning.ai.json, plan.md, plan.files.json.',
    );
    const long = refusal(
      writeArtifact(state, { now: 99, name: `a\n${'x'.repeat(1 << 20)}`, content: 'x' }),
    );
    expect(long.code).toBe('artifact_unknown');
    expect(long.message).toMatch(/^"a\\nx+\.\.\." is not a planning output/);
    expect(long.message.length).toBeLessThan(2000);
    expect(
      refusal(
        writeArtifact(state, { now: 99, name: 'plan.files.json', content: 'x'.repeat(1_048_577) }),
      ).field,
    ).toBe('input.content');
    expect(refusal(writeArtifact(state, { now: 99, name: 7 as never, content: '' })).field).toBe(
      'input.name',
    );
    expect(
      unwrap(
        writeArtifact(state, { now: 99, name: 'plan.files.json', content: JSON.stringify(FILES) }),
      ).artifacts,
    ).toHaveLength(1);
  });
});

describe('writeArtifact: what is stored fits', () => {
  it('refuses a plan whose canonical JSON is over the limit though its input is not', () => {
    const state = formalizing();
    // Compact input well under 1 MiB whose two-space indented form is over it.
    const tasks = Array.from({ length: 500 }, (_, i) => ({
      id: `T${i + 1}`,
      title: 'x',
      subtasks: Array.from({ length: 60 }, (_, j) => ({ id: `T${i + 1}.${j + 1}`, title: 'y' })),
    }));
    const content = JSON.stringify({ ...PLAN, tasks });
    expect(content.length).toBeLessThan(1_048_576);
    const error = refusal(writeArtifact(state, { now: 99, name: 'planning.ai.json', content }));
    expect(error).toMatchObject({ code: 'artifact_invalid', field: 'planning.ai.json' });
    expect(error.message).toMatch(/over the limit of 1048576/);
    expect(error.message.length).toBeLessThan(2000);
  });

  it('keeps every state it returns readable by workshopFromJSON', () => {
    const state = formalizing();
    const next = unwrap(
      writeArtifact(state, { now: 99, name: 'planning.ai.json', content: JSON.stringify(PLAN) }),
    );
    expect(unwrap(workshopFromJSON(JSON.stringify(next)))).toEqual(next);
  });
});
