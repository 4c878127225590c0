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
  Session,
  selectAll,
  selectLatest,
  snapshotToJSON,
  ToolCall,
} from '@plankit/core';
import { createHook, FatalError, getWorkflowMetadata } from 'workflow';
import * as z from 'zod';
import { type AgentAction, applyEffect, type Effect, modelTurn } from './steps.ts';

/** What the reviewer sends to the approval hook. */
export interface ApprovalReply {
  readonly approved: boolean;
  readonly reviewer: string;
}

/** What the workflow starts with. */
export interface PlanningAgentInput {
  /** The task the scripted model plans. */
  readonly task: string;
  /** A JSON-lines file the side-effect steps write to, so a test can count what they did. */
  readonly ledger: string;
  /** Make the first attempt of the deploy step die after its side effect, before it returns. */
  readonly crashDeployOnce: boolean;
}

/** What the workflow returns. */
export interface PlanningAgentResult {
  readonly plan: Plan | undefined;
  readonly state: string;
  readonly calls: readonly string[];
  readonly turns: number;
  readonly session: unknown;
}

/** The hook token a run waits on for its approval. */
export function approvalToken(runId: string): string {
  return `plan-approval:${runId}`;
}

const Effected = defineDataType(
  'example.durable.Effected',
  z.strictObject({ kind: z.enum(['build', 'deploy']), receipt: z.string() }),
);

/**
 * A planning agent as a workflow. The session, the planning tools and the controller run here,
 * in the workflow function: they are pure, so every replay computes the same plan. The model
 * and the tools with side effects run as steps, whose recorded results the replay reads back.
 * The approval waits on a hook: no process is held while it waits.
 */
export async function planningAgent(input: PlanningAgentInput): Promise<PlanningAgentResult> {
  'use workflow';
  const { workflowRunId } = getWorkflowMetadata();
  // Time and ids are inputs (specs/replay-contract.md): the run id, and the workflow's clock,
  // which the Workflow SDK replays with the time it recorded.
  const session = new Session({ sessionId: workflowRunId, clock: () => Date.now() });
  registerControllerReducers(session);
  session.register(Effected, (slice, { value }) => [...slice, value]);
  const planning = createPlanningTools(session);
  const effect = (kind: Effect) =>
    defineTool({
      name: kind === 'build' ? 'build_release' : 'deploy_staging',
      description: `Run the ${kind} and report its receipt.`,
      parameters: z.strictObject({}),
      resultType: Effected,
      handler: async () => {
        const receipt = await applyEffect(kind, input.ledger, input.crashDeployOnce);
        return { message: `${kind} done: ${receipt}.`, value: { kind, receipt } };
      },
    });
  const tools = new Map<string, AnyTool>(
    [...planning, effect('build'), effect('deploy')].map((tool) => [tool.name, tool]),
  );
  const machine = createPlanningController();
  session.dispatch(ControllerSnapshot, initialSnapshot(machine, { now: Date.now() }));

  let turn = 0;
  for (;;) {
    const seen = JSON.stringify(snapshotToJSON(session.snapshot()));
    const { action, recorded } = await modelTurn(turn, input.task, seen);
    // The step recorded the session it was called with. On a replay its recorded answer comes
    // back; a session computed differently now means the replay diverged: stop, never guess.
    if (recorded !== seen) {
      throw new FatalError(
        `replay diverged before turn ${turn}: the session differs from the one recorded`,
      );
    }
    turn++;
    if (action.kind === 'finish' || (await act(action)) === 'stop') break;
  }

  /** Runs one action; `stop` once a rejected plan sends the controller back to drafting. */
  async function act(action: AgentAction): Promise<'next' | 'stop'> {
    if (action.kind === 'tool') {
      const tool = tools.get(action.tool);
      if (tool === undefined) throw new FatalError(`unknown tool ${action.tool}`);
      await invokeTool(tool, action.args, { session });
      return 'next';
    }
    if (action.kind !== 'outcome') return 'next';
    const current = selectLatest(session, ControllerSnapshot);
    if (current === undefined) throw new FatalError('no controller snapshot');
    let outcome = action.outcome;
    let reason: string | null = null;
    if (current.state === 'SEEK_APPROVAL') {
      const hook = createHook<ApprovalReply>({ token: approvalToken(workflowRunId) });
      const reply = await hook;
      outcome = reply.approved ? 'approved' : 'rejected';
      reason = `${reply.approved ? 'approved' : 'rejected'} by ${reply.reviewer}`;
    }
    const next = transition(machine, current, { outcome, now: Date.now(), reason });
    if (!next.ok) throw new FatalError(next.error.message);
    session.dispatch(ControllerSnapshot, next.value);
    // The scripted model cannot draft again: a rejected plan ends the run in DRAFT_OUTLINE.
    return outcome === 'rejected' ? 'stop' : 'next';
  }

  return {
    plan: selectLatest(session, Plan),
    state: selectLatest(session, ControllerSnapshot)?.state ?? 'none',
    calls: selectAll(session, ToolCall).map((call) => call.tool),
    turns: turn,
    session: snapshotToJSON(session.snapshot()),
  };
}
