import {
  AddStep,
  type AddStepInput,
  type AnyTool,
  type CheckPlanOptions,
  ClearPlan,
  checkPlan,
  type DataType,
  dataTypeName,
  MarkStep,
  type MarkStepInput,
  Plan,
  PlankitError,
  type PlanningExtension,
  Session,
  SetupPlan,
  type SetupPlanInput,
  selectLatest,
  UpdateStep,
  type UpdateStepInput,
} from '@plankit/core';
import {
  clipText,
  isRecord,
  unknownOption,
  withoutPlanChanges,
} from '@plankit/core/internal-unstable';
import { registerPlanningExtensions } from '@plankit/core/plan-model';

/**
 * One change to the plan in a LangGraph `plan` channel, named after the planning tool that
 * makes it. The planning tools of {@link planningMiddleware} write these; `graph.updateState`
 * takes them too. Each is applied by plankit's planning reducers.
 *
 * @public
 */
export type PlanEdit =
  | { readonly op: 'setup_plan'; readonly value: SetupPlanInput }
  | { readonly op: 'add_step'; readonly value: AddStepInput }
  | { readonly op: 'update_step'; readonly value: UpdateStepInput }
  | { readonly op: 'mark_step'; readonly value: MarkStepInput }
  | { readonly op: 'clear_plan'; readonly value?: ClearPlan | undefined }
  | {
      readonly op: 'command';
      /**
       * A command one of the channel's extensions declares (`batch()`'s `plankit.PlanBatch`,
       * `owners()`'s claims and releases, `history()`'s `plankit.PlanChange`, an app's own),
       * by its data type name, with its value. Without extensions there is none.
       */
      readonly value: { readonly type: string; readonly value: unknown };
    };

/** The kinds of {@link PlanEdit}, by `op`. @public */
export type PlanEditOp = PlanEdit['op'];

/**
 * Codes of {@link PlanEditError}: `plan_edit_invalid` (not a {@link PlanEdit}: an unknown `op`,
 * extra keys, a value that is not an object) and `plan_edit_refused` (the planning reducers
 * refused it: no plan, an unknown step, a finished plan, text no store can hold).
 *
 * @public
 */
export type PlanEditErrorCode = 'plan_edit_invalid' | 'plan_edit_refused';

/**
 * A plan edit that was not applied. The `plan` channel's reducer throws it, so LangGraph
 * refuses the whole update (`updateState` rejects; nothing changes).
 *
 * @public
 */
export class PlanEditError extends PlankitError<PlanEditErrorCode> {
  /** The name every instance takes, kept as a literal so minified bundles keep it. */
  static override readonly errorName: string = 'PlanEditError';

  /** True for a {@link PlanEditError}, from this copy of the package or another one. */
  static override isInstance(value: unknown): value is PlanEditError {
    return PlankitError.hasBrand(value, PlanEditError.errorName);
  }
}

const COMMANDS: Readonly<Record<Exclude<PlanEditOp, 'command'>, DataType>> = {
  setup_plan: SetupPlan,
  add_step: AddStep,
  update_step: UpdateStep,
  mark_step: MarkStep,
  clear_plan: ClearPlan,
};

/**
 * Options of {@link planChannel}, {@link reducePlan} and {@link applyPlanEdit}: the tools'
 * `inProgress` rule and `text` mode (`checkPlan`'s options), and the extensions whose commands
 * `command` edits may carry.
 *
 * @public
 */
export interface PlanChannelOptions extends CheckPlanOptions {
  /** Extensions whose declared commands the channel takes (and no others); none by default. */
  readonly extensions?: readonly PlanningExtension[] | undefined;
}

const NO_EXTENSIONS: readonly PlanningExtension[] = Object.freeze([]);

const NO_COMMANDS: ReadonlyMap<string, DataType> = new Map();

// Built once per list of extensions: the channel's reducer runs for every edit.
const commandTypes = new WeakMap<readonly PlanningExtension[], ReadonlyMap<string, DataType>>();

/** The commands a `command` edit may carry with `extensions`, by data type name: theirs only. */
function commandTypesOf(extensions: readonly PlanningExtension[]): ReadonlyMap<string, DataType> {
  if (extensions.length === 0) return NO_COMMANDS;
  let types = commandTypes.get(extensions);
  if (types === undefined) {
    const all = new Map<string, DataType>();
    for (const extension of extensions)
      for (const command of extension.commands ?? [])
        all.set(dataTypeName(command.dataType), command.dataType);
    types = all;
    commandTypes.set(extensions, types);
  }
  return types;
}

const COMMAND_EDIT_KEYS: ReadonlySet<string> = new Set(['type', 'value']);
const PLAN_EDIT_KEYS: ReadonlySet<string> = new Set(['op', 'value']);

/** The data type a `command` edit names, or why not. */
function commandOf(
  value: unknown,
  types: ReadonlyMap<string, DataType>,
): { type: DataType; value: unknown } {
  if (!isRecord(value)) throw invalid('a command edit takes { type, value }.', 'value');
  const extra = unknownOption(value, COMMAND_EDIT_KEYS);
  if (extra !== undefined)
    throw invalid(`${JSON.stringify(clipText(extra, 40))} is not a key of a command edit.`, extra);
  const { type, value: inner } = value as { type?: unknown; value?: unknown };
  const found = typeof type === 'string' ? types.get(type) : undefined;
  if (found === undefined)
    throw invalid(
      types.size === 0
        ? 'the channel takes no command edits: pass the extensions that declare the command in extensions.'
        : clipText(`type must be one of ${[...types.keys()].join(', ')}.`, 600),
      'value.type',
    );
  return { type: found, value: inner };
}

// The reference op of each reference command, found by the name of the tool's result type:
// the unicode-mode tools' result types are other schemas (their descriptions name the unicode
// rule) under the same names.
const OP_OF = new Map<string, Exclude<PlanEditOp, 'command'>>(
  (Object.entries(COMMANDS) as [Exclude<PlanEditOp, 'command'>, DataType][]).map(([op, type]) => [
    dataTypeName(type),
    op,
  ]),
);

/**
 * The {@link PlanEdit} a planning tool's successful result makes: its reference op when the
 * tool dispatches one of the six reference commands (unchanged wire form), a `command` edit
 * when it dispatches a command one of `extensions` declares, or undefined for a
 * tool that only reads.
 */
export function editOf(
  tool: AnyTool,
  value: unknown,
  extensions: readonly PlanningExtension[] = NO_EXTENSIONS,
): PlanEdit | undefined {
  const type: DataType | null = tool.resultType;
  if (type === null) return undefined;
  const name = dataTypeName(type);
  const op = OP_OF.get(name);
  if (op !== undefined) return { op, value } as PlanEdit;
  return commandTypesOf(extensions).has(name)
    ? { op: 'command', value: { type: name, value } }
    : undefined;
}

const invalid = (message: string, field: string): PlanEditError =>
  new PlanEditError('plan_edit_invalid', `Plan edit refused: ${message}`, { field });

function checkedEdit(edit: unknown): { op: PlanEditOp; value: unknown } {
  if (!isRecord(edit))
    throw invalid(
      'send an object { op, value } (op: setup_plan, add_step, update_step, mark_step, clear_plan).',
      'plan',
    );
  const extra = unknownOption(edit, PLAN_EDIT_KEYS);
  if (extra !== undefined)
    throw invalid(`${JSON.stringify(clipText(extra, 40))} is not a key of a plan edit.`, extra);
  const { op, value } = edit as { op?: unknown; value?: unknown };
  if (op === 'command') return { op, value };
  if (typeof op !== 'string' || !Object.hasOwn(COMMANDS, op))
    throw invalid(
      'op must be one of setup_plan, add_step, update_step, mark_step, clear_plan.',
      'op',
    );
  return { op: op as PlanEditOp, value: op === 'clear_plan' && value === undefined ? {} : value };
}

/**
 * Applies one {@link PlanEdit} to a plan with plankit's planning reducers, on a session that
 * lives for this call only: the plan is restored (checked against the `Plan` schema), the
 * edit dispatched (checked against its command's schema, then reduced). Pure: the same plan
 * and edit always give the same frozen result.
 *
 * @example
 * ```ts
 * const plan = applyPlanEdit(null, { op: 'setup_plan', value: { objective: 'Ship', initial_steps: [{ title: 'Build' }] } });
 * applyPlanEdit(plan, { op: 'mark_step', value: { step_id: 'S001', status: 'done' } }).status; // 'completed'
 * ```
 * @param plan - the current plan, or `null` when there is none
 * @param edit - the edit; anything else is refused
 * @param options - the tools' `inProgress` option: with `'single'`, an edit that leaves two
 *   steps `in_progress` is refused, as `planning_mark_step` refuses it; the tools' `text` mode
 *   (`'ascii'` by default: an edit that leaves text that is not ASCII is refused, as the tools
 *   refuse it; `'unicode'`: any language); and `extensions`, whose declared commands a
 *   `command` edit may carry
 * @returns the plan after the edit
 * @throws PlanEditError `plan_edit_invalid` or `plan_edit_refused` (the reducers' message)
 * @public
 */
export function applyPlanEdit(
  plan: Plan | null | undefined,
  edit: PlanEdit,
  options: PlanChannelOptions = {},
): Plan | null {
  const extensions = options.extensions ?? NO_EXTENSIONS;
  const { op, value } = checkedEdit(edit);
  const command =
    op === 'command' ? commandOf(value, commandTypesOf(extensions)) : { type: COMMANDS[op], value };
  const session = planSession(plan ?? null, extensions);
  try {
    // A computation on a scratch session, not a session's change: the tool call that made the
    // edit reported it.
    const applied = withoutPlanChanges(session, () =>
      session.dispatch(command.type, command.value, { now: 0 }),
    );
    if (!applied.ok)
      throw new PlanEditError('plan_edit_refused', `Plan edit refused: ${applied.error.message}`, {
        field:
          applied.error.field === undefined
            ? 'value'
            : `value.${op === 'command' ? 'value.' : ''}${applied.error.field}`,
        cause: applied.error,
      });
    return withinRules(selectLatest(session, Plan) ?? null, options);
  } finally {
    session.dispose();
  }
}

/**
 * `plan`, unless it breaks a rule the tools' options add (`inProgress: 'single'`, ASCII text
 * with `text: 'ascii'`, the default). The session the plan comes from already held it to the
 * plan model's rules (text the tools of either mode could have stored), so Unicode mode with
 * any number of steps in progress adds nothing to check.
 */
function withinRules(plan: Plan | null, options: CheckPlanOptions): Plan | null {
  const inProgress = options.inProgress ?? 'any';
  const text = options.text ?? 'ascii';
  if (plan === null || (inProgress === 'any' && text === 'unicode')) return plan;
  const checked = checkPlan(plan, { inProgress, text });
  if (checked.ok) return plan;
  throw new PlanEditError('plan_edit_refused', `Plan edit refused: ${checked.error.message}`, {
    field: checked.error.field ?? 'plan',
    cause: checked.error,
  });
}

/**
 * The `plan` channel's reducer: a {@link PlanEdit} (an object with `op`) is applied with
 * {@link applyPlanEdit}; a whole plan (or `null`) replaces the plan once the `Plan` schema
 * accepts it (`createAgent` sends the thread's current values back with every `invoke`, and
 * a caller may seed a plan that way). A value equal to the current one changes nothing, even
 * one the `Plan` schema refuses (a damaged checkpoint sent back by `createAgent`).
 *
 * @example
 * ```ts
 * const plan = reducePlan(null, { op: 'setup_plan', value: { objective: 'Ship' } });
 * reducePlan(plan, plan) === plan; // true
 * ```
 * @param current - the channel's plan, or `null`
 * @param update - a plan edit, a plan, or `null`
 * @param options - the tools' `inProgress` and `text` options, which edits and whole plans are
 *   held to, and the extensions whose commands `command` edits may carry
 * @returns the channel's next plan
 * @throws PlanEditError when the update is refused; the channel keeps its plan
 * @public
 */
export function reducePlan(
  current: Plan | null | undefined,
  update: PlanEdit | Plan | null | undefined,
  options: PlanChannelOptions = {},
): Plan | null {
  const plan = current ?? null;
  if (update === undefined || update === null) return update === null ? null : plan;
  // `createAgent` sends the current values back: a value equal to the channel's changes
  // nothing, even one a damaged checkpoint left there that no update could write.
  if (update === current || (plan !== null && JSON.stringify(plan) === JSON.stringify(update)))
    return plan;
  if (typeof update === 'object' && !Array.isArray(update) && 'op' in update)
    return applyPlanEdit(plan, update, options);
  if (typeof update !== 'object' || Array.isArray(update))
    throw invalid('send a plan edit { op, value } or a whole plan.', 'plan');
  const session = planSession(update as Plan);
  try {
    return withinRules(selectLatest(session, Plan) ?? null, options);
  } finally {
    session.dispose();
  }
}

/**
 * A session holding `plan`, the planning reducers and what `extensions` declare, for one turn
 * or one edit. A plan that breaks the `Plan` schema is
 * refused. When the extensions record the plan history, it is recorded from the start, so the
 * restored plan is its first revision and every later change diffs against it.
 */
export function planSession(
  plan: Plan | null,
  extensions: readonly PlanningExtension[] = NO_EXTENSIONS,
): Session {
  const session = new Session({ sessionId: 'langgraph-plan', clock: () => 0 });
  registerPlanningExtensions(session, extensions);
  if (plan !== null) {
    // Restoring the plan a host stored is not a change: tracing saw it when it was made.
    const restored = withoutPlanChanges(session, () => session.dispatch(Plan, plan, { now: 0 }));
    if (!restored.ok) {
      session.dispose();
      throw new PlanEditError(
        'plan_edit_refused',
        `Plan edit refused: not a plan: ${restored.error.message}`,
        { field: 'plan', cause: restored.error },
      );
    }
  }
  return session;
}
