import { checkOptionKeys } from '../internal/check-option-keys.ts';
import { invalidArgument } from '../internal/invalid-argument.ts';
import type { PlanRevision } from '../planning/history/plan-history.ts';
import type { Plan, PlanStatus, PlanStep, StepStatus } from '../planning/plan.ts';
import type { Session } from '../session.ts';
import type { SessionSnapshot } from '../session-snapshot.ts';
import {
  checkViewFields,
  type PlanViewField,
  type PlanViewFieldValue,
  planViewFieldsOf,
} from './plan-view-field.ts';

/**
 * The plan as a chat UI shows it: serialisable (JSON data only, snake_case like the tools'
 * wire data), deeply frozen, built by {@link planView} and read back by `parsePlanView`.
 * The same view travels through every host: an AI SDK `data-plan` part, the MCP plan
 * resource, a LangGraph state read.
 *
 * @public
 */
export interface PlanView {
  /** Always `plankit.plan`, so a reader can tell plankit's plan from foreign data. */
  readonly kind: 'plankit.plan';
  /** The view's format; `parsePlanView` refuses any other. */
  readonly version: 1;
  /** What the plan is for. */
  readonly objective: string;
  /** Where the plan stands: `completed` once every step is done, `abandoned` after a clear. */
  readonly status: PlanStatus;
  /** The steps, in the plan's order. */
  readonly steps: readonly PlanViewStep[];
  /** How many steps there are, in all and by status. */
  readonly counts: PlanViewCounts;
  /**
   * The newest revision of the plan history (the tools' `history()` extension): its number, why
   * and who. `null` without history, or for a view built from a plan alone.
   */
  readonly revision: PlanViewRevision | null;
  /**
   * What the session's extensions add to the view, by field name (the `goals()` extension of
   * `@plankit/controller/goal` adds `goal`): JSON data each extension defines. Absent when no
   * extension added a field.
   */
  readonly fields?: Readonly<Record<string, PlanViewFieldValue>> | undefined;
}

/** Options of {@link planView}. @public */
export interface PlanViewOptions {
  /**
   * The fields to add, read from the source's slices: by default those the session's
   * extensions declared (`planViewFieldsOf(session)`); none for a source that is not a
   * session unless given here. A plan alone or channels have no slices to read.
   */
  readonly fields?: readonly PlanViewField[] | undefined;
}

/** One step of a {@link PlanView}. @public */
export interface PlanViewStep {
  /** The step's id, such as `S001`: stable for the plan's life, so a UI can key rows on it. */
  readonly step_id: string;
  /** The step's title. */
  readonly title: string;
  /** The step's details, or `null`. */
  readonly details: string | null;
  /** Where the step stands. */
  readonly status: StepStatus;
  /** The ids of the steps this one waits for, in the plan's order; `[]` without the `dependencies()` extension. */
  readonly depends_on: readonly string[];
  /** The ids in {@link PlanViewStep.depends_on} whose step is not done yet: what the step still waits on. */
  readonly waiting_on: readonly string[];
  /** The agent holding the step (the `owners()` extension), or `null` when unclaimed. */
  readonly owner: string | null;
  /** The newest note recorded on the step, or `null`. */
  readonly last_note: string | null;
}

/** The step counts of a {@link PlanView}. @public */
export interface PlanViewCounts {
  /** Every step. */
  readonly total: number;
  /** Steps with status `done`. */
  readonly done: number;
  /** Steps with status `in_progress`. */
  readonly in_progress: number;
  /** Steps with status `pending`. */
  readonly pending: number;
  /** Steps with status `blocked`. */
  readonly blocked: number;
}

/** The newest plan history revision, as a {@link PlanView} carries it. @public */
export interface PlanViewRevision {
  /** The revision's number: 1 for the first change recorded, one more for each after. */
  readonly number: number;
  /** Why the change was made (the caller's `explanation`), or `null`. */
  readonly explanation: string | null;
  /** The agent that made it (the tools' `agent` option), or `null` when not known. */
  readonly agent: string | null;
}

// A type alias rather than an interface so that it meets `Record<string, unknown>`, the
// constraint of a state type such as `useStream<PlanChannels & { messages: Message[] }>`'s.
/**
 * A state that keeps the plan in channels rather than a session: LangGraph's
 * `planningMiddleware` state (`getState(config).values`, `invoke`'s result, a `useStream`
 * client's `values`): the plan (`null` before one is set up, absent before the middleware ran)
 * and, with the `history()` extension, its revisions, oldest first.
 *
 * @public
 */
export type PlanChannels = {
  /** The `plan` channel; absent in a state from before the middleware ran. */
  readonly plan?: Plan | null | undefined;
  /** The `planHistory` channel; absent without history. */
  readonly planHistory?: readonly PlanRevision[] | undefined;
};

// The slice names of `Plan` and `PlanRevision`, spelled out rather than read from the data
// types so this entry stays free of zod and the reducers (a browser bundle imports it). A
// test checks they match the data types.
/** The plan slice's name. @internal */
export const PLAN_SLICE = 'plankit.Plan';
/** The plan history slice's name. @internal */
export const PLAN_REVISION_SLICE = 'plankit.PlanRevision';

/** The fields of a plan revision the view reads. */
interface RevisionLike {
  readonly revision: number;
  readonly actor: string | null;
  readonly explanation: string | null;
}

const EMPTY: readonly string[] = Object.freeze([]);
const OPTION_KEYS: ReadonlySet<string> = new Set(['fields']);

function lastOf(slices: SessionSnapshot['slices'], name: string): unknown {
  const values = Object.hasOwn(slices, name) ? slices[name] : undefined;
  return values === undefined ? undefined : values[values.length - 1];
}

function viewStep(step: PlanStep, done: ReadonlySet<string>): PlanViewStep {
  const dependsOn = step.depends_on ?? EMPTY;
  let waitingOn = EMPTY;
  if (dependsOn.length > 0) {
    const open = dependsOn.filter((id) => !done.has(id));
    waitingOn = open.length === 0 ? EMPTY : Object.freeze(open);
  }
  return Object.freeze({
    step_id: step.step_id,
    title: step.title,
    details: step.details,
    status: step.status,
    depends_on: dependsOn.length === 0 ? EMPTY : Object.freeze([...dependsOn]),
    waiting_on: waitingOn,
    owner: step.owner ?? null,
    last_note: step.notes[step.notes.length - 1] ?? null,
  });
}

/** What `fields` read from `slices`, or undefined when none gave a value. */
function readFields(
  fields: readonly PlanViewField[],
  slices: SessionSnapshot['slices'],
): Readonly<Record<string, PlanViewFieldValue>> | undefined {
  let out: Record<string, PlanViewFieldValue> | undefined;
  for (const field of fields) {
    const value = field.read(slices);
    if (value === null) continue;
    out ??= {};
    out[field.name] = value;
  }
  return out === undefined ? undefined : Object.freeze(out);
}

/** The view of `plan`, with `revision` as its history revision. Linear in the plan's size. */
function buildView(
  plan: Plan,
  revision: RevisionLike | undefined,
  fields?: Readonly<Record<string, PlanViewFieldValue>>,
): PlanView {
  const done = new Set<string>();
  const counts = { total: plan.steps.length, done: 0, in_progress: 0, pending: 0, blocked: 0 };
  for (const step of plan.steps) {
    counts[step.status]++;
    if (step.status === 'done') done.add(step.step_id);
  }
  const steps: PlanViewStep[] = [];
  for (const step of plan.steps) steps.push(viewStep(step, done));
  return Object.freeze({
    kind: 'plankit.plan',
    version: 1,
    objective: plan.objective,
    status: plan.status,
    steps: Object.freeze(steps),
    counts: Object.freeze(counts),
    revision:
      revision === undefined
        ? null
        : Object.freeze({
            number: revision.revision,
            explanation: revision.explanation,
            agent: revision.actor,
          }),
    ...(fields === undefined ? {} : { fields }),
  });
}

/**
 * The view of a session's plan for a chat UI: its steps with status, dependencies (and what
 * each still waits on), owner and newest note, the counts by status, and the newest plan
 * history revision (number, explanation, agent) when the session keeps history. Pure: it
 * reads the newest plan and the newest revision only, so its cost follows the plan's size,
 * never the session's history. The view is deeply frozen and JSON-safe.
 *
 * Pass a {@link Session}, one of its snapshots, a state that keeps the plan in channels
 * ({@link PlanChannels}: LangGraph's `planningMiddleware` state, whose newest `planHistory`
 * revision becomes the view's `revision`), or a plan alone (`selectLatest(session, Plan)`; a
 * plan alone has no history, so its view's `revision` is `null`).
 *
 * Extensions registered on a session may add fields (`PlanViewField`, an extension's
 * `viewFields`): the view of a session, or of a snapshot with `options.fields`, carries what
 * they read under `fields`, such as the goal of `@plankit/controller/goal`.
 *
 * It trusts its source to be what its type says (a session's own plan, a graph state its
 * channels checked). For data from elsewhere, read the view with `parsePlanView` instead.
 *
 * @example
 * ```ts
 * const view = planView(session);
 * if (view !== null) console.log(`${view.counts.done}/${view.counts.total} done`);
 * ```
 * @param options - the fields to add (`fields`), over those the session's extensions declared
 * @returns the view, or `null` when there is no plan yet
 * @throws PlankitError `argument_invalid` for options that are not an object, an unknown
 *   option, or `fields` that is not an array of fields each named once by the field rule
 * @public
 */
export function planView(
  source: Session | SessionSnapshot | PlanChannels | Plan | null | undefined,
  options: PlanViewOptions = {},
): PlanView | null {
  if (typeof options !== 'object' || options === null)
    throw invalidArgument('planView', 'options', 'must be an object');
  checkOptionKeys('planView', options, OPTION_KEYS);
  if (options.fields !== undefined) checkViewFields(options.fields, 'planView', 'options.fields');
  if (source === null || source === undefined) return null;
  if ('steps' in source) return buildView(source, undefined);
  // Duck-typed rather than `instanceof Session`: this entry must not bundle the session.
  if ('slices' in source || 'snapshot' in source) {
    const slices = 'slices' in source ? source.slices : source.snapshot().slices;
    const plan = lastOf(slices, PLAN_SLICE) as Plan | undefined;
    if (plan === undefined) return null;
    const fields = options.fields ?? ('slices' in source ? undefined : planViewFieldsOf(source));
    return buildView(
      plan,
      lastOf(slices, PLAN_REVISION_SLICE) as RevisionLike | undefined,
      fields === undefined || fields.length === 0 ? undefined : readFields(fields, slices),
    );
  }
  // Channels, the plan one possibly absent: a state from before the middleware ran, or the
  // `{}` a `useStream` client holds until the first event.
  const plan = source.plan;
  return plan === null || plan === undefined ? null : buildView(plan, source.planHistory?.at(-1));
}
