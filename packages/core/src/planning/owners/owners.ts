import type { Tool } from '../../define-tool.ts';
import { checkOptionKeys } from '../../internal/check-option-keys.ts';
import { invalidArgument } from '../../internal/invalid-argument.ts';
import { isRecord } from '../../internal/is-record.ts';
import type { AnyPlanningCommand, PlanningExtension } from '../planning-extension.ts';
import { AGENT_ID_RULE, agentIdProblem } from './agent-id.ts';
import {
  ClaimStep,
  claimStepReducer,
  heldByOther,
  ReleaseStep,
  releaseStepReducer,
} from './owner-commands.ts';
import { createOwnerTools, type OwnedStepInput } from './owner-tools.ts';

/** `planning_claim_step`. @public */
export type ClaimStepTool = Tool<ClaimStep, ClaimStep, OwnedStepInput>;

/** `planning_release_step`. @public */
export type ReleaseStepTool = Tool<ReleaseStep, ReleaseStep, OwnedStepInput>;

/** The tools the owners extension adds, by name. @public */
export interface OwnerToolsByName {
  readonly planning_claim_step: ClaimStepTool;
  readonly planning_release_step: ReleaseStepTool;
}

/** What {@link owners} returns. @public */
export type OwnersExtension = PlanningExtension<'owners', { readonly tools: OwnerToolsByName }>;

/** What {@link owners} declares: its commands and reducers, on the plan slice. @internal */
export const OWNER_COMMANDS: readonly AnyPlanningCommand[] = Object.freeze([
  { dataType: ClaimStep, reducer: claimStepReducer },
  { dataType: ReleaseStep, reducer: releaseStepReducer },
]);

/** The line {@link owners} adds to the planning prompt. @internal */
export function ownerPromptLines(): readonly string[] {
  return [
    '- Claim a step (`planning_claim_step`) before working on it and release it (`planning_release_step`) when you stop; leave steps others hold alone.',
  ];
}

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
export function owners(options: OwnersOptions): OwnersExtension {
  if (!isRecord(options))
    throw invalidArgument('owners', 'options', 'must be an object with the agent');
  checkOptionKeys('owners', options, OPTION_KEYS);
  const { agent } = options;
  if (agentIdProblem(agent) !== undefined)
    throw invalidArgument('owners', 'options.agent', AGENT_ID_RULE);
  return Object.freeze<OwnersExtension>({
    name: 'owners',
    // Shared with history(), which records the same agent as the actor.
    settings: Object.freeze({ agent }),
    commands: OWNER_COMMANDS,
    promptLines: ownerPromptLines,
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
