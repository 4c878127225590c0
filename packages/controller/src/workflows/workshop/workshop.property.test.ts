import type { Result } from '@plankit/core';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { FILES, PLAN } from '../testing/workshop-fixtures.ts';
import type { WorkflowError } from '../workflow-error.ts';
import { archiveTranscript } from './archive-transcript.ts';
import { checkFilePlan } from './check-file-plan.ts';
import { redoWorkshop } from './redo-workshop.ts';
import { renderPlanMarkdown } from './render-plan-markdown.ts';
import { startWorkshop } from './start-workshop.ts';
import { workshopFromJSON } from './workshop-from-json.ts';
import { FilePlan, WorkshopPlan } from './workshop-plan.ts';
import { workshopRound } from './workshop-round.ts';
import type { WorkshopState } from './workshop-state.ts';
import { writeArtifact } from './write-artifact.ts';

const CONTENTS: Record<string, string[]> = {
  'planning.ai.json': [
    JSON.stringify(PLAN),
    JSON.stringify({ ...PLAN, tasks: PLAN.tasks.slice(0, 1) }),
    '{"title":',
  ],
  'plan.files.json': [
    JSON.stringify(FILES),
    JSON.stringify({ files: FILES.files.slice(0, 1) }),
    JSON.stringify({ files: [{ path: 'x.ts', action: 'create', tasks: ['T9'] }] }),
  ],
  'plan.md': ['# hand-written'],
  'notes.md': ['x'],
};

type Command =
  | {
      readonly kind: 'round';
      readonly entries: number;
      readonly signals: Record<string, boolean>;
    }
  | { readonly kind: 'write'; readonly name: string; readonly content: number }
  | { readonly kind: 'redo' | 'archive' | 'store' };

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('round' as const),
      entries: fc.integer({ min: 1, max: 3 }),
      signals: fc.record(
        {
          blocking_questions: fc.boolean(),
          no_new_info: fc.boolean(),
          commitment_readiness: fc.boolean(),
          file_plan_consistency: fc.oneof(
            { arbitrary: fc.constant(true), weight: 4 },
            { arbitrary: fc.constant(false), weight: 1 },
          ),
        },
        { requiredKeys: [] },
      ),
    }),
    weight: 10,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('write' as const),
      name: fc.oneof(
        { arbitrary: fc.constantFrom('planning.ai.json', 'plan.files.json'), weight: 6 },
        { arbitrary: fc.constantFrom('plan.md', 'notes.md'), weight: 1 },
      ),
      content: fc.oneof(
        { arbitrary: fc.constant(0), weight: 4 },
        { arbitrary: fc.nat(2), weight: 2 },
      ),
    }),
    weight: 8,
  },
  {
    arbitrary: fc.constantFrom(
      { kind: 'redo' as const },
      { kind: 'archive' as const },
      { kind: 'store' as const },
    ),
    weight: 2,
  },
);

const seen = new Map<string, number>();
const count = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);

function apply(
  state: WorkshopState,
  cmd: Command,
  now: number,
): Result<WorkshopState, WorkflowError> {
  switch (cmd.kind) {
    case 'round':
      return workshopRound(state, {
        now,
        entries: Array.from({ length: cmd.entries }, (_, i) => ({
          actor: i % 2 ? 'user' : 'planner',
          content: `said ${i}`,
        })),
        signals: cmd.signals,
      });
    case 'write':
      return writeArtifact(state, {
        now,
        name: cmd.name,
        content: CONTENTS[cmd.name]?.[cmd.content] ?? 'x',
      });
    case 'redo':
      return redoWorkshop(state, { now });
    case 'archive':
      return archiveTranscript(state, { now });
    case 'store':
      return workshopFromJSON(JSON.stringify(state));
    default: {
      const unknown: never = cmd;
      throw new Error(`unknown command ${String(unknown)}`);
    }
  }
}

function text(state: WorkshopState, name: string): string | undefined {
  return state.artifacts.find((artifact) => artifact.name === name)?.content;
}

function check(prev: WorkshopState, next: WorkshopState, cmd: Command): void {
  // Invariant 4: the transcript never shrinks and never changes, except by an explicit archive.
  if (cmd.kind === 'archive') {
    expect(next.transcript).toEqual([]);
    expect(next.archivedEntries).toBe(prev.archivedEntries + prev.transcript.length);
  } else {
    expect(next.transcript.slice(0, prev.transcript.length)).toEqual(prev.transcript);
    expect(next.archivedEntries).toBe(prev.archivedEntries);
  }
  if (cmd.kind === 'round') {
    expect(next.round).toBe(prev.round + 1);
    expect(next.transcript.slice(prev.transcript.length)).toEqual(
      Array.from({ length: cmd.entries }, (_, i) => ({
        round: next.round,
        actor: i % 2 ? 'user' : 'planner',
        phase: prev.machine.state,
        content: `said ${i}`,
      })),
    );
  } else {
    expect(next.round).toBe(prev.round);
  }
  // Invariant 1: no structured plan (no artifact at all) before formalizing.
  const stage = next.machine.state;
  if (stage !== 'formalizing' && stage !== 'review_ready') expect(next.artifacts).toEqual([]);
  // Invariant 3: plan.md is always the rendering of planning.ai.json.
  const json = text(next, 'planning.ai.json');
  const plan = json === undefined ? undefined : WorkshopPlan.parse(JSON.parse(json));
  const markdown = text(next, 'plan.md');
  if (markdown !== undefined) expect(plan && renderPlanMarkdown(plan)).toBe(markdown);
  // Invariant 2 and 4: review_ready has every artifact, and a consistent file plan.
  if (stage === 'review_ready') {
    count('review_ready');
    expect(next.artifacts.map((artifact) => artifact.name)).toEqual(next.artifactNames);
    const files = FilePlan.parse(JSON.parse(text(next, 'plan.files.json') ?? ''));
    expect(plan && checkFilePlan(plan, files)).toEqual([]);
  }
  if (next.machine.trace.at(-1)?.outcome === 'plan_blocked' && cmd.kind === 'round')
    count('plan_blocked');
  if (cmd.kind === 'redo') {
    count('redo');
    expect(next.machine.state).toBe('draft');
    expect(next.attempt).toBe(prev.attempt + 1);
    expect(next.redos.at(-1)?.artifacts).toEqual(prev.artifacts);
  }
  if (cmd.kind !== 'store')
    expect(workshopFromJSON(JSON.stringify(next))).toEqual({ ok: true, value: next });
}

describe('planning workshops, under any sequence of steps', () => {
  afterAll(() => {
    for (const what of [
      'review_ready',
      'plan_blocked',
      'redo',
      'artifact_out_of_phase',
      'artifact_projection',
      'artifact_invalid',
      'workshop_done',
    ]) {
      expect(seen.get(what) ?? 0, what).toBeGreaterThan(0);
    }
  });

  it('keep the transcript and the four invariants', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 20, maxLength: 80 }), (commands) => {
        let state = startWorkshop({ now: 0, brief: 'Add SSO.' });
        let now = 0;
        for (const cmd of commands) {
          now += 1;
          const next = apply(state, cmd, now);
          if (!next.ok) {
            count(next.error.code);
            continue;
          }
          check(state, next.value, cmd);
          state = next.value;
        }
      }),
      { numRuns: 60 },
    );
    // It reads back every state it stores, which runs past 5 s on a loaded machine.
  }, 30_000);
});
