import { readFileSync } from 'node:fs';
import type { Result } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import type { ControllerError } from '../controller-error.ts';
import { initialSnapshot } from '../engine/initial-snapshot.ts';
import type { MachineSnapshot } from '../engine/machine-snapshot.ts';
import { renderMachineMermaid } from '../engine/render-machine-mermaid.ts';
import { reportCap } from '../engine/report-cap.ts';
import { resume } from '../engine/resume.ts';
import { transition } from '../engine/transition.ts';
import * as root from '../index.ts';
import { APPROVAL_POLICIES } from './approval-cadence.ts';
import { createPlanningController, isPlanningStage } from './planning-controller.ts';
import type { PlanningOutcome, PlanningStage } from './planning-stage.ts';

const planningMachine = createPlanningController();

function ok<T>(result: Result<T, ControllerError>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

type Snap = MachineSnapshot<PlanningStage, PlanningOutcome>;

// The transition table as the spec writes it: the test fails when code and spec disagree.
const spec = readFileSync(
  new URL('../../../../specs/controller-planning.md', import.meta.url),
  'utf8',
);
const rows = [...spec.matchAll(/^\| ([A-Z_]+) +\| ([a-z_]+) +\| ([A-Z_]+) +\|$/gm)].map(
  ([, stage, outcome, target]) =>
    [stage, outcome, target] as [PlanningStage, PlanningOutcome, PlanningStage],
);
const table = new Map(rows.map(([stage, outcome, target]) => [`${stage} ${outcome}`, target]));

// The stages of the default (single_final) controller; the APPROVE_* pauses belong to others.
type BaseStage = Exclude<PlanningStage, `APPROVE_${string}`>;

// The shortest way into each stage, so every pair is tried from a real snapshot.
const PATHS: Record<BaseStage, readonly PlanningOutcome[]> = {
  COLLECT_CONTEXT: [],
  DRAFT_OUTLINE: ['sufficient_context'],
  VALIDATE_OUTLINE: ['sufficient_context', 'success'],
  DRAFT_ROADMAP: ['sufficient_context', 'success', 'valid'],
  VALIDATE_ROADMAP: ['sufficient_context', 'success', 'valid', 'success'],
  DRAFT_SCHEDULE: ['sufficient_context', 'success', 'valid', 'success', 'valid'],
  VALIDATE_SCHEDULE: ['sufficient_context', 'success', 'valid', 'success', 'valid', 'success'],
  SEEK_APPROVAL: ['sufficient_context', 'success', 'valid', 'success', 'valid', 'success', 'valid'],
  COMPLETE: [
    'sufficient_context',
    'success',
    'valid',
    'success',
    'valid',
    'success',
    'valid',
    'approved',
  ],
  NEEDS_CLARIFICATION: ['needs_clarification'],
  NEEDS_SCHED_ESCALATION: [
    'sufficient_context',
    'success',
    'valid',
    'success',
    'valid',
    'success',
    'infeasible',
  ],
  ABORTED: ['fatal_error'],
};

function reach(stage: PlanningStage): Snap {
  let snapshot: Snap = initialSnapshot(planningMachine, { now: 0 });
  for (const [index, outcome] of PATHS[stage as BaseStage].entries()) {
    snapshot = ok(transition(planningMachine, snapshot, { outcome, now: (index + 1) * 100 }));
  }
  expect(snapshot.state).toBe(stage);
  return snapshot;
}

describe('createPlanningController()', () => {
  it('has exactly the stages and exits of seed 000', () => {
    expect(planningMachine.stateNames).toEqual(Object.keys(PATHS));
    expect(
      planningMachine.stateNames.filter((s) => planningMachine.states[s].kind === 'final'),
    ).toEqual(['COMPLETE', 'NEEDS_CLARIFICATION', 'NEEDS_SCHED_ESCALATION', 'ABORTED']);
    expect(planningMachine.states.SEEK_APPROVAL.kind).toBe('wait');
    expect(planningMachine.caps).toEqual({
      turns: 10,
      retries: 2,
      wallTimeMs: 45_000,
      costUsd: 2,
      tokens: null,
      stall: 3,
    });
    expect(planningMachine.soft).toEqual({ turns: 8, costUsd: 1.6 });
  });

  it('matches the table in specs/controller-planning.md, row for row', () => {
    expect(rows).toHaveLength(38);
    const fromCode = planningMachine.stateNames.flatMap((stage) =>
      planningMachine.states[stage].outcomes.map((outcome) => [
        stage,
        outcome,
        planningMachine.states[stage].on[outcome]?.[0]?.target,
      ]),
    );
    expect(fromCode).toEqual(rows);
  });

  const pairs = planningMachine.stateNames.flatMap((stage) =>
    planningMachine.outcomes.map((outcome) => [stage, outcome] as const),
  );

  it.each(pairs)('%s + %s: goes where the table says, or is refused', (stage, outcome) => {
    const snapshot = reach(stage);
    const result = transition(planningMachine, snapshot, { outcome, now: 10_000 });
    const target = table.get(`${stage} ${outcome}`);
    if (target !== undefined) {
      expect(ok(result).state).toBe(target);
      return;
    }
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const final = planningMachine.states[stage].kind === 'final';
    expect(result.error.code).toBe(final ? 'machine_done' : 'outcome_rejected');
    expect(result.error.state).toBe(stage);
  });

  it('aborts the third redraft of the outline (RETRY_LIMIT_PER_STAGE=2)', () => {
    let snapshot = reach('VALIDATE_OUTLINE');
    for (let round = 0; round < 2; round++) {
      snapshot = ok(
        transition(planningMachine, snapshot, {
          outcome: 'invalid_retryable',
          now: 1000 + round * 2,
        }),
      );
      snapshot = ok(
        transition(planningMachine, snapshot, { outcome: 'success', now: 1001 + round * 2 }),
      );
    }
    expect(snapshot.counters.retries.DRAFT_OUTLINE).toBe(2);
    const third = ok(
      transition(planningMachine, snapshot, { outcome: 'invalid_retryable', now: 2000 }),
    );
    expect(third.state).toBe('ABORTED');
    expect(third.trace.at(-1)?.cap?.name).toBe('retries');
  });

  it('gives a rejected plan a fresh run, since SEEK_APPROVAL waits for a person', () => {
    const waiting = reach('SEEK_APPROVAL');
    expect(waiting.counters.turns).toBe(7);
    const rejected = ok(
      transition(planningMachine, waiting, {
        outcome: 'rejected',
        now: 90_000_000,
        reason: 'shorter',
      }),
    );
    expect(rejected.state).toBe('DRAFT_OUTLINE');
    expect(rejected.counters).toMatchObject({ run: 2, turns: 1, elapsedMs: 0, totalTurns: 8 });
  });

  it('can freeze at the cost cap for review and continue where it stopped', () => {
    const controller = createPlanningController({ freezeOn: ['costUsd'], caps: { costUsd: 0.5 } });
    const start = initialSnapshot(controller, { now: 0 });
    const frozen = ok(
      transition(controller, start, { outcome: 'sufficient_context', now: 10, costUsd: 0.6 }),
    );
    expect(frozen).toMatchObject({ state: 'COLLECT_CONTEXT', status: 'frozen' });
    const resumed = ok(resume(controller, frozen, { now: 20, caps: { costUsd: 1 } }));
    expect(resumed.state).toBe('DRAFT_OUTLINE');
    const reported = ok(reportCap(controller, resumed, { cap: 'turns', now: 30 }));
    expect(reported.state).toBe('ABORTED');
  });

  it('refuses bad options', () => {
    expect(() => createPlanningController({ caps: { turns: -1 } })).toThrow(/caps.turns/);
    expect(() =>
      createPlanningController({ onCap: { default: 'DRAFT_OUTLINE' } as never }),
    ).toThrow(/must be final or wait/);
    expect(() => createPlanningController({ states: {} } as never)).toThrow(
      /options.states is not an option/,
    );
    expect(() =>
      createPlanningController({ freezeOn: ['turns'], onCap: { turns: 'ABORTED' } }),
    ).toThrow(/onCap also sends/);
  });

  it('is drawn in the docs exactly as renderMachineMermaid renders it', () => {
    const docs = readFileSync(new URL('../../../../docs/controller.md', import.meta.url), 'utf8');
    expect(docs).toContain(`\`\`\`mermaid\n${renderMachineMermaid(planningMachine)}\`\`\``);
  });
});

describe('one way to build the planning controller', () => {
  it('is createPlanningController: the root exports no prebuilt machine', () => {
    expect(Object.keys(root)).toContain('createPlanningController');
    expect(Object.keys(root)).not.toContain('planningController');
  });

  it('knows the stages of every cadence, and no other name', () => {
    for (const approval_policy of APPROVAL_POLICIES) {
      for (const stage of createPlanningController({ approval_policy }).stateNames) {
        expect(isPlanningStage(stage)).toBe(true);
      }
    }
    expect(isPlanningStage('toString')).toBe(false);
    expect(isPlanningStage('DREAMING')).toBe(false);
  });
});
