import { clipText, escapeControl } from '@plankit/core/internal-unstable';
import type { PlanViewProblem } from '@plankit/core/plan-view';

/**
 * A `data-plan` part that {@link usePlan} and {@link latestPlan} ignored because it does not
 * hold a plan view this version reads: a foreign or malformed part, say from a stored chat made
 * by an older version or edited by hand. The plan shown stays the last valid one.
 *
 * @public
 */
export interface PlanPartWarning {
  /** Always `plan_part_ignored`. */
  readonly code: 'plan_part_ignored';
  /** The id of the message holding the part. */
  readonly messageId: string;
  /** The part's position in that message's `parts`. */
  readonly partIndex: number;
  /** The part's own id, or `null` when it has none. */
  readonly partId: string | null;
  /** Why the parser refused it: the field and the rule. */
  readonly problem: PlanViewProblem;
  /** One readable line for a log (the message id clipped to 200 characters). */
  readonly message: string;
}

const MAX_QUOTED_ID = 200;

/**
 * A message id as the log line quotes it: clipped without splitting a surrogate pair, then
 * JSON-quoted (which escapes C0 controls and a lone surrogate the id itself holds), with the C1
 * controls and the line and paragraph separators escaped too, so the id stays on one line.
 */
function quotedId(id: string): string {
  return escapeControl(JSON.stringify(clipText(id, MAX_QUOTED_ID)));
}

/** The warning for a refused part. @internal */
export function planPartWarning(
  messageId: string,
  partIndex: number,
  partId: string | null,
  problem: PlanViewProblem,
): PlanPartWarning {
  return Object.freeze({
    code: 'plan_part_ignored',
    messageId,
    partIndex,
    partId,
    problem,
    message: `Ignored the data-plan part ${partIndex} of message ${quotedId(messageId)}: ${problem.message}`,
  });
}
