import { readFileSync } from 'node:fs';
import type { Result } from '@plankit/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ControllerError } from '../controller-error.ts';
import { initialSnapshot } from '../engine/initial-snapshot.ts';
import type { Machine } from '../engine/machine.ts';
import type { MachineSnapshot } from '../engine/machine-snapshot.ts';
import { machineSnapshotFromJSON } from '../engine/machine-snapshot-from-json.ts';
import { renderMachineMermaid } from '../engine/render-machine-mermaid.ts';
import { transition } from '../engine/transition.ts';
import { approvalRequired } from '../policy/approval-required.ts';
import { DEFAULT_INTERACTION_POLICY } from '../policy/interaction-policy.ts';
import {
  APPROVAL_PAUSES,
  APPROVAL_POLICIES,
  type ApprovalPolicy,
  approvalPauses,
} from './approval-cadence.ts';
import { parseApprovalReply } from './parse-approval-reply.ts';
import { createPlanningController } from './planning-controller.ts';
import { planningResult } from './planning-result.ts';
import type { PlanningOutcome, PlanningStage } from './planning-stage.ts';

const planningMachine = createPlanningController();

type Controller = Machine<PlanningStage, PlanningOutcome>;
type Snap = MachineSnapshot<PlanningStage, PlanningOutcome>;

function ok<T>(result: Result<T, ControllerError>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

const controllers: Record<ApprovalPolicy, Controller> = {
  single_final: createPlanningController({ approval_policy: 'single_final' }),
  milestone_approvals: createPlanningController({ approval_policy: 'milestone_approvals' }),
  strict_every_step: createPlanningController({ approval_policy: 'strict_every_step' }),
};

// The cadence table as the spec writes it.
const spec = readFileSync(
  new URL('../../../../specs/controller-planning.md', import.meta.url),
  'utf8',
);
const cadenceRows = [
  ...spec.matchAll(
    /^\| ([A-Z_]+) +\| ([A-Z_]+) +\| ([a-z_]+) +\| ([A-Z_]+) +\| ([A-Z_]+) +\| (yes|no) +\| (yes|no) +\| (yes|no) +\|$/gm,
  ),
].map(([, stage, after, outcome, approved, rejected, single, milestone, strict]) => ({
  stage,
  after,
  outcome,
  approved,
  rejected,
  policies: { single_final: single, milestone_approvals: milestone, strict_every_step: strict },
}));

// What each work stage reports to move on, and what it reports to redo work.
const FORWARD: Partial<Record<PlanningStage, PlanningOutcome>> = {
  COLLECT_CONTEXT: 'sufficient_context',
  DRAFT_OUTLINE: 'success',
  VALIDATE_OUTLINE: 'valid',
  DRAFT_ROADMAP: 'success',
  VALIDATE_ROADMAP: 'valid',
  DRAFT_SCHEDULE: 'success',
  VALIDATE_SCHEDULE: 'valid',
};
const RETRY: Partial<Record<PlanningStage, PlanningOutcome>> = {
  DRAFT_OUTLINE: 'low_confidence',
  VALIDATE_OUTLINE: 'invalid_retryable',
  DRAFT_ROADMAP: 'low_confidence',
  VALIDATE_ROADMAP: 'invalid_retryable',
  DRAFT_SCHEDULE: 'low_confidence',
  VALIDATE_SCHEDULE: 'invalid_retryable',
};
const WORK = Object.keys(FORWARD) as PlanningStage[];

/** Drives a controller forward (no retries) until it waits or is done. */
function runToPause(machine: Controller, from: Snap, at: number): Snap {
  let snapshot = from;
  let now = at;
  while (snapshot.status === 'running') {
    const outcome = FORWARD[snapshot.state];
    if (outcome === undefined) throw new Error(`no forward outcome in ${snapshot.state}`);
    now += 1000;
    snapshot = ok(transition(machine, snapshot, { outcome, now }));
  }
  return snapshot;
}

describe('approval cadence', () => {
  it('pauses where each policy says, in run order', () => {
    expect(approvalPauses('single_final').map((p) => p.stage)).toEqual(['SEEK_APPROVAL']);
    expect(approvalPauses('milestone_approvals').map((p) => p.stage)).toEqual([
      'APPROVE_OUTLINE',
      'APPROVE_ROADMAP',
      'SEEK_APPROVAL',
    ]);
    expect(approvalPauses('strict_every_step').map((p) => p.stage)).toEqual(
      APPROVAL_PAUSES.map((p) => p.stage),
    );
    expect(() => approvalPauses('sometimes' as never)).toThrow(/approval_policy|policy must be/);
  });

  it('pauses exactly where approvalRequired asks, for every policy and checkpoint', () => {
    for (const policy of APPROVAL_POLICIES) {
      const full = { ...DEFAULT_INTERACTION_POLICY, approval_policy: policy };
      expect(approvalPauses(policy)).toEqual(
        APPROVAL_PAUSES.filter((pause) => approvalRequired(full, pause.checkpoint)),
      );
    }
  });

  it('keeps the default controller as it was: single_final is what createPlanningController() builds', () => {
    expect(renderMachineMermaid(controllers.single_final)).toBe(
      renderMachineMermaid(planningMachine),
    );
    expect(controllers.single_final.id).toBe(planningMachine.id);
    expect(controllers.milestone_approvals.id).toBe('planning-controller.milestone_approvals');
    expect(controllers.strict_every_step.id).toBe('planning-controller.strict_every_step');
  });

  it('matches the cadence table in specs/controller-planning.md, both ways', () => {
    expect(cadenceRows).toHaveLength(APPROVAL_PAUSES.length);
    for (const policy of APPROVAL_POLICIES) {
      const machine = controllers[policy];
      const pauses = machine.stateNames.filter((s) => machine.states[s].kind === 'wait');
      expect(pauses).toEqual(
        cadenceRows.filter((row) => row.policies[policy] === 'yes').map((row) => row.stage),
      );
      for (const row of cadenceRows) {
        const after = machine.states[row.after as PlanningStage];
        const target = after.on[row.outcome as PlanningOutcome]?.[0]?.target;
        if (row.policies[policy] === 'no') {
          expect(target).toBe(row.approved);
          expect(machine.stateNames).not.toContain(row.stage);
          continue;
        }
        expect(target).toBe(row.stage);
        const pause = machine.states[row.stage as PlanningStage];
        expect(pause.kind).toBe('wait');
        expect(pause.outcomes).toEqual(['approved', 'rejected', 'no_response']);
        expect(pause.on.approved?.[0]?.target).toBe(row.approved);
        expect(pause.on.rejected?.[0]?.target).toBe(row.rejected);
        expect(pause.on.no_response?.[0]?.target).toBe('NEEDS_CLARIFICATION');
        // Everything else the stage accepts is as in the default controller.
        for (const outcome of after.outcomes) {
          if (outcome === row.outcome) continue;
          expect(after.on[outcome]).toEqual(
            planningMachine.states[row.after as PlanningStage].on[outcome],
          );
        }
      }
    }
  });

  it.each(
    APPROVAL_POLICIES.flatMap((policy) =>
      approvalPauses(policy).map((p) => [policy, p.stage, p.rejected] as const),
    ),
  )('%s: a rejection in %s goes back to %s in a fresh run', (policy, stage, target) => {
    const machine = controllers[policy];
    let snapshot = runToPause(machine, initialSnapshot(machine, { now: 0 }), 0);
    let now = snapshot.updatedAt;
    while (snapshot.state !== stage) {
      now += 1000;
      snapshot = runToPause(
        machine,
        ok(transition(machine, snapshot, { outcome: 'approved', now })),
        now,
      );
      now = snapshot.updatedAt;
    }
    const reply = parseApprovalReply('propose changes: fewer milestones');
    expect(reply.outcome).toBe('rejected');
    const next = ok(
      transition(machine, snapshot, {
        outcome: reply.outcome,
        now: now + 1000,
        reason: reply.outcome === 'rejected' ? reply.changes : null,
      }),
    );
    expect(next.state).toBe(target);
    expect(next.status).toBe('running');
    expect(next.counters).toMatchObject({ run: snapshot.counters.run + 1, turns: 1, elapsedMs: 0 });
    expect(next.trace.at(-1)?.reason).toBe('fewer milestones');
    const silent = ok(transition(machine, snapshot, { outcome: 'no_response', now: now + 1000 }));
    expect(silent.state).toBe('NEEDS_CLARIFICATION');
  });

  it('reports every pause to the host as needs_clarification with the call to action', () => {
    const machine = controllers.strict_every_step;
    let snapshot = runToPause(machine, initialSnapshot(machine, { now: 0 }), 0);
    const seen: string[] = [];
    while (snapshot.status === 'waiting') {
      const result = planningResult(snapshot);
      expect(result?.planning_status).toBe('needs_clarification');
      expect(result?.response_text).toMatch(/is ready for your review\. Reply 'approve'/);
      seen.push(result?.escalate_reason ?? '');
      const now = snapshot.updatedAt + 1000;
      snapshot = runToPause(
        machine,
        ok(transition(machine, snapshot, { outcome: 'approved', now })),
        now,
      );
    }
    expect(snapshot.state).toBe('COMPLETE');
    expect(seen).toEqual(APPROVAL_PAUSES.map((p) => `${p.subject} awaits your approval.`));
  });

  it('does not charge the wall-time cap while waiting, in any pause', () => {
    for (const policy of APPROVAL_POLICIES) {
      const machine = createPlanningController({ approval_policy: policy });
      let snapshot = runToPause(machine, initialSnapshot(machine, { now: 0 }), 0);
      let pauses = 0;
      while (snapshot.status === 'waiting') {
        pauses += 1;
        // A day in each pause: far beyond WALL_TIME_SEC=45, yet nothing is charged.
        const now = snapshot.updatedAt + 86_400_000;
        const next = ok(transition(machine, snapshot, { outcome: 'approved', now }));
        expect(next.counters.elapsedMs).toBe(0);
        expect(next.trace.at(-1)?.cap ?? null).toBeNull();
        snapshot = runToPause(machine, next, now);
      }
      expect(snapshot.state).toBe('COMPLETE');
      expect(pauses).toBe(approvalPauses(policy).length);
    }
  });

  it('resumes a pause in a fresh controller read back from JSON; another cadence refuses it', () => {
    const writer = createPlanningController({ approval_policy: 'milestone_approvals' });
    const paused = runToPause(writer, initialSnapshot(writer, { now: 0 }), 0);
    expect(paused).toMatchObject({ state: 'APPROVE_OUTLINE', status: 'waiting' });
    const stored = JSON.stringify(paused);
    // Another process: a new controller built from the same option, the snapshot from text.
    const reader = createPlanningController({ approval_policy: 'milestone_approvals' });
    const read = ok(machineSnapshotFromJSON(reader, stored));
    expect(read).toEqual(paused);
    const next = ok(
      transition(reader, read, {
        outcome: parseApprovalReply('Approve.').outcome,
        now: paused.updatedAt + 3_600_000,
      }),
    );
    expect(next.state).toBe('DRAFT_ROADMAP');
    const other = machineSnapshotFromJSON(controllers.single_final, stored);
    expect(other.ok).toBe(false);
    if (!other.ok) expect(other.error.code).toBe('snapshot_invalid');
  });

  it('refuses an unknown approval_policy, naming the option', () => {
    expect(() => createPlanningController({ approval_policy: 'often' as never })).toThrow(
      /options\.approval_policy must be single_final, milestone_approvals or strict_every_step/,
    );
  });

  it('is drawn in docs/controller.md, per cadence, exactly as renderMachineMermaid renders it', () => {
    const docs = readFileSync(new URL('../../../../docs/controller.md', import.meta.url), 'utf8');
    for (const policy of APPROVAL_POLICIES) {
      expect(docs).toContain(`\`\`\`mermaid\n${renderMachineMermaid(controllers[policy])}\`\`\``);
    }
  });
});

// One pass of the agent: for each work stage, how many times it asks to redo work first.
const retriesArb = fc.record(
  Object.fromEntries(
    Object.keys(RETRY).map((stage) => [stage, fc.integer({ min: 0, max: 2 })]),
  ) as Record<string, fc.Arbitrary<number>>,
);

describe('approval cadence properties', () => {
  it('pauses on a successful run exactly as often as the policy promises', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...APPROVAL_POLICIES),
        retriesArb,
        fc.integer({ min: 0, max: 2 }),
        fc.array(fc.integer({ min: 0, max: 10 * 86_400_000 }), { minLength: 30, maxLength: 30 }),
        (policy, retries, finalRejections, waits) => {
          // Generous turn and retry caps: the property is about pauses, not about caps.
          const options = { approval_policy: policy, caps: { turns: 200, retries: 50 } } as const;
          let machine = createPlanningController(options);
          let snapshot: Snap = initialSnapshot(machine, { now: 0 });
          const left = { ...retries } as Record<string, number>;
          let rejectionsLeft = finalRejections;
          let now = 0;
          let pauses = 0;
          let completed = 0;
          while (snapshot.status !== 'done') {
            if (snapshot.status === 'waiting') {
              pauses += 1;
              // Every pause crosses processes: JSON out, a new controller, JSON in.
              const text = JSON.stringify(snapshot);
              machine = createPlanningController(options);
              snapshot = ok(machineSnapshotFromJSON(machine, text));
              now += waits[pauses % waits.length] ?? 0;
              const reject = snapshot.state === 'SEEK_APPROVAL' && rejectionsLeft > 0;
              if (reject) rejectionsLeft -= 1;
              const reply = parseApprovalReply(reject ? 'propose changes: again' : 'approve');
              snapshot = ok(transition(machine, snapshot, { outcome: reply.outcome, now }));
              expect(snapshot.counters.elapsedMs).toBe(0);
              continue;
            }
            const stage = snapshot.state;
            const redo = (left[stage] ?? 0) > 0;
            if (redo) left[stage] = (left[stage] ?? 0) - 1;
            const outcome = redo ? RETRY[stage] : FORWARD[stage];
            if (outcome === undefined) throw new Error(`no outcome for ${stage}`);
            if (!redo) completed += 1;
            now += 1000;
            snapshot = ok(transition(machine, snapshot, { outcome, now }));
          }
          expect(snapshot.state).toBe('COMPLETE');
          const passes = 1 + finalRejections;
          const promised =
            policy === 'single_final'
              ? passes
              : policy === 'milestone_approvals'
                ? 3 * passes
                : completed;
          expect(pauses).toBe(promised);
          // A rejected plan restarts at DRAFT_OUTLINE: six pauses per later pass, more with retries.
          if (policy === 'strict_every_step')
            expect(pauses).toBeGreaterThanOrEqual(7 + 6 * finalRejections);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('keeps every other outcome of each work stage in every cadence', () => {
    // Every work stage exists in every cadence, with the same non-forward outcomes.
    for (const policy of APPROVAL_POLICIES) {
      for (const stage of WORK) {
        expect(controllers[policy].states[stage].outcomes).toEqual(
          planningMachine.states[stage].outcomes,
        );
      }
    }
  });
});
