import { dataTypeName } from '../define-data-type.ts';
import type { AnyTool } from '../define-tool.ts';
import { checkOptionKeys } from '../internal/check-option-keys.ts';
import { invalidArgument } from '../internal/invalid-argument.ts';
import { invokeTool } from '../invoke-tool.ts';
import type { PlankitError, PlankitErrorCode } from '../plankit-error.ts';
import { Plan } from '../planning/plan.ts';
import { registerPlanningReducers } from '../planning/planning-reducers.ts';
import type { Result } from '../result.ts';
import { selectLatest } from '../select-latest.ts';
import { Session } from '../session.ts';
import type { ToolValidationErrorCode } from '../tool-validation-error.ts';
import type { PlanningCall } from './planning-call.ts';

/** Options of {@link applyPlanningCalls}. @public */
export interface ApplyPlanningCallsOptions {
  /** The session whose plan the calls change. */
  readonly session: Session;
  /** When, in epoch milliseconds; the session's clock by default. */
  readonly now?: number | undefined;
  /**
   * Added to every call's arguments: tools built with the `history()` extension record it as
   * the reason for each change (`planHistory`). Only for such tools: the others refuse it.
   */
  readonly explanation?: string | undefined;
}

const OPTION_KEYS: ReadonlySet<string> = new Set(['session', 'now', 'explanation']);

/** The tools {@link applyPlanningCalls} needs, by name: what `createPlanningTools` returns. @public */
export type PlanningCallTools = { readonly [K in PlanningCall['tool']]: AnyTool };

/** A refusal of one call: the tool's own error, from the call that broke a rule. @public */
export type PlanningCallError = PlankitError<PlankitErrorCode | ToolValidationErrorCode>;

async function run(
  tools: PlanningCallTools,
  calls: readonly PlanningCall[],
  session: Session,
  now: number,
  explanation: string | undefined,
): Promise<PlanningCallError | undefined> {
  for (const call of calls) {
    const args = explanation === undefined ? call.args : { ...call.args, explanation };
    const result = await invokeTool(tools[call.tool], args, { session, now });
    if (!result.success) return result.error;
  }
  return undefined;
}

/**
 * Runs the calls of a `PlanWrite` through the planning tools, all or none: first on a copy of
 * the session's plan, then, when every call passed, on the session. A refused call (a title
 * the tools' text rules refuse, a completed plan that takes no new step) leaves the session
 * untouched: nothing is dispatched, logged or published.
 *
 * @param tools - the planning tools, as `createPlanningTools` returns them (with the same
 *   options, such as `text` and `inProgress`, as the agent's)
 * @param calls - the calls, in order
 * @returns the plan after the calls, or the first refusal: the tool's own error
 *   (`text_not_ascii`, `text_too_long`, `plan_not_active`, `step_in_progress`, ...)
 * @throws PlankitError `argument_invalid` for a missing session, unknown options or a tool
 *   missing from `tools`
 * @public
 */
export async function applyPlanningCalls(
  tools: PlanningCallTools,
  calls: readonly PlanningCall[],
  options: ApplyPlanningCallsOptions,
): Promise<Result<Plan | undefined, PlanningCallError>> {
  const where = 'applyPlanningCalls';
  if (typeof options !== 'object' || options === null)
    throw invalidArgument(where, 'options', 'must be an object');
  checkOptionKeys(where, options, OPTION_KEYS);
  const { session, explanation } = options;
  if (!(session instanceof Session))
    throw invalidArgument(where, 'options.session', 'must be a Session');
  if (!Array.isArray(calls)) throw invalidArgument(where, 'calls', 'must be an array');
  for (const call of calls as readonly PlanningCall[]) {
    if (typeof tools?.[call.tool]?.handler !== 'function')
      throw invalidArgument(where, `tools.${call.tool}`, 'must be a planning tool');
  }
  if (calls.length === 0) return { ok: true, value: selectLatest(session, Plan) };
  const now = options.now ?? session.clock();
  // The dry run: the same tools on a session holding only the plan, so a refusal half-way
  // through never reaches the real one.
  const copy = new Session({ sessionId: session.sessionId, clock: session.clock });
  registerPlanningReducers(copy);
  const plan = selectLatest(session, Plan);
  if (plan !== undefined) {
    const seeded = copy.rollback({
      sessionId: copy.sessionId,
      revision: 0,
      slices: { [dataTypeName(Plan)]: [plan] },
    });
    if (!seeded.ok) return { ok: false, error: seeded.error };
  }
  const refused = await run(tools, calls, copy, now, explanation);
  copy.dispose();
  if (refused !== undefined) return { ok: false, error: refused };
  const before = session.snapshot();
  const failed = await run(tools, calls, session, now, explanation);
  if (failed !== undefined) {
    // Only another writer between the two runs gets here: put the plan back as it was.
    session.rollback(before, { now });
    return { ok: false, error: failed };
  }
  return { ok: true, value: selectLatest(session, Plan) };
}
