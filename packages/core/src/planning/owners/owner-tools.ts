import * as z from 'zod';
import { defineTool, type Tool } from '../../define-tool.ts';
import type { Session } from '../../session.ts';
import type { PlanStep } from '../plan.ts';
import { requirePlan, stepIndex } from '../plan-checks.ts';
import { planningToolTraits } from '../planning-tool-traits.ts';
import { stepIdText } from '../text-rules.ts';
import { ClaimStep, claimStepReducer, ReleaseStep, releaseStepReducer } from './owner-commands.ts';

/** Parameters of `planning_claim_step` and `planning_release_step`, as sent. @public */
export interface OwnedStepInput {
  /** Id of the step. */
  readonly step_id: string;
}

/** What the owner tools share with `createPlanningTools`. @internal */
export interface OwnerToolsContext {
  readonly acceptsOverrides: boolean;
  readonly prepare: (session: Session) => Session;
  /** The agent the tools act for: the owner they claim and release as. */
  readonly agent: string;
}

const OwnedStepParameters: z.ZodType<OwnedStepInput, OwnedStepInput> = z.strictObject({
  step_id: z.string(),
});

// Takes a free step only; a repeat by the holder changes nothing, another holder is refused.
const CLAIM_TRAITS = planningToolTraits({
  title: 'Claim a plan step',
  readOnly: false,
  destructive: false,
  idempotent: true,
});

// Drops the caller's own claim; a second release is refused and changes nothing.
const RELEASE_TRAITS = planningToolTraits({
  title: 'Release a plan step',
  readOnly: false,
  destructive: true,
  idempotent: true,
});

// The handlers run the reducers' own checks on the plan as it is now, so a refusal comes
// back at once; the reducers check again on the plan the result is applied to, so of two
// racing claims only the first applied wins.
const probe = { dataType: '', sessionId: '', at: 0 };

/**
 * The `planning_claim_step` and `planning_release_step` tools for the `owners()` extension: the
 * agent named in `context.agent` claims or releases one step. @internal
 */
export function createOwnerTools(context: OwnerToolsContext): {
  readonly claim: Tool<ClaimStep, ClaimStep, OwnedStepInput>;
  readonly release: Tool<ReleaseStep, ReleaseStep, OwnedStepInput>;
} {
  const owner = context.agent;
  const claim = defineTool({
    name: 'planning_claim_step',
    description: 'Claim a step so other agents leave it to you.',
    parameters: OwnedStepParameters as unknown as z.ZodType<ClaimStep, OwnedStepInput>,
    resultType: ClaimStep,
    acceptsOverrides: context.acceptsOverrides,
    traits: CLAIM_TRAITS,
    handler: (params, { session }) => {
      const plan = requirePlan(context.prepare(session));
      const step_id = stepIdText(params.step_id);
      const value = { step_id, owner };
      const held = (plan.steps[stepIndex(plan, step_id)] as PlanStep).owner === owner;
      claimStepReducer([plan], { ...probe, value });
      return {
        message: held
          ? `Step ${step_id} is already held by ${owner}.`
          : `Step ${step_id} claimed by ${owner}.`,
        value,
      };
    },
  });
  const release = defineTool({
    name: 'planning_release_step',
    description: 'Release a step you hold.',
    parameters: OwnedStepParameters as unknown as z.ZodType<ReleaseStep, OwnedStepInput>,
    resultType: ReleaseStep,
    acceptsOverrides: context.acceptsOverrides,
    traits: RELEASE_TRAITS,
    handler: (params, { session }) => {
      const plan = requirePlan(context.prepare(session));
      const step_id = stepIdText(params.step_id);
      const value = { step_id, owner };
      releaseStepReducer([plan], { ...probe, value });
      return { message: `Step ${step_id} released by ${owner}.`, value };
    },
  });
  return { claim, release };
}
