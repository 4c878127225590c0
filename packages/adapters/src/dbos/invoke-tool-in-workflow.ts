import { DBOS } from '@dbos-inc/dbos-sdk';
import {
  type AnyTool,
  invokeTool,
  Plan,
  type Session,
  selectLatest,
  type ToolResult,
  type ToolResultValue,
} from '@plankit/core';
import { checkOptionKeys } from '@plankit/core/internal-unstable';
import { PLAN_EVENT_KEY, PLAN_STREAM_KEY } from './plan-keys.ts';

/** Options of {@link invokeToolInWorkflow}. @public */
export interface InvokeToolInWorkflowOptions {
  /** The session the workflow rebuilds as it runs; the tool reads it and reduces into it. */
  readonly session: Session;
  /** The host's id of this tool call, passed on to `invokeTool`. */
  readonly callId?: string | undefined;
  /** The conversation the call belongs to, passed on to `invokeTool`. */
  readonly conversationId?: string | undefined;
}

const OPTION_KEYS: ReadonlySet<string> = new Set(['session', 'callId', 'conversationId']);

/**
 * Runs a plankit tool call inside a DBOS workflow function, the way DBOS replays it.
 *
 * DBOS re-runs a workflow function after a crash and hands it the recorded output of each
 * step, so the function itself must be deterministic. A plankit tool call is: its result and
 * the session it leaves depend only on the session, the arguments and the moment. So the
 * moment is the only step here (`DBOS.now()`, recorded once), and the call itself runs in the
 * workflow function, where a recovery re-runs it on the same recorded inputs and rebuilds the
 * same session. Nothing about the plan is stored twice: the step records one number.
 *
 * After the call, the plan as it now stands is published: as the workflow event
 * {@link PLAN_EVENT_KEY} (`DBOS.getEvent` reads the latest) and on the workflow stream
 * {@link PLAN_STREAM_KEY} (`DBOS.readStream` follows every version), both recorded by DBOS
 * so a recovery does not publish a version twice. A tool with effects outside the session
 * (a deploy, an email) runs its effect in a `DBOS.runStep` of its own first.
 *
 * Outside a workflow this is `invokeTool` with the current time, and publishes nothing.
 *
 * @param tool - a tool made by `defineTool`, such as one of `createPlanningTools`
 * @param rawArgs - the arguments as the model sent them
 * @param options - the session, and the ids `invokeTool` reports
 * @returns what `invokeTool` returns: a refusal is `success: false`, never thrown
 * @throws PlankitError `argument_invalid` for unknown options or what `invokeTool` refuses
 * @example
 * ```ts norun
 * const agent = DBOS.registerWorkflow(async (objective: string) => {
 *   const session = new Session({ sessionId: DBOS.workflowID ?? 'local' });
 *   const tools = createPlanningTools(session);
 *   await invokeToolInWorkflow(tools.planning_setup_plan, { objective }, { session });
 *   return selectLatest(session, Plan);
 * }, { name: 'agent' });
 * ```
 * @public
 */
export async function invokeToolInWorkflow<T extends AnyTool>(
  tool: T,
  rawArgs: unknown,
  options: InvokeToolInWorkflowOptions,
): Promise<ToolResult<ToolResultValue<T>>> {
  checkOptionKeys('invokeToolInWorkflow', options, OPTION_KEYS);
  const inWorkflow = DBOS.workflowID !== undefined;
  const now = inWorkflow ? await DBOS.now() : Date.now();
  const result = await invokeTool(tool, rawArgs, {
    session: options.session,
    now,
    ...(options.callId === undefined ? {} : { callId: options.callId }),
    ...(options.conversationId === undefined ? {} : { conversationId: options.conversationId }),
  });
  if (inWorkflow && result.success) {
    const plan = selectLatest(options.session, Plan) ?? null;
    await DBOS.setEvent(PLAN_EVENT_KEY, plan);
    await DBOS.writeStream(PLAN_STREAM_KEY, plan);
  }
  return result;
}
