import { type AnyTool, defineTool, type Tool } from '../define-tool.ts';
import { checkOptionKeys } from '../internal/check-option-keys.ts';
import { invalidArgument } from '../internal/invalid-argument.ts';
import { checkMovedFlags } from '../internal/moved-flags.ts';
import { plural } from '../internal/plural.ts';
import { trustedValue } from '../internal/trusted-value.ts';
import { Session } from '../session.ts';
import { ToolValidationError } from '../tool-validation-error.ts';
import type { ToolsByNameWithHistory } from './history/with-history.ts';
import { IN_PROGRESS_MODES, type InProgressMode, inProgressRule } from './in-progress-rule.ts';
import type { Plan, PlanStep, StepStatus } from './plan.ts';
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
  type AddStep,
  type AddStepInput,
  ClearPlan,
  type MarkStep,
  type MarkStepInput,
  type NewPlanStep,
  planningCommandTypes,
  ReadPlan,
  type SetupPlan,
  type SetupPlanInput,
  type UpdateStep,
  type UpdateStepInput,
} from './plan-commands.ts';
import type {
  AnyExtensionDeclares,
  PlanningExtension,
  PlanningToolsContext,
} from './planning-extension.ts';
import { ensureIdRoom } from './planning-reducers.ts';
import { PLANNING_TOOL_TRAITS } from './planning-tool-traits.ts';
import {
  agreedSettings,
  checkExtensions,
  registerPlanningExtensions,
} from './register-planning-extensions.ts';
import { suffixNumber } from './step-id.ts';
import { checkTextMode, type TextMode } from './text-mode.ts';
import { optionalText, PLANNING_LIMITS, requiredText, stepIdText } from './text-rules.ts';
import { withToolNames } from './with-tool-names.ts';

/** Options of {@link createPlanningTools}. @public */
export interface PlanningToolsOptions<
  E extends readonly PlanningExtension[] = readonly PlanningExtension[],
> {
  /** `'single'` refuses a second `in_progress` step; `'any'` (the default) allows it. */
  readonly inProgress?: InProgressMode | undefined;
  /**
   * Which text the tools accept in objectives, titles, details and notes: `'ascii'` (the
   * default, the reference's printable ASCII) or `'unicode'` (any language, normalised to NFC;
   * controls, bidirectional controls and invisible characters refused). Step ids stay ASCII.
   * The tools' parameters and result types describe text by the mode's rule. Give the prompt
   * (`PlanningToolsSection`) the same mode.
   */
  readonly text?: TextMode | undefined;
  /** Marks every tool as accepting description overrides; `false` by default. */
  readonly acceptsOverrides?: boolean | undefined;
  /**
   * Parts of the plan model to add, from `@plankit/core/plan-model`: `dependencies()`,
   * `batch()`, `history()`, `owners({ agent })`, or your own {@link PlanningExtension}s. None
   * by default: the reference tools.
   */
  readonly extensions?: E | undefined;
}

/** The six planning tools, by name. @public */
export interface PlanningToolsByName {
  readonly planning_setup_plan: Tool<SetupPlan, SetupPlan, SetupPlanInput>;
  readonly planning_add_step: Tool<AddStep, AddStep, AddStepInput>;
  readonly planning_update_step: Tool<UpdateStep, UpdateStep, UpdateStepInput>;
  readonly planning_mark_step: Tool<MarkStep, MarkStep, MarkStepInput>;
  readonly planning_clear_plan: Tool<ClearPlan, ClearPlan>;
  readonly planning_read_plan: Tool<ReadPlan, Plan>;
}

/** The tools one extension declares it adds or replaces (its `types.tools`), by name. */
type DeclaredTools<X> =
  X extends PlanningExtension<string, infer T>
    ? T extends { readonly tools: infer Tools extends object }
      ? Tools
      : unknown
    : unknown;

/** `tools` with `declared` added, or put in place of the tools of the same names. */
type Merged<Tools, Declared> = [keyof Tools & keyof Declared] extends [never]
  ? Tools & Declared
  : [keyof Tools] extends [keyof Declared]
    ? Declared
    : Omit<Tools, keyof Declared> & Declared;

/** `tools`, with those `extensions` declare added or put in place of the same names. */
type WithDeclaredTools<E extends readonly unknown[], Tools> = E extends readonly [
  infer First,
  ...infer Rest,
]
  ? WithDeclaredTools<Rest, Merged<Tools, DeclaredTools<First>>>
  : Tools;

/**
 * The tools for the extensions `E`, by name: the six, then what each extension declares in
 * its `types` (in the order listed: an extension's tool takes the place of an earlier one of
 * the same name), every tool that changes the plan taking an `explanation` when one declares
 * `explained`. A list whose extensions are not known one by one (not a tuple) gives the six.
 *
 * @public
 */
export type PlanningToolsByNameFor<E extends readonly PlanningExtension[]> =
  number extends E['length']
    ? PlanningToolsByName
    : AnyExtensionDeclares<E, 'explained'> extends true
      ? ToolsByNameWithHistory<WithDeclaredTools<E, PlanningToolsByName>>
      : WithDeclaredTools<E, PlanningToolsByName>;

/**
 * What {@link createPlanningTools} returns: a frozen array of the tools in a stable order for
 * hosts to iterate (the six, then each extension's tools in the order the extensions are
 * listed) that also holds each tool under its name, typed by `T`.
 *
 * @public
 */
export type PlanningToolset<T> = readonly AnyTool[] & T;

/** The tools {@link createPlanningTools} returns for the extensions `E`. @public */
export type PlanningToolsFor<E extends readonly PlanningExtension[]> = PlanningToolset<
  PlanningToolsByNameFor<E>
>;

/** The six reference planning tools: what {@link createPlanningTools} returns by default. @public */
export type PlanningTools = PlanningToolset<PlanningToolsByName>;

function normaliseSteps(
  steps: readonly NewPlanStep[],
  field: string,
  text: TextMode,
): NewPlanStep[] {
  return steps.map((step, i) => ({
    title: requiredText(step.title, `${field}[${i}].title`, 'Title', PLANNING_LIMITS.title, text),
    details: optionalText(
      step.details,
      `${field}[${i}].details`,
      'Details',
      PLANNING_LIMITS.details,
      text,
    ),
  }));
}

const OPTION_KEYS: ReadonlySet<string> = new Set([
  'inProgress',
  'text',
  'acceptsOverrides',
  'extensions',
]);

function checkOptions(options: object): void {
  checkMovedFlags('createPlanningTools', options);
  checkOptionKeys('createPlanningTools', options, OPTION_KEYS);
}

/**
 * Creates the six planning tools (`planning_setup_plan`, `planning_add_step`,
 * `planning_update_step`, `planning_mark_step`, `planning_clear_plan`, `planning_read_plan`)
 * and registers the planning reducers on `session` (idempotently). Without extensions, the
 * tools are the reference ones. Extensions from `@plankit/core/plan-model` add the rest of
 * the plan model: `dependencies()`, `batch()` (`planning_apply_batch`), `owners({ agent })`
 * (`planning_claim_step`, `planning_release_step`) and `history()` (an `explanation` on every
 * change, recorded for `planHistory`). The result is a frozen array (what hosts iterate: the
 * six, then each extension's tools in the order listed) that also holds each tool under its
 * name: `tools.planning_mark_step`.
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
 * import { history, owners } from '@plankit/core/plan-model';
 *
 * // One agent of a shared plan: claims as 'worker-1', explains its changes.
 * const tools = createPlanningTools(session, {
 *   extensions: [owners({ agent: 'worker-1' }), history()],
 * });
 * await invokeTool(
 *   tools.planning_claim_step,
 *   { step_id: 'S002', explanation: 'I know the parser.' },
 *   { session },
 * );
 * ```
 * @throws PlankitError `argument_invalid` for a missing session, unknown options, the flags
 *   that became extensions, or extensions that repeat or disagree on a setting (the agent)
 * @public
 */
export function createPlanningTools<const E extends readonly PlanningExtension[] = readonly []>(
  session: Session,
  options: PlanningToolsOptions<E> = {},
): PlanningToolsFor<E> {
  if (!(session instanceof Session))
    throw invalidArgument('createPlanningTools', 'session', 'must be a Session');
  if (typeof options !== 'object' || options === null) {
    throw invalidArgument('createPlanningTools', 'options', 'must be an object');
  }
  checkOptions(options);
  const mode = options.inProgress ?? 'any';
  if (!(IN_PROGRESS_MODES as readonly string[]).includes(mode)) {
    throw invalidArgument(
      'createPlanningTools',
      'options.inProgress',
      'must be one of any, single',
    );
  }
  const text = checkTextMode(options.text ?? 'ascii', 'createPlanningTools', 'options.text');
  // Each tool's parameters and result type, described by the mode's text rule.
  const types = planningCommandTypes(text);
  const acceptsOverrides = options.acceptsOverrides ?? false;
  if (typeof acceptsOverrides !== 'boolean') {
    throw invalidArgument('createPlanningTools', 'options.acceptsOverrides', 'must be a boolean');
  }
  const extensions = checkExtensions(
    'createPlanningTools',
    'options.extensions',
    options.extensions,
  );
  const singleRule = inProgressRule(mode);
  const settings = agreedSettings(extensions);
  const commands = extensions.flatMap((e) => e.commands ?? []);
  const targetChecks = extensions.flatMap((e) =>
    e.checkMarkTarget === undefined ? [] : [e.checkMarkTarget],
  );
  const markChecks = extensions.flatMap((e) => (e.checkMark === undefined ? [] : [e.checkMark]));
  const checkMarkTarget = (step: PlanStep): void => {
    for (const check of targetChecks) check(step);
  };
  const checkMark = (plan: Plan, index: number, status: StepStatus): string | null => {
    let warnings: string | null = null;
    for (const check of markChecks) {
      const warning = check(plan, index, status);
      if (warning !== null) warnings = warnings === null ? warning : `${warnings} ${warning}`;
    }
    return warnings;
  };
  const prepared = new WeakSet<Session>();
  // Handlers run against the session they are invoked with; make sure it reduces plans too.
  const planningSession = (target: Session): Session => {
    if (!prepared.has(target)) {
      registerPlanningExtensions(target, extensions);
      prepared.add(target);
    }
    return target;
  };
  planningSession(session);

  const setup = defineTool({
    name: 'planning_setup_plan',
    description: 'Create or replace the session plan.',
    parameters: types.setup,
    resultType: types.setup,
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
        text,
      );
      const initial_steps = normaliseSteps(params.initial_steps, 'initial_steps', text);
      return {
        message: `Plan initialised with ${plural(initial_steps.length, 'step')}.`,
        value: trustedValue(types.setup, { objective, initial_steps }),
      };
    },
  });

  const add = defineTool({
    name: 'planning_add_step',
    description: 'Append one or more steps to the active plan.',
    parameters: types.add,
    resultType: types.add,
    acceptsOverrides,
    traits: PLANNING_TOOL_TRAITS.add,
    handler: (params, { session }) => {
      const plan = requirePlan(planningSession(session));
      ensureActive(plan, 'add steps to');
      const steps = normaliseSteps(params.steps, 'steps', text);
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
        value: trustedValue(types.add, { steps }),
      };
    },
  });

  const updateTool = defineTool({
    name: 'planning_update_step',
    description: 'Edit the title or details for an existing step.',
    parameters: types.update,
    resultType: types.update,
    acceptsOverrides,
    traits: PLANNING_TOOL_TRAITS.update,
    handler: (params, { session }) => {
      const plan = requirePlan(planningSession(session));
      ensureActive(plan, 'update steps in');
      const step_id = stepIdText(params.step_id);
      const title =
        params.title === null
          ? null
          : requiredText(params.title, 'title', 'Title', PLANNING_LIMITS.title, text);
      const details = optionalText(
        params.details,
        'details',
        'Details',
        PLANNING_LIMITS.details,
        text,
      );
      if (title === null && details === null) {
        throw new ToolValidationError('Provide a new title or details to update a step.', {
          code: 'update_empty',
        });
      }
      const value = withStepHint({ step_id, title, details }, plan, stepIndex(plan, step_id));
      return {
        message: `Step ${step_id} update queued.`,
        value: trustedValue(types.update, value),
      };
    },
  });

  const mark = defineTool({
    name: 'planning_mark_step',
    description: 'Update step status and optionally record a note.',
    parameters: types.mark,
    resultType: types.mark,
    acceptsOverrides,
    traits: PLANNING_TOOL_TRAITS.mark,
    handler: (params, { session }) => {
      const plan = requirePlan(planningSession(session));
      ensureMarkable(plan);
      const step_id = stepIdText(params.step_id);
      // Searched in an unfrozen copy (faster on Node 20), which the reducer then takes over.
      const steps = [...plan.steps];
      const index = stepIndexIn(steps, step_id);
      checkMarkTarget(steps[index] as PlanStep);
      const status = ensureStatus(params.status);
      const note = optionalText(params.note, 'note', 'Note', PLANNING_LIMITS.note, text, true);
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
      const warnings = checkMark(plan, index, status);
      return {
        message: `Step ${step_id} marked as ${status}.${warnings === null ? '' : ` ${warnings}`}`,
        value: trustedValue(
          types.mark,
          withStepHint({ step_id, status, note }, plan, index, steps),
        ),
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

  const context: PlanningToolsContext = Object.freeze({
    acceptsOverrides,
    prepare: planningSession,
    text,
    normaliseSteps: (steps: readonly NewPlanStep[], field: string) =>
      normaliseSteps(steps, field, text),
    singleRule,
    settings,
    commands: Object.freeze(commands),
    checkMarkTarget,
    checkMark,
  });
  const tools: AnyTool[] = [setup, add, updateTool, mark, clear, read];
  for (const extension of extensions) {
    const own = extension.tools?.(context);
    for (const tool of own?.replace ?? []) {
      const at = tools.findIndex((t) => t.name === tool.name);
      if (at === -1 || at >= 6) {
        throw invalidArgument(
          'createPlanningTools',
          `options.extensions (${extension.name})`,
          `replaces ${tool.name}, which is not a planning tool`,
        );
      }
      tools[at] = tool;
    }
    for (const tool of own?.add ?? []) {
      if (tools.some((t) => t.name === tool.name)) {
        throw invalidArgument(
          'createPlanningTools',
          `options.extensions (${extension.name})`,
          `adds ${tool.name}, which another tool already is`,
        );
      }
      tools.push(tool);
    }
  }
  for (const extension of extensions) {
    const wrap = extension.wrap;
    if (wrap === undefined) continue;
    for (let i = 0; i < tools.length; i++) tools[i] = wrap(tools[i] as AnyTool, context);
  }
  return withToolNames(tools) as unknown as PlanningToolsFor<E>;
}
