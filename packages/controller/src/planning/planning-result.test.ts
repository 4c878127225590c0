import type { Result } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import type { ControllerError } from '../controller-error.ts';
import { initialSnapshot } from '../engine/initial-snapshot.ts';
import type { MachineSnapshot } from '../engine/machine-snapshot.ts';
import { reportCap } from '../engine/report-cap.ts';
import { type MachineEvent, transition } from '../engine/transition.ts';
import { createPlanningController } from './planning-controller.ts';
import { planningResult } from './planning-result.ts';
import type { PlanningOutcome, PlanningStage } from './planning-stage.ts';

const planningMachine = createPlanningController();

function ok<T>(result: Result<T, ControllerError>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

type Snap = MachineSnapshot<PlanningStage, PlanningOutcome>;

function drive(events: readonly Omit<MachineEvent<PlanningOutcome>, 'now'>[]): Snap {
  let snapshot: Snap = initialSnapshot(planningMachine, { now: 0 });
  for (const [index, event] of events.entries()) {
    snapshot = ok(transition(planningMachine, snapshot, { ...event, now: index + 1 }));
  }
  return snapshot;
}

const toApproval = [
  { outcome: 'sufficient_context' },
  { outcome: 'success' },
  { outcome: 'valid' },
  { outcome: 'success' },
  { outcome: 'valid' },
  { outcome: 'success' },
  { outcome: 'valid' },
] as const;

describe('planningResult', () => {
  it('is null while the controller works', () => {
    expect(planningResult(drive([{ outcome: 'sufficient_context' }]))).toBeNull();
  });

  it('asks for approval with the one call to action', () => {
    expect(planningResult(drive(toApproval))).toEqual({
      planning_status: 'needs_clarification',
      response_text: "The plan is ready for your review. Reply 'approve' or 'propose changes: ...'",
      escalate_reason: 'The plan awaits your approval.',
      pattern_rfc_required: false,
      pattern_rfc_text: null,
    });
  });

  it('states a pattern RFC awaiting approval', () => {
    const rfc =
      'Proposes the subtype daily_health_protocol_v2 of recurring_cycle: daily routines with weekly check-ins';
    expect(planningResult(drive(toApproval), { rfc })).toEqual({
      planning_status: 'needs_clarification',
      response_text: `The plan is ready for your review. A new pattern awaits your approval: ${rfc}. Reply 'approve' or 'propose changes: ...'`,
      escalate_reason: `The plan awaits your approval. A pattern RFC awaits approval: ${rfc}.`,
      pattern_rfc_required: true,
      pattern_rfc_text: rfc,
    });
  });

  it('reports completion, ignoring an RFC that cannot be pending any more', () => {
    expect(planningResult(drive([...toApproval, { outcome: 'approved' }]), { rfc: 'x' })).toEqual({
      planning_status: 'complete',
      response_text: 'The plan is approved and complete.',
      escalate_reason: null,
      pattern_rfc_required: false,
      pattern_rfc_text: null,
    });
  });

  it('passes the reason of an escalation through', () => {
    const infeasible = drive([
      ...toApproval.slice(0, 6),
      { outcome: 'infeasible', reason: 'Week 3 needs 62 hours; 40 are free' },
    ]);
    expect(planningResult(infeasible)).toMatchObject({
      planning_status: 'needs_scheduling_escalation',
      response_text: 'The schedule cannot be made feasible: Week 3 needs 62 hours; 40 are free.',
      escalate_reason: 'Week 3 needs 62 hours; 40 are free.',
    });
    const unclear = drive([
      { outcome: 'needs_clarification', reason: 'Which team owns the launch?' },
    ]);
    expect(planningResult(unclear)).toMatchObject({
      planning_status: 'needs_clarification',
      response_text: 'I need more information to continue planning: Which team owns the launch?',
      escalate_reason: 'Which team owns the launch?',
      pattern_rfc_required: false,
    });
    expect(planningResult(drive([{ outcome: 'needs_clarification' }]))?.escalate_reason).toBe(
      'More information is needed to continue planning.',
    );
  });

  it('reports an abort with the cap that caused it', () => {
    const aborted = drive([{ outcome: 'sufficient_context', costUsd: 2.5 }]);
    expect(planningResult(aborted)).toEqual({
      planning_status: 'aborted',
      response_text:
        'Planning stopped: costUsd: 2.5 USD spent in this session, over the cap of 2 USD.',
      escalate_reason: 'costUsd: 2.5 USD spent in this session, over the cap of 2 USD.',
      pattern_rfc_required: false,
      pattern_rfc_text: null,
    });
    expect(planningResult(drive([{ outcome: 'fatal_error' }]))?.escalate_reason).toBe(
      'Planning was aborted.',
    );
  });

  it('asks a person to review a machine frozen at a cap', () => {
    const controller = createPlanningController({ freezeOn: ['costUsd'] });
    const frozen = ok(
      reportCap(controller, initialSnapshot(controller, { now: 0 }), {
        cap: 'costUsd',
        now: 1,
        reason: 'the budget refused call-4',
      }),
    );
    expect(planningResult(frozen)).toMatchObject({
      planning_status: 'needs_clarification',
      response_text:
        "Planning is paused for your review: costUsd: reported by the host: the budget refused call-4. Reply 'approve' or 'propose changes: ...'",
      escalate_reason: 'costUsd: reported by the host: the budget refused call-4.',
    });
  });

  it('refuses what is not a planning controller snapshot, and a bad rfc', () => {
    expect(() => planningResult({ state: 'draft', trace: [] } as never)).toThrow(
      /planning controller snapshot/,
    );
    expect(() => planningResult(null as never)).toThrow(/planning controller snapshot/);
    expect(() => planningResult(drive(toApproval), { rfc: '  ' })).toThrow(/options.rfc/);
    expect(() => planningResult(drive(toApproval), { rfc: 5 } as never)).toThrow(/options.rfc/);
  });
});
