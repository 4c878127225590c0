import * as z from 'zod';
import { dataTypeName, defineDataType } from '../../define-data-type.ts';
import { escapeControl } from '../../internal/refusal-text.ts';
import type { Reducer, ReducerEvent } from '../../reducer.ts';
import type { Session } from '../../session.ts';
import { Plan } from '../plan.ts';
import type { AnyPlanningCommand } from '../planning-extension.ts';
import { declaredCommandOf } from '../register-planning-extensions.ts';
import { stepIdProblem } from '../step-id.ts';
import { PLANNING_LIMITS, storedTextProblem } from '../text-rules.ts';
import { diffPlans, PlanDiff } from './diff-plans.ts';
import {
  Actor,
  applyDeclaredCommand,
  applyPlanCommand,
  Explanation,
  PLAN_COMMANDS,
  PlanChange,
} from './plan-change.ts';
import { renderPlanDiff } from './render-plan-diff.ts';

/**
 * How many revisions the plan history keeps: the newest 200. Older ones are dropped as new
 * ones arrive, so a plan change costs the same however long the session runs.
 *
 * @public
 */
export const MAX_PLAN_REVISIONS = 200;

/** One change of the plan, as the plan history records it. @public */
export interface PlanRevision {
  /** 1 for the first change recorded, then one more for each; never reused. */
  readonly revision: number;
  /** When, in epoch milliseconds (the commit's time). */
  readonly at: number;
  /** The data type that changed the plan, such as `plankit.MarkStep` (`plankit.Plan` for a whole plan dispatched by hand). */
  readonly command: string;
  /** Who: the agent that sent it (the tools' `agent` option), or `null` when not known. */
  readonly actor: string | null;
  /** Why: the caller's `explanation`, or `null`. */
  readonly explanation: string | null;
  /**
   * What: the plan before against the plan after, or `null` when the plan before is not
   * known (history turned on after the plan was set up).
   */
  readonly diff: PlanDiff | null;
  /**
   * The plan after this change, kept on the newest revision only (so the next change can be
   * diffed against it); `null` when not known.
   */
  readonly plan?: Plan | null | undefined;
}

// A data type name: letters, digits and `. _ : -`, so the header line it goes into stays one line.
const COMMAND_NAME = /^[A-Za-z][A-Za-z0-9._:-]{0,127}$/;

/**
 * The first string in `diff` the tools could not have stored (step ids in the tools' form,
 * text by the tools' text rules), or undefined. A diff is derived from two plans, so a
 * restored revision must hold what such a diff would. Linear in the size of the diff.
 */
function diffProblem(
  diff: PlanDiff,
): { readonly path: readonly (string | number)[]; readonly message: string } | undefined {
  // The path is built only on the way back from a problem: valid diffs allocate nothing.
  const path: (string | number)[] = [];
  const walk = (
    value: unknown,
    key: string | number,
    parent: string | number,
  ): string | undefined => {
    if (typeof value === 'string') {
      if (key === 'step_id' || parent === 'depends_on') {
        const rule = stepIdProblem(value);
        return rule === undefined ? undefined : `Step id ${rule}`;
      }
      const problem = storedTextProblem(value, PLANNING_LIMITS.details);
      return problem === undefined ? undefined : `Text ${problem.rule}`;
    }
    if (typeof value !== 'object' || value === null) return undefined;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const found = walk(value[i], i, key);
        if (found !== undefined) {
          path.unshift(i);
          return found;
        }
      }
      return undefined;
    }
    for (const name in value) {
      const found = walk((value as Record<string, unknown>)[name], name, key);
      if (found !== undefined) {
        path.unshift(name);
        return found;
      }
    }
    return undefined;
  };
  const message = walk(diff, '', '');
  return message === undefined ? undefined : { path, message };
}

/** Schema and data type of the plan history slice: `planHistory(session)` reads it. @public */
export const PlanRevision: z.ZodType<PlanRevision, PlanRevision> = defineDataType(
  'plankit.PlanRevision',
  z.strictObject({
    revision: z.number().int().min(1),
    at: z.number(),
    command: z
      .string()
      .regex(COMMAND_NAME, 'Command must be a data type name such as plankit.MarkStep'),
    actor: Actor,
    explanation: Explanation,
    diff: PlanDiff.nullable().superRefine((diff, context) => {
      const problem = diff === null ? undefined : diffProblem(diff);
      if (problem !== undefined)
        context.addIssue({ code: 'custom', path: [...problem.path], message: problem.message });
    }),
    plan: Plan.nullable().optional(),
  }),
);

interface Attribution {
  readonly command: string;
  readonly actor: string | null;
  readonly explanation: string | null;
}

/**
 * Appends the revision for one change: diffed against the plan the newest revision kept,
 * bounded to {@link MAX_PLAN_REVISIONS}. The plan reducer has already accepted the change on
 * the real plan; this one replays it on the kept copy, which equals it.
 */
function record(
  history: readonly PlanRevision[],
  at: number,
  attribution: Attribution,
  apply: (plans: readonly Plan[]) => readonly Plan[],
): readonly PlanRevision[] {
  const last = history[history.length - 1];
  // No revision yet: the history starts with no plan. A newest revision without a plan: unknown.
  const known = last === undefined || (last.plan !== undefined && last.plan !== null);
  const before = last?.plan ?? null;
  let after: Plan | null = null;
  try {
    after = apply(before === null ? [] : [before]).at(-1) ?? null;
  } catch {
    // The change needs a plan this history never saw: record it, without a diff.
  }
  // Frozen as built (the diff and the plan already are), so the commit's deepFreeze is O(1).
  const entry: PlanRevision = Object.freeze({
    revision: last === undefined ? 1 : last.revision + 1,
    at,
    ...attribution,
    diff: known && after !== null ? diffPlans(before, after) : null,
    plan: after,
  });
  const start = Math.max(0, history.length - MAX_PLAN_REVISIONS + 1);
  const next: PlanRevision[] = [];
  for (let i = start; i < history.length - 1; i++) next.push(history[i] as PlanRevision);
  if (last !== undefined) {
    const { plan: _kept, ...rest } = last;
    next.push(Object.freeze(rest));
  }
  next.push(entry);
  return next;
}

const commandReducers = new Map<string, Reducer<PlanRevision, unknown>>();
for (const name of PLAN_COMMANDS.keys()) {
  commandReducers.set(name, (history, event) =>
    record(history, event.at, { command: name, actor: null, explanation: null }, (plans) =>
      applyPlanCommand(name, plans, event),
    ),
  );
}

// One recording reducer per command an extension declares (by its object, so registering
// twice is a no-op): the change is recorded as the command's own reducer makes it.
const declaredReducers = new WeakMap<AnyPlanningCommand, Reducer<PlanRevision, unknown>>();
function declaredReducer(
  command: AnyPlanningCommand,
  name: string,
): Reducer<PlanRevision, unknown> {
  let reducer = declaredReducers.get(command);
  if (reducer === undefined) {
    reducer = (history, event) =>
      record(history, event.at, { command: name, actor: null, explanation: null }, (plans) =>
        command.reducer(plans, event),
      );
    declaredReducers.set(command, reducer);
  }
  return reducer;
}

// One per session, so registering it again is a no-op: a change carrying a command an
// extension declared is replayed with the reducer the session knows for it.
const changeReducers = new WeakMap<Session, Reducer<PlanRevision, PlanChange>>();
function changeReducer(session: Session): Reducer<PlanRevision, PlanChange> {
  let reducer = changeReducers.get(session);
  if (reducer === undefined) {
    reducer = (history, event) => {
      const { command, value, actor, explanation } = event.value;
      const inner: ReducerEvent<unknown> = { ...event, value };
      return record(history, event.at, { command, actor, explanation }, (plans) =>
        PLAN_COMMANDS.has(command)
          ? applyPlanCommand(command, plans, inner)
          : applyDeclaredCommand(declaredCommandOf(session, command), command, plans, inner),
      );
    };
    changeReducers.set(session, reducer);
  }
  return reducer;
}

const planReducer: Reducer<PlanRevision, Plan> = (history, event) =>
  record(history, event.at, { command: 'plankit.Plan', actor: null, explanation: null }, () => [
    event.value,
  ]);

/**
 * Records every change of the session's plan in the plan history slice (read it with
 * {@link planHistory}): each plan command, each {@link PlanChange} (with its actor and
 * explanation), each whole plan dispatched by hand, and each of `commands` (what other
 * extensions declare: `createPlanningTools` passes them). `createPlanningTools` calls it with
 * the `history()` extension; call it yourself on a session you replay commands into by hand,
 * before the plan is set up. Registering twice is a no-op.
 *
 * @param session - the session whose plan changes are recorded
 * @param commands - more commands that change the plan, as extensions declare them
 * @public
 */
export function registerPlanHistory(
  session: Session,
  commands: readonly AnyPlanningCommand[] = [],
): void {
  for (const [name, schema] of PLAN_COMMANDS) {
    session.register(schema, commandReducers.get(name) as Reducer<PlanRevision, unknown>, {
      slice: PlanRevision,
    });
  }
  for (const command of commands) {
    const name = dataTypeName(command.dataType);
    // The plan model's own commands are recorded above, each once.
    if (PLAN_COMMANDS.has(name) || command.dataType === PlanChange) continue;
    session.register(command.dataType, declaredReducer(command, name), { slice: PlanRevision });
  }
  session.register(PlanChange, changeReducer(session), { slice: PlanRevision });
  session.register(Plan, planReducer, { slice: PlanRevision });
}

/**
 * The plan history: every change of the plan since history was turned on (the newest
 * {@link MAX_PLAN_REVISIONS}), oldest first, each with who made it, why, and a structured diff.
 * Empty for a session without the `history()` extension.
 *
 * @example
 * ```ts
 * for (const revision of planHistory(session)) console.log(renderPlanRevision(revision));
 * ```
 * @public
 */
export function planHistory(session: Session): readonly PlanRevision[] {
  return session.select(PlanRevision);
}

/**
 * Renders one revision as plain text: a header line `#3 plankit.MarkStep by worker-1: "why"`
 * (`by (unknown)` without an actor, no `: "why"` without an explanation), then the diff's
 * lines ({@link renderPlanDiff}) indented by two spaces. Stable. The explanation is quoted
 * and any control character in the command or actor is escaped (`\n`), so no value can forge
 * a line, even in a revision that never passed the `PlanRevision` schema.
 *
 * @public
 */
export function renderPlanRevision(revision: PlanRevision): string {
  const why =
    revision.explanation === null ? '' : `: ${escapeControl(JSON.stringify(revision.explanation))}`;
  const actor = revision.actor === null ? '(unknown)' : escapeControl(revision.actor);
  const header = `#${escapeControl(String(revision.revision))} ${escapeControl(revision.command)} by ${actor}${why}`;
  const body =
    revision.diff === null
      ? '(changes not recorded: the plan before is not known)'
      : renderPlanDiff(revision.diff);
  return `${header}\n${body
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n')}`;
}
