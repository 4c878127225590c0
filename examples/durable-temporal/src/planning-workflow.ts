import {
  ControllerSnapshot,
  createPlanningController,
  initialSnapshot,
  registerControllerReducers,
  transition,
} from '@plankit/controller';
import {
  type AnyTool,
  createPlanningTools,
  defineDataType,
  defineTool,
  invokeTool,
  Plan,
  renderPlan,
  Session,
  selectLatest,
  snapshotToJSON,
} from '@plankit/core';
import {
  ApplicationFailure,
  condition,
  defineQuery,
  defineUpdate,
  proxyActivities,
  type QueryDefinition,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import * as z from 'zod';
import type { PlanningActivities } from './activities.ts';

/** The reviewer's answer to a plan waiting for approval. */
export interface ApprovalReply {
  readonly approved: boolean;
  readonly reviewer: string;
}

/** What the workflow starts with. */
export interface PlanningWorkflowInput {
  /** The tools with side effects: they run as activities. */
  readonly effects: readonly string[];
}

/** What the workflow returns. */
export interface PlanningWorkflowResult {
  readonly state: string;
  readonly plan: Plan | undefined;
  readonly session: unknown;
}

/** Approval, as an update: the caller learns at once whether the reply was taken. */
export const approvePlan: ReturnType<typeof defineUpdate<string, [ApprovalReply]>> = defineUpdate<
  string,
  [ApprovalReply]
>('approvePlan');

/** The plan, for a UI: a query reads the workflow's state and records nothing. */
export const currentPlan: QueryDefinition<Plan | null> = defineQuery<Plan | null>('currentPlan');

const { modelTurn, runEffect } = proxyActivities<PlanningActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 5 },
});

const Effected = defineDataType(
  'example.temporal.Effected',
  z.strictObject({ tool: z.string(), receipt: z.string() }),
);

/**
 * A planning agent as a Temporal workflow. The session, the planning tools and the controller
 * run in the workflow: they are pure (specs/replay-contract.md), so a replay of the history
 * computes the same plan. The model and the side effects are activities. The approval is an
 * update the workflow waits for with `condition`, for days if need be, holding no worker.
 */
export async function planningWorkflow(
  input: PlanningWorkflowInput,
): Promise<PlanningWorkflowResult> {
  const { workflowId } = workflowInfo();
  // Inputs, never ambient reads: the workflow id, and Temporal's workflow clock (its `Date.now`
  // is the time of the current workflow task, the same on every replay). A random session id
  // would differ on a replay, so it is given.
  const session = new Session({ sessionId: workflowId, clock: () => Date.now() });
  registerControllerReducers(session);
  session.register(Effected, (slice, { value }) => [...slice, value]);
  const effects = input.effects.map((name) =>
    defineTool({
      name,
      description: `Run ${name}; it has side effects, so it runs as an activity.`,
      parameters: z.record(z.string(), z.unknown()),
      resultType: Effected,
      handler: async (args) => {
        // The same key on every attempt and every replay: the workflow id and the log position.
        const idempotencyKey = `${workflowId}:${session.snapshot().revision}:${name}`;
        const { message, receipt } = await runEffect({ tool: name, args, idempotencyKey });
        return { message, value: { tool: name, receipt } };
      },
    }),
  );
  const tools = new Map<string, AnyTool>(
    [...createPlanningTools(session), ...effects].map((tool) => [tool.name, tool]),
  );
  const machine = createPlanningController();
  session.dispatch(ControllerSnapshot, initialSnapshot(machine, { now: Date.now() }));

  let reply: ApprovalReply | undefined;
  setHandler(currentPlan, () => selectLatest(session, Plan) ?? null);
  setHandler(
    approvePlan,
    (answer) => {
      reply = answer;
      return `recorded: ${answer.approved ? 'approved' : 'rejected'}`;
    },
    {
      // A refused update is not written to the history: a reply only counts while one is awaited.
      validator: (answer) => {
        if (selectLatest(session, ControllerSnapshot)?.state !== 'SEEK_APPROVAL')
          throw new Error('approvePlan: no plan is waiting for approval.');
        if (typeof answer.reviewer !== 'string' || answer.reviewer === '')
          throw new Error('approvePlan: reviewer must be a non-empty string.');
      },
    },
  );

  for (let turn = 0; ; turn++) {
    const plan = selectLatest(session, Plan);
    const action = await modelTurn({ turn, planText: plan === undefined ? '' : renderPlan(plan) });
    if (action.kind === 'finish') break;
    if (action.kind === 'tool') {
      const tool = tools.get(action.tool);
      if (tool === undefined)
        throw ApplicationFailure.nonRetryable(`unknown tool ${action.tool}`, 'UnknownTool');
      // A refusal is an answer the model reads next turn, not a failure of the workflow.
      await invokeTool(tool, action.args, { session });
      continue;
    }
    const current = selectLatest(session, ControllerSnapshot);
    if (current === undefined) throw ApplicationFailure.nonRetryable('no controller snapshot');
    let outcome = action.outcome;
    let reason: string | null = null;
    if (current.state === 'SEEK_APPROVAL') {
      // Sleeps in Temporal's service, not in a process: a worker restart changes nothing.
      const answered = await condition(() => reply !== undefined, '7 days');
      outcome = !answered ? 'no_response' : reply?.approved ? 'approved' : 'rejected';
      reason = reply === undefined ? null : `${outcome} by ${reply.reviewer}`;
      reply = undefined;
    }
    const next = transition(machine, current, { outcome, now: Date.now(), reason });
    if (!next.ok) throw ApplicationFailure.nonRetryable(next.error.message, next.error.code);
    session.dispatch(ControllerSnapshot, next.value);
    if (next.value.status === 'done') break;
  }
  return {
    state: selectLatest(session, ControllerSnapshot)?.state ?? 'none',
    plan: selectLatest(session, Plan),
    session: snapshotToJSON(session.snapshot()),
  };
}
