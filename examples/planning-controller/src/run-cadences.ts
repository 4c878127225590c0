import {
  APPROVAL_POLICIES,
  type ApprovalPolicy,
  approvalPauses,
  createPlanningController,
  initialSnapshot,
  type MachineSnapshot,
  machineSnapshotFromJSON,
  type PlanningOutcome,
  type PlanningStage,
  parseApprovalReply,
  planningResult,
  transition,
} from '@plankit/controller';
import type { Result } from '@plankit/core';

type Snapshot = MachineSnapshot<PlanningStage, PlanningOutcome>;

const START = Date.UTC(2026, 0, 15, 9, 0);

// What the scripted agent reports when a work stage is done.
const DONE: Partial<Record<PlanningStage, PlanningOutcome>> = {
  COLLECT_CONTEXT: 'sufficient_context',
  DRAFT_OUTLINE: 'success',
  VALIDATE_OUTLINE: 'valid',
  DRAFT_ROADMAP: 'success',
  VALIDATE_ROADMAP: 'valid',
  DRAFT_SCHEDULE: 'success',
  VALIDATE_SCHEDULE: 'valid',
};

function ok<T, E>(result: Result<T, E>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

/**
 * Runs the same plan under one approval policy: the agent finishes every stage at once, the
 * person rejects the first thing put in front of them and approves the rest. At every pause the
 * host stores the snapshot as JSON, and a "later process" builds the controller again from the
 * same `approval_policy` and reads the snapshot back before the reply is applied.
 */
export function runCadence(policy: ApprovalPolicy, print: (line: string) => void): Snapshot {
  let controller = createPlanningController({ approval_policy: policy });
  let now = START;
  let snapshot: Snapshot = initialSnapshot(controller, { now });
  const replies = ['propose changes: split the launch into two waves'];
  let pauses = 0;
  print(`== approval_policy: ${policy} (${controller.id})`);
  print(
    `   pauses: ${approvalPauses(policy)
      .map((p) => p.stage)
      .join(', ')}`,
  );
  while (snapshot.status !== 'done') {
    const stage = snapshot.state;
    if (snapshot.status === 'waiting') {
      pauses += 1;
      print(`   -- ${stage}: ${planningResult(snapshot)?.response_text}`);
      const stored = JSON.stringify(snapshot);
      controller = createPlanningController({ approval_policy: policy });
      snapshot = ok(machineSnapshotFromJSON(controller, stored));
      // The person answers the next morning: waiting is never charged to the wall-time cap.
      now += 20 * 3600 * 1000;
      const text = replies.shift() ?? 'approve';
      const reply = parseApprovalReply(text);
      snapshot = ok(
        transition(controller, snapshot, {
          outcome: reply.outcome,
          now,
          reason: reply.outcome === 'rejected' ? reply.changes : null,
        }),
      );
      print(`      reply ${JSON.stringify(text)} -> ${reply.outcome} -> ${snapshot.state}`);
      continue;
    }
    const outcome = DONE[stage];
    if (outcome === undefined) throw new Error(`the script has no answer for ${stage}`);
    now += 3000;
    snapshot = ok(transition(controller, snapshot, { outcome, now }));
    print(`   ${stage} --${outcome}--> ${snapshot.state}`);
  }
  print(
    `   ${snapshot.state} after ${pauses} pauses, ${snapshot.counters.totalTurns} turns in ${snapshot.counters.run} runs`,
  );
  return snapshot;
}

/** Options of {@link runCadences}. */
export interface CadencesOptions {
  /** Print every transition and reply of each policy's run, not one line per policy. */
  readonly verbose?: boolean | undefined;
}

/**
 * Runs the plan under every approval policy, from the fewest pauses to the most: one line per
 * policy, or each whole run with `verbose`.
 */
export function runCadences(
  print: (line: string) => void,
  options: CadencesOptions = {},
): readonly Snapshot[] {
  if (options.verbose === true)
    return APPROVAL_POLICIES.map((policy, index) => {
      if (index > 0) print('');
      return runCadence(policy, print);
    });
  return APPROVAL_POLICIES.map((policy) => {
    const snapshot = runCadence(policy, () => {});
    // Every pause ends with the person's reply, so the replies in the trace count the pauses.
    const pauses = snapshot.trace.filter(
      (entry) => entry.outcome === 'approved' || entry.outcome === 'rejected',
    ).length;
    const stages = approvalPauses(policy)
      .map((pause) => pause.stage)
      .join(', ');
    print(
      `${policy.padEnd(20)} ${snapshot.state} after ${pauses} pauses, ${snapshot.counters.totalTurns} turns in ${snapshot.counters.run} runs; pauses at ${stages}`,
    );
    return snapshot;
  });
}
