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
 * A message id as the log line quotes it: clipped, then JSON-quoted (which escapes controls and
 * a surrogate half left by the clip), with the line and paragraph separators escaped too.
 */
function quotedId(id: string): string {
  const clipped = id.length > MAX_QUOTED_ID ? `${id.slice(0, MAX_QUOTED_ID)}...` : id;
  return JSON.stringify(clipped).replace(/[\u2028\u2029]/g, (char) =>
    char === '\u2028' ? '\\u2028' : '\\u2029',
  );
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
