import { type AnyTool, defineTool, type Tool } from '../define-tool.ts';
import { checkOptionKeys } from '../internal/check-option-keys.ts';
import { invalidArgument } from '../internal/invalid-argument.ts';
import { trustedValue } from '../internal/trusted-value.ts';
import { Session } from '../session.ts';
import { ToolValidationError } from '../tool-validation-error.ts';
import { createBatchTool, type PlanBatchInput } from './batch/create-batch-tool.ts';
import type { PlanBatch } from './batch/plan-batch.ts';
import type {
  AddStepWithDependencies,
  AddStepWithDependenciesInput,
  SetupPlanWithDependencies,
  SetupPlanWithDependenciesInput,
  UpdateStepWithDependencies,
  UpdateStepWithDependenciesInput,
} from './dependencies/dependency-commands.ts';
import { type DependencyOptions, resolveDependencies } from './dependencies/dependency-options.ts';
import { createDependencyTools } from './dependencies/dependency-tools.ts';
import { openDependencyRule } from './dependencies/open-dependency-rule.ts';
import type { PlanChange } from './history/plan-change.ts';
import { registerPlanHistory } from './history/plan-history.ts';
import { type WithHistory, withHistory } from './history/with-history.ts';
import { IN_PROGRESS_MODES, type InProgressMode, inProgressRule } from './in-progress-rule.ts';
import { AGENT_ID_RULE, agentIdProblem } from './owners/agent-id.ts';
import type { ClaimStep, ReleaseStep } from './owners/owner-commands.ts';
import { heldByOther } from './owners/owner-commands.ts';
import { createOwnerTools, type OwnedStepInput } from './owners/owner-tools.ts';
import type { Plan, PlanStep } from './plan.ts';
import {
  ensureActive,
  ensureClearable,
  ensureMarkable,
  ensureStatus,
  requirePlan,
  stepIndex,
  stepIndexIn,
  withStepHint,
} from './plan-checks.ts';
import {
  AddStep,
  type AddStepInput,
  ClearPlan,
  MarkStep,
  type MarkStepInput,
  type NewPlanStep,
  ReadPlan,
  SetupPlan,
  type SetupPlanInput,
  UpdateStep,
  type UpdateStepInput,
} from './plan-commands.ts';
import { ensureIdRoom } from './planning-reducers.ts';
import { PLANNING_TOOL_TRAITS } from './planning-tool-traits.ts';
import { registerPlanModelReducers } from './register-plan-model-reducers.ts';
import { suffixNumber } from './step-id.ts';
import { optionalText, PLANNING_LIMITS, requiredText, stepIdText } from './text-rules.ts';
import { withToolNames } from './with-tool-names.ts';

/** Options of {@link createPlanningTools}. @public */
export interface PlanningToolsOptions {
  /** `'single'` refuses a second `in_progress` step; `'any'` (the default) allows it. */
  readonly inProgress?: InProgressMode | undefined;
  /** Marks every tool as accepting description overrides; `false` by default. */
  readonly acceptsOverrides?: boolean | undefined;
  /**
   * Steps carry `depends_on`: setup, add and update take it, cycles and unknown ids are
   * refused, marking a step with open dependencies `in_progress` or `done` is refused (or
   * warned about, with `{ onOpenDependency: 'warn' }`), and read lists ready and blocked
   * steps. Off by default.
   */
  readonly dependencies?: boolean | DependencyOptions | undefined;
  /** Adds `planning_apply_batch` (all-or-nothing batches) after the six; off by default. */
  readonly batch?: boolean | undefined;
  /**
   * Every mutating tool takes an optional `explanation` and dispatches a `PlanChange` (the
   * command with the `agent` and the explanation), and every change of the plan is recorded
   * for `planHistory` (the newest `MAX_PLAN_REVISIONS`). Off by default.
   */
  readonly history?: boolean | undefined;
  /**
   * Adds `planning_claim_step` and `planning_release_step`: the tools' `agent` claims and
   * releases steps (a step another agent holds is refused, naming the holder), and marking a
   * step another agent holds is refused. Needs `agent`. Off by default.
   */
  readonly owners?: boolean | undefined;
  /**
   * The id of the agent these tools act for (1-64 characters: letters, digits and
   * `. _ : @ / + -`, starting with a letter or digit): the owner the `owners` tools claim as,
   * and the actor `history` records. Give each agent sharing a plan its own tools.
   */
  readonly agent?: string | undefined;
}

/** `planning_claim_step`. @public */
export type ClaimStepTool = Tool<ClaimStep, ClaimStep, OwnedStepInput>;

/** `planning_release_step`. @public */
export type ReleaseStepTool = Tool<ReleaseStep, ReleaseStep, OwnedStepInput>;

/** Maps each tool of a tuple through {@link WithHistory}. @public */
export type ToolsWithHistory<T extends readonly unknown[]> = {
  readonly [K in keyof T]: WithHistory<T[K]>;
};

/** Maps each tool of a by-name record through {@link WithHistory}. @public */
export type ToolsByNameWithHistory<T> = { readonly [K in keyof T]: WithHistory<T[K]> };

/** The six planning tools, by name. @public */
export interface PlanningToolsByName {
  readonly planning_setup_plan: Tool<SetupPlan, SetupPlan, SetupPlanInput>;
  readonly planning_add_step: Tool<AddStep, AddStep, AddStepInput>;
  readonly planning_update_step: Tool<UpdateStep, UpdateStep, UpdateStepInput>;
  readonly planning_mark_step: Tool<MarkStep, MarkStep, MarkStepInput>;
  readonly planning_clear_plan: Tool<ClearPlan, ClearPlan>;
  readonly planning_read_plan: Tool<ReadPlan, Plan>;
}

/** The six planning tools with the `dependencies` option on, by name. @public */
export interface DependentPlanningToolsByName {
  readonly planning_setup_plan: Tool<
    SetupPlanWithDependencies,
    SetupPlanWithDependencies,
    SetupPlanWithDependenciesInput
  >;
  readonly planning_add_step: Tool<
    AddStepWithDependencies,
    AddStepWithDependencies,
    AddStepWithDependenciesInput
  >;
  readonly planning_update_step: Tool<
    UpdateStepWithDependencies,
    UpdateStepWithDependencies,
    UpdateStepWithDependenciesInput
  >;
  readonly planning_mark_step: Tool<MarkStep, MarkStep, MarkStepInput>;
  readonly planning_clear_plan: Tool<ClearPlan, ClearPlan>;
  readonly planning_read_plan: Tool<ReadPlan, Plan>;
}

/** The tool the `batch` option adds, by name. @public */
export interface BatchToolByName {
  readonly planning_apply_batch: PlanBatchTool;
}

/** The tools the `owners` option adds, by name. @public */
export interface OwnerToolsByName {
  readonly planning_claim_step: ClaimStepTool;
  readonly planning_release_step: ReleaseStepTool;
}

/** The tools for options `O` by name, before the `history` option wraps them. @public */
export type PlanningToolsByNameWithoutHistory<O extends PlanningToolsOptions> = (O extends {
  readonly dependencies: true | DependencyOptions;
}
  ? DependentPlanningToolsByName
  : PlanningToolsByName) &
  (O extends { readonly batch: true } ? BatchToolByName : unknown) &
  (O extends { readonly owners: true } ? OwnerToolsByName : unknown);

/**
 * The tools {@link createPlanningTools} returns for options `O`, by name: the six
 * (dependency-aware with `dependencies`), `planning_apply_batch` with `batch: true`,
 * `planning_claim_step` and `planning_release_step` with `owners: true`; with `history: true`
 * every mutating one takes an `explanation` and dispatches a {@link PlanChange}.
 *
 * @public
 */
export type PlanningToolsByNameFor<O extends PlanningToolsOptions> = O extends {
  readonly history: true;
}
  ? ToolsByNameWithHistory<PlanningToolsByNameWithoutHistory<O>>
  : PlanningToolsByNameWithoutHistory<O>;

/** The six tools with the `dependencies` option on, in the reference order. @public */
export type DependentPlanningTools = readonly [
  Tool<SetupPlanWithDependencies, SetupPlanWithDependencies, SetupPlanWithDependenciesInput>,
  Tool<AddStepWithDependencies, AddStepWithDependencies, AddStepWithDependenciesInput>,
  Tool<UpdateStepWithDependencies, UpdateStepWithDependencies, UpdateStepWithDependenciesInput>,
  Tool<MarkStep, MarkStep, MarkStepInput>,
  Tool<ClearPlan, ClearPlan>,
  Tool<ReadPlan, Plan>,
];

/** The `planning_apply_batch` tool. @public */
export type PlanBatchTool = Tool<PlanBatchInput, PlanBatch, PlanBatchInput>;

/** The tools for options `O` in order, before the `history` option wraps them. @public */
export type PlanningToolsWithoutHistory<O extends PlanningToolsOptions> = readonly [
  ...(O extends { readonly dependencies: true | DependencyOptions }
    ? DependentPlanningTools
    : PlanningToolList),
  ...(O extends { readonly batch: true } ? [PlanBatchTool] : []),
  ...(O extends { readonly owners: true } ? [ClaimStepTool, ReleaseStepTool] : []),
];

/**
 * The tools {@link createPlanningTools} returns for options `O`: a frozen array in a stable
 * order for hosts (the six, then `planning_apply_batch`, then `planning_claim_step` and
 * `planning_release_step`) that also holds each tool under its name
 * ({@link PlanningToolsByNameFor}). Use the names: the positions depend on the options, and
 * reading tools by position is deprecated (it keeps working for one release).
 *
 * @public
 */
export type PlanningToolsFor<O extends PlanningToolsOptions> = (O extends {
  readonly history: true;
}
  ? ToolsWithHistory<PlanningToolsWithoutHistory<O>>
  : PlanningToolsWithoutHistory<O>) &
  PlanningToolsByNameFor<O>;

/** The six planning tools, in the reference order. @public */
export type PlanningToolList = readonly [
  Tool<SetupPlan, SetupPlan, SetupPlanInput>,
  Tool<AddStep, AddStep, AddStepInput>,
  Tool<UpdateStep, UpdateStep, UpdateStepInput>,
  Tool<MarkStep, MarkStep, MarkStepInput>,
  Tool<ClearPlan, ClearPlan>,
  Tool<ReadPlan, Plan>,
];

/**
 * The six planning tools, in the reference order and by name: what
 * {@link createPlanningTools} returns with every option off.
 *
 * @public
 */
export type PlanningTools = PlanningToolList & PlanningToolsByName;

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function normaliseSteps(steps: readonly NewPlanStep[], field: string): NewPlanStep[] {
  return steps.map((step, i) => ({
    title: requiredText(step.title, `${field}[${i}].title`, 'Title', PLANNING_LIMITS.title),
    details: optionalText(
      step.details,
      `${field}[${i}].details`,
      'Details',
      PLANNING_LIMITS.details,
    ),
  }));
}

const registered = new WeakSet<Session>();
const OPTION_KEYS: ReadonlySet<string> = new Set([
  'inProgress',
  'acceptsOverrides',
  'dependencies',
  'batch',
  'history',
  'owners',
  'agent',
]);
const recorded = new WeakSet<Session>();

function historySession(session: Session): Session {
  planningSession(session);
  if (!recorded.has(session)) {
    registerPlanHistory(session);
    recorded.add(session);
  }
  return session;
}

// Handlers run against the session they are invoked with; make sure it reduces plans too.
function planningSession(session: Session): Session {
  if (!registered.has(session)) {
    registerPlanModelReducers(session);
    registered.add(session);
  }
  return session;
}

/**
 * Creates the six planning tools (`planning_setup_plan`, `planning_add_step`,
 * `planning_update_step`, `planning_mark_step`, `planning_clear_plan`, `planning_read_plan`)
 * and registers the planning reducers on `session` (idempotently). Options add, in this order,
 * `planning_apply_batch` (`batch`), then `planning_claim_step` and `planning_release_step`
 * (`owners`, with `agent`); `history` gives every mutating tool an `explanation` and records
 * each change for `planHistory`. With every option off, the tools are the reference ones.
 * The result is a frozen array in that order (what hosts iterate) that also holds each tool
 * under its name: `tools.planning_mark_step`.
 *
 * @example
 * ```ts
 * const tools = createPlanningTools(session, { inProgress: 'single' });
 * await invokeTool(
 *   tools.planning_setup_plan,
 *   { objective: 'ship v2', initial_steps: [{ title: 'draft' }] },
 *   { session },
 * );
 * ```
 * @example
 * ```ts
 * // One agent of a shared plan: claims as 'worker-1', explains its changes.
 * const tools = createPlanningTools(session, { owners: true, history: true, agent: 'worker-1' });
 * await invokeTool(
 *   tools.planning_claim_step,
 *   { step_id: 'S002', explanation: 'I know the parser.' },
 *   { session },
 * );
 * ```
 * @throws PlankitError `argument_invalid` for a missing session or unknown options
 * @public
 */
export function createPlanningTools<O extends PlanningToolsOptions = Record<never, never>>(
  session: Session,
  options: O = {} as O,
): PlanningToolsFor<O> {
  if (!(session instanceof Session))
    throw invalidArgument('createPlanningTools', 'session', 'must be a Session');
  if (typeof options !== 'object' || options === null) {
    throw invalidArgument('createPlanningTools', 'options', 'must be an object');
  }
  checkOptionKeys('createPlanningTools', options, OPTION_KEYS);
  const mode = options.inProgress ?? 'any';
  if (!(IN_PROGRESS_MODES as readonly string[]).includes(mode)) {
    throw invalidArgument(
      'createPlanningTools',
      'options.inProgress',
      'must be one of any, single',
    );
  }
  const acceptsOverrides = options.acceptsOverrides ?? false;
  if (typeof acceptsOverrides !== 'boolean') {
    throw invalidArgument('createPlanningTools', 'options.acceptsOverrides', 'must be a boolean');
  }
  const singleRule = inProgressRule(mode);
  const dependencies = resolveDependencies(options.dependencies);
  const batch = options.batch ?? false;
  if (typeof batch !== 'boolean')
    throw invalidArgument('createPlanningTools', 'options.batch', 'must be a boolean');
  const history = options.history ?? false;
  if (typeof history !== 'boolean')
    throw invalidArgument('createPlanningTools', 'options.history', 'must be a boolean');
  const owners = options.owners ?? false;
  if (typeof owners !== 'boolean')
    throw invalidArgument('createPlanningTools', 'options.owners', 'must be a boolean');
  const agent = options.agent ?? null;
  if (agent !== null && agentIdProblem(agent) !== undefined)
    throw invalidArgument('createPlanningTools', 'options.agent', AGENT_ID_RULE);
  if (owners && agent === null) {
    throw invalidArgument(
      'createPlanningTools',
      'options.agent',
      'must be given with owners: the id the tools claim steps as',
    );
  }
  if (history) historySession(session);
  else planningSession(session);

  const setup = defineTool({
    name: 'planning_setup_plan',
    description: 'Create or replace the session plan.',
    parameters: SetupPlan,
    resultType: SetupPlan,
    acceptsOverrides,
    traits: PLANNING_TOOL_TRAITS.setup,
    handler: (params, { session }) => {
      // Register on the session the call runs on, so the plan lands there.
      planningSession(session);
      const objective = requiredText(
        params.objective,
        'objective',
        'Objective',
        PLANNING_LIMITS.objective,
      );
      const initial_steps = normaliseSteps(params.initial_steps, 'initial_steps');
      return {
        message: `Plan initialised with ${plural(initial_steps.length, 'step')}.`,
        value: trustedValue(SetupPlan, { objective, initial_steps }),
      };
    },
  });

  const add = defineTool({
    name: 'planning_add_step',
    description: 'Append one or more steps to the active plan.',
    parameters: AddStep,
    resultType: AddStep,
    acceptsOverrides,
    traits: PLANNING_TOOL_TRAITS.add,
    handler: (params, { session }) => {
      const plan = requirePlan(planningSession(session));
      ensureActive(plan, 'add steps to');
      const steps = normaliseSteps(params.steps, 'steps');
      if (steps.length === 0)
        throw new ToolValidationError('Provide at least one step to add.', {
          code: 'steps_empty',
          field: 'steps',
        });
      let highest = 0;
      for (let i = 0; i < plan.steps.length; i++)
        highest = Math.max(highest, suffixNumber((plan.steps[i] as PlanStep).step_id));
      ensureIdRoom(highest, steps.length);
      return {
        message: `Queued ${plural(steps.length, 'step')} for addition.`,
        value: trustedValue(AddStep, { steps }),
      };
    },
  });

  const updateTool = defineTool({
    name: 'planning_update_step',
    description: 'Edit the title or details for an existing step.',
    parameters: UpdateStep,
    resultType: UpdateStep,
    acceptsOverrides,
    traits: PLANNING_TOOL_TRAITS.update,
    handler: (params, { session }) => {
      const plan = requirePlan(planningSession(session));
      ensureActive(plan, 'update steps in');
      const step_id = stepIdText(params.step_id);
      const title =
        params.title === null
          ? null
          : requiredText(params.title, 'title', 'Title', PLANNING_LIMITS.title);
      const details = optionalText(params.details, 'details', 'Details', PLANNING_LIMITS.details);
      if (title === null && details === null) {
        throw new ToolValidationError('Provide a new title or details to update a step.', {
          code: 'update_empty',
        });
      }
      const value = withStepHint({ step_id, title, details }, plan, stepIndex(plan, step_id));
      return { message: `Step ${step_id} update queued.`, value: trustedValue(UpdateStep, value) };
    },
  });

  const mark = defineTool({
    name: 'planning_mark_step',
    description: 'Update step status and optionally record a note.',
    parameters: MarkStep,
    resultType: MarkStep,
    acceptsOverrides,
    traits: PLANNING_TOOL_TRAITS.mark,
    handler: (params, { session }) => {
      const plan = requirePlan(planningSession(session));
      ensureMarkable(plan);
      const step_id = stepIdText(params.step_id);
      // Searched in an unfrozen copy (faster on Node 20), which the reducer then takes over.
      const steps = [...plan.steps];
      const index = stepIndexIn(steps, step_id);
      const holder = (steps[index] as PlanStep).owner;
      if (owners && holder !== undefined && holder !== agent)
        throw heldByOther(step_id, holder, `only ${holder} can mark it`);
      const status = ensureStatus(params.status);
      const note = optionalText(params.note, 'note', 'Note', PLANNING_LIMITS.note, true);
      if (singleRule !== null && status === 'in_progress') {
        const other = steps.find(
          (step) => step.status === 'in_progress' && step.step_id !== step_id,
        );
        if (other !== undefined) {
          throw new ToolValidationError(
            `${singleRule} Step ${other.step_id} is already in_progress; mark it done, blocked or pending first.`,
            { code: 'step_in_progress', field: 'status' },
          );
        }
      }
      const warning =
        dependencies === null
          ? null
          : openDependencyRule(plan, index, status, dependencies.onOpenDependency);
      const message = `Step ${step_id} marked as ${status}.`;
      return {
        message: warning === null ? message : `${message} ${warning}`,
        value: trustedValue(MarkStep, withStepHint({ step_id, status, note }, plan, index, steps)),
      };
    },
  });

  const clear = defineTool({
    name: 'planning_clear_plan',
    description: 'Mark the current plan as abandoned.',
    parameters: ClearPlan,
    resultType: ClearPlan,
    acceptsOverrides,
    traits: PLANNING_TOOL_TRAITS.clear,
    handler: (_params, { session }): { message: string; value: ClearPlan } => {
      ensureClearable(requirePlan(planningSession(session)));
      return { message: 'Plan marked as abandoned.', value: trustedValue(ClearPlan, {}) };
    },
  });

  const read = defineTool({
    name: 'planning_read_plan',
    description: 'Return the latest plan snapshot.',
    parameters: ReadPlan,
    acceptsOverrides,
    traits: PLANNING_TOOL_TRAITS.read,
    handler: (_params, { session }): { message: string; value: Plan } => {
      const plan = requirePlan(planningSession(session));
      const message =
        plan.steps.length === 0
          ? 'Retrieved the current plan (no steps recorded).'
          : `Retrieved the current plan with ${plural(plan.steps.length, 'step')}.`;
      return { message, value: plan };
    },
  });

  const context = { acceptsOverrides, prepare: planningSession, normaliseSteps };
  const six =
    dependencies === null
      ? [setup, add, updateTool, mark, clear, read]
      : (() => {
          const tools = createDependencyTools(context);
          return [tools.setup, tools.add, tools.update, mark, clear, tools.read];
        })();
  const all: AnyTool[] = batch
    ? [
        ...six,
        createBatchTool({ ...context, singleRule, dependencies, owner: owners ? agent : null }),
      ]
    : [...six];
  if (owners) {
    const tools = createOwnerTools({ ...context, agent: agent as string });
    all.push(tools.claim, tools.release);
  }
  const done = history
    ? all.map((tool) =>
        tool.resultType === null
          ? tool
          : withHistory(tool, { acceptsOverrides, prepare: historySession, agent }),
      )
    : all;
  return withToolNames(done) as unknown as PlanningToolsFor<O>;
}
