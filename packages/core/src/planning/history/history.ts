import { checkOptionKeys } from '../../internal/check-option-keys.ts';
import { invalidArgument } from '../../internal/invalid-argument.ts';
import type { Session } from '../../session.ts';
import { AGENT_ID_RULE, agentIdProblem } from '../owners/agent-id.ts';
import { Plan } from '../plan.ts';
import type { PlanningExtension } from '../planning-extension.ts';
import { PlanChange, planChangeReducer } from './plan-change.ts';
import { registerPlanHistory } from './plan-history.ts';
import { withHistory } from './with-history.ts';

/** Options of {@link history}. @public */
export interface HistoryOptions {
  /** The agent recorded as the actor of each change; the owners extension's agent otherwise. */
  readonly agent?: string | undefined;
}

const OPTION_KEYS: ReadonlySet<string> = new Set(['agent']);

/** Registers the reducer that applies a `PlanChange` to the plan slice. @internal */
export function registerPlanChange(session: Session): void {
  session.register(PlanChange, planChangeReducer, { slice: Plan });
}

function registerHistory(session: Session): void {
  registerPlanChange(session);
  registerPlanHistory(session);
}

/**
 * The history extension: every tool that changes the plan takes an optional `explanation`
 * and dispatches a `PlanChange` (the command with the actor and the explanation), and every
 * change of the plan is recorded for `planHistory` (the newest `MAX_PLAN_REVISIONS`).
 *
 * @example
 * ```ts
 * import { createPlanningTools, Session } from '@plankit/core';
 * import { history } from '@plankit/core/plan-model';
 *
 * const tools = createPlanningTools(new Session(), { extensions: [history({ agent: 'lead' })] });
 * ```
 * @throws PlankitError `argument_invalid` for a malformed agent or unknown options
 * @public
 */
export function history(options: HistoryOptions = {}): PlanningExtension<'history'> {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw invalidArgument('history', 'options', 'must be an object');
  checkOptionKeys('history', options, OPTION_KEYS);
  const { agent } = options;
  if (agent !== undefined && agentIdProblem(agent) !== undefined)
    throw invalidArgument('history', 'options.agent', AGENT_ID_RULE);
  return Object.freeze<PlanningExtension<'history'>>({
    name: 'history',
    ...(agent === undefined ? {} : { settings: Object.freeze({ agent }) }),
    register: registerHistory,
    wrap: (tool, context) => (tool.resultType === null ? tool : withHistory(tool, context)),
  });
}
