import { DBOS } from '@dbos-inc/dbos-sdk';
import { isRecord } from '@plankit/core/internal-unstable';
import { APPROVAL_TOPIC } from './plan-keys.ts';

/** What a person decides about a step that waits for approval. @public */
export interface ApprovalDecision {
  /** Whether the step may go ahead. */
  readonly approved: boolean;
  /** Why, in the approver's words, for the model to read. */
  readonly note?: string | undefined;
}

/** The longest wait `DBOS.recv` is given: 30 days, in seconds. */
const DEFAULT_WAIT_SECONDS = 30 * 24 * 60 * 60;

/**
 * Waits, inside a DBOS workflow, for an approval sent with {@link sendApproval}. The wait is a
 * `DBOS.recv`: the workflow's process may stop, and the workflow resumes where it waited
 * when any process of the application recovers it, for as long as `timeoutSeconds` allows.
 *
 * @param timeoutSeconds - how long to wait; 30 days by default
 * @returns the decision, or `null` when none came in time or what came was not a decision
 * @public
 */
export async function waitForApproval(
  timeoutSeconds: number = DEFAULT_WAIT_SECONDS,
): Promise<ApprovalDecision | null> {
  const message = await DBOS.recv<unknown>(APPROVAL_TOPIC, timeoutSeconds);
  if (!isRecord(message) || typeof message['approved'] !== 'boolean') return null;
  const note = message['note'];
  return typeof note === 'string'
    ? { approved: message['approved'], note }
    : { approved: message['approved'] };
}

/**
 * Sends an approval decision to a workflow waiting in {@link waitForApproval}: from a web
 * handler, a CLI, any process that launched DBOS on the same system database.
 *
 * @param workflowId - the waiting workflow
 * @param decision - the decision
 * @param idempotencyKey - when set, a retried send delivers the decision once
 * @public
 */
export async function sendApproval(
  workflowId: string,
  decision: ApprovalDecision,
  idempotencyKey?: string,
): Promise<void> {
  await DBOS.send(workflowId, decision, APPROVAL_TOPIC, idempotencyKey);
}
