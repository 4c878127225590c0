import { checkOptionKeys } from '../../internal/check-option-keys.ts';
import { invalidArgument } from '../../internal/invalid-argument.ts';
import type { Session } from '../../session.ts';
import { Plan } from '../plan.ts';
import type { PlanningExtension } from '../planning-extension.ts';
import { AGENT_ID_RULE, agentIdProblem } from './agent-id.ts';
import {
  ClaimStep,
  claimStepReducer,
  heldByOther,
  ReleaseStep,
  releaseStepReducer,
} from './owner-commands.ts';
import { createOwnerTools } from './owner-tools.ts';

/** Options of {@link owners}. @public */
export interface OwnersOptions {
  /**
   * The id of the agent these tools act for (1-64 characters: letters, digits and
   * `. _ : @ / + -`, starting with a letter or digit). Give each agent sharing a plan its
   * own tools.
   */
  readonly agent: string;
}

const OPTION_KEYS: ReadonlySet<string> = new Set(['agent']);

/** Registers the claim and release reducers on the plan slice. @internal */
export function registerOwnerReducers(session: Session): void {
  session.register(ClaimStep, claimStepReducer, { slice: Plan });
  session.register(ReleaseStep, releaseStepReducer, { slice: Plan });
}

/**
 * The owners extension: adds `planning_claim_step` and `planning_release_step`, with which
 * `agent` claims and releases steps. A step another agent holds is refused, naming the
 * holder, and so is marking it.
 *
 * @example
 * ```ts
 * import { createPlanningTools, Session } from '@plankit/core';
 * import { owners } from '@plankit/core/plan-model';
 *
 * const tools = createPlanningTools(new Session(), { extensions: [owners({ agent: 'worker-1' })] });
 * tools.planning_claim_step;
 * ```
 * @throws PlankitError `argument_invalid` for a missing or malformed agent, or unknown options
 * @public
 */
export function owners(options: OwnersOptions): PlanningExtension<'owners'> {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw invalidArgument('owners', 'options', 'must be an object with the agent');
  checkOptionKeys('owners', options, OPTION_KEYS);
  const { agent } = options;
  if (agentIdProblem(agent) !== undefined)
    throw invalidArgument('owners', 'options.agent', AGENT_ID_RULE);
  return Object.freeze<PlanningExtension<'owners'>>({
    name: 'owners',
    settings: Object.freeze({ owner: agent, agent }),
    register: registerOwnerReducers,
    tools: (context) => {
      const tools = createOwnerTools({ ...context, agent });
      return { add: [tools.claim, tools.release] };
    },
    checkMarkTarget: (step) => {
      if (step.owner !== undefined && step.owner !== agent)
        throw heldByOther(step.step_id, step.owner, `only ${step.owner} can mark it`);
    },
  });
}
