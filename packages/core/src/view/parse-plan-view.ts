import { deepFreeze } from '../internal/deep-freeze.ts';
import { isRecord } from '../internal/is-record.ts';
import { clipText, refusalText } from '../internal/refusal-text.ts';
import {
  type StorableRules,
  storableProblem,
  stringProblem,
} from '../internal/storable-problem.ts';
import { MAX_DEPENDENCIES } from '../planning/dependencies/dependency-problem.ts';
import { agentIdProblem } from '../planning/owners/agent-id.ts';
import type { PlanStatus, StepStatus } from '../planning/plan.ts';
import { stepIdProblem } from '../planning/step-id.ts';
import { PLANNING_LIMITS, storedTextProblem } from '../planning/text-rules.ts';
import type { Result } from '../result.ts';
import type { PlanView, PlanViewCounts, PlanViewRevision, PlanViewStep } from './plan-view.ts';
import {
  isViewFieldName,
  type PlanViewFieldValue,
  VIEW_FIELD_NAME_RULE,
} from './plan-view-field.ts';

/**
 * The most steps {@link parsePlanView} reads: 10,000. A larger view is refused as
 * `plan_view_too_large` before any step is read, so a hostile payload costs little.
 *
 * @public
 */
export const MAX_PLAN_VIEW_STEPS = 10_000;

/**
 * The most fields {@link parsePlanView} reads under a view's `fields`: 16, each nested at most
 * {@link MAX_PLAN_VIEW_FIELD_DEPTH} deep.
 *
 * @public
 */
export const MAX_PLAN_VIEW_FIELDS = 16;

/** The deepest an extension's field of a plan view may nest: 8 levels. @public */
export const MAX_PLAN_VIEW_FIELD_DEPTH = 8;

// The storable walk, bounded to a view field's depth and worded as the view's refusals.
const FIELD_RULES: StorableRules = {
  depth: MAX_PLAN_VIEW_FIELD_DEPTH,
  exact: true,
  text: (text, key) => {
    const rule = stringProblem(text);
    return rule !== undefined && key ? `key ${rule}` : rule;
  },
  rule: (kind, value) =>
    kind === 'number'
      ? 'must be a finite number'
      : kind === 'too_deep'
        ? `is nested too deep (more than ${MAX_PLAN_VIEW_FIELD_DEPTH} levels)`
        : `must be JSON data, not ${describe(value)}`,
};

// The plan history's limit on an explanation (MAX_EXPLANATION in plan-change.ts), spelled
// out so this entry does not bundle zod; a test checks the two agree.
/** The longest explanation a view's revision may carry. @internal */
export const MAX_VIEW_EXPLANATION = 512;

/**
 * Why {@link parsePlanView} refused a value:
 * - `plan_view_foreign`: not a plan view at all (not an object, or `kind` is not `plankit.plan`);
 * - `plan_view_version_unknown`: a plan view of a version this reader does not know;
 * - `plan_view_invalid`: a field breaks its rule (the problem's `field` names it);
 * - `plan_view_too_large`: more than {@link MAX_PLAN_VIEW_STEPS} steps.
 *
 * @public
 */
export type PlanViewProblemCode =
  | 'plan_view_foreign'
  | 'plan_view_version_unknown'
  | 'plan_view_invalid'
  | 'plan_view_too_large';

/**
 * A value {@link parsePlanView} refused: a stable code, the field, and a message naming the
 * field and its rule (under 2,000 characters). Plain frozen data rather than an error: a
 * page may parse a stored chat's plan parts on every render, and a refusal is expected there.
 *
 * @public
 */
export interface PlanViewProblem {
  /** What kind of refusal; stable across releases. */
  readonly code: PlanViewProblemCode;
  /** The offending field as a path (`steps[2].title`), or `''` for the value itself. */
  readonly field: string;
  /** One sentence naming the field and the rule it breaks. */
  readonly message: string;
}

// Exhaustive by type: adding a status to StepStatus or PlanStatus fails to compile here.
const STEP_STATUS: Readonly<Record<StepStatus, true>> = {
  pending: true,
  in_progress: true,
  blocked: true,
  done: true,
};
const PLAN_STATUS: Readonly<Record<PlanStatus, true>> = {
  active: true,
  completed: true,
  abandoned: true,
};

type PlainObject = Readonly<Record<string, unknown>>;

/** A plain object (not an array, a class instance or a function). */
function isPlainObject(value: unknown): value is PlainObject {
  if (!isRecord(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** An own property only: an inherited `kind` (or a `__proto__` trick) does not count. */
function own(record: PlainObject, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

const quote = (value: unknown): string =>
  typeof value === 'string' ? JSON.stringify(clipText(value, 80)) : describe(value);

function describe(value: unknown): string {
  if (value === undefined) return 'undefined (missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number')
    return Number.isFinite(value) ? String(value) : 'a non-finite number';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function problem(code: PlanViewProblemCode, field: string, message: string): PlanViewProblem {
  return Object.freeze({ code, field, message: refusalText(message) });
}

/** A problem thrown inside the parser and caught at its edge; never escapes. */
class Refusal {
  readonly problem: PlanViewProblem;
  constructor(found: PlanViewProblem) {
    this.problem = found;
  }
}

function refuse(
  field: string,
  rule: string,
  code: PlanViewProblemCode = 'plan_view_invalid',
): never {
  throw new Refusal(problem(code, field, `Plan view field ${field} ${rule}.`));
}

function text(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string') refuse(field, `must be a string, not ${describe(value)}`);
  const found = storedTextProblem(value, max);
  if (found !== undefined) refuse(field, found.rule);
  return value;
}

function nullableText(value: unknown, field: string, max: number): string | null {
  return value === null ? null : text(value, field, max);
}

function stepId(value: unknown, field: string): string {
  if (typeof value !== 'string') refuse(field, `must be a step id string, not ${describe(value)}`);
  const rule = stepIdProblem(value);
  if (rule !== undefined) refuse(field, `${quote(value)} ${rule}`);
  return value;
}

function agent(value: unknown, field: string): string | null {
  if (value === null) return null;
  const rule = agentIdProblem(value);
  if (rule !== undefined)
    refuse(
      field,
      typeof value === 'string' ? rule : `must be a string or null, not ${describe(value)}`,
    );
  return value as string;
}

function count(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    refuse(field, `must be a whole number of at least 0, not ${quote(value)}`);
  return value;
}

function record(value: unknown, field: string): PlainObject {
  if (!isPlainObject(value)) refuse(field, `must be an object, not ${describe(value)}`);
  return value;
}

/** The ids in `value`, each once and in step-id form, at most `max`. */
function idList(value: unknown, field: string, max: number): string[] {
  if (!Array.isArray(value)) refuse(field, `must be an array of step ids, not ${describe(value)}`);
  if (value.length > max) refuse(field, `must hold at most ${max} step ids`);
  const ids: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < value.length; i++) {
    const id = stepId(value[i], `${field}[${i}]`);
    if (seen.has(id)) refuse(`${field}[${i}]`, `repeats ${id}`);
    seen.add(id);
    ids.push(id);
  }
  return ids;
}

function oneOf<T extends string>(
  value: unknown,
  field: string,
  allowed: Readonly<Record<T, true>>,
): T {
  if (typeof value !== 'string' || !Object.hasOwn(allowed, value))
    refuse(field, `must be one of ${Object.keys(allowed).join(', ')}, not ${quote(value)}`);
  return value as T;
}

/** An extension's fields, checked as JSON data and copied, frozen. */
function readFields(value: unknown): Readonly<Record<string, PlanViewFieldValue>> {
  const raw = record(value, 'fields');
  const keys = Object.keys(raw);
  if (keys.length > MAX_PLAN_VIEW_FIELDS)
    refuse('fields', `must hold at most ${MAX_PLAN_VIEW_FIELDS} fields, not ${keys.length}`);
  const out: Record<string, PlanViewFieldValue> = {};
  for (const key of keys) {
    if (!isViewFieldName(key)) refuse(`fields[${quote(key)}]`, `name ${VIEW_FIELD_NAME_RULE}`);
    const field = own(raw, key);
    const found = storableProblem(field, FIELD_RULES);
    if (found !== undefined) {
      const path = found.path === '' || found.path.startsWith('[') ? found.path : `.${found.path}`;
      refuse(`fields.${key}${path}`, found.rule);
    }
    // A copy: the caller's object may change after it was read.
    out[key] = deepFreeze(JSON.parse(JSON.stringify(field)) as PlanViewFieldValue);
  }
  return Object.freeze(out);
}

function readStep(value: unknown, field: string): PlanViewStep {
  const step = record(value, field);
  // Fields are read in the view's order, so a refusal names the first bad field as written.
  return {
    step_id: stepId(own(step, 'step_id'), `${field}.step_id`),
    title: text(own(step, 'title'), `${field}.title`, PLANNING_LIMITS.title),
    details: nullableText(own(step, 'details'), `${field}.details`, PLANNING_LIMITS.details),
    status: oneOf(own(step, 'status'), `${field}.status`, STEP_STATUS),
    depends_on: idList(own(step, 'depends_on'), `${field}.depends_on`, MAX_DEPENDENCIES),
    waiting_on: idList(own(step, 'waiting_on'), `${field}.waiting_on`, MAX_DEPENDENCIES),
    owner: agent(own(step, 'owner'), `${field}.owner`),
    last_note: nullableText(own(step, 'last_note'), `${field}.last_note`, PLANNING_LIMITS.note),
  };
}

/**
 * Checks what the steps say of each other: unique ids, dependencies on other steps of the
 * plan, `waiting_on` exactly the dependencies not done, and counts and plan status that agree
 * with the steps. Linear: one map of the steps, and at most 64 ids per step.
 */
function checkAgreement(
  status: PlanStatus,
  steps: readonly PlanViewStep[],
  counts: PlanViewCounts,
): void {
  const byId = new Map<string, PlanViewStep>();
  const tally = { total: steps.length, done: 0, in_progress: 0, pending: 0, blocked: 0 };
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as PlanViewStep;
    if (byId.has(step.step_id)) refuse(`steps[${i}].step_id`, `repeats ${step.step_id}`);
    byId.set(step.step_id, step);
    tally[step.status]++;
  }
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as PlanViewStep;
    const open: string[] = [];
    for (let d = 0; d < step.depends_on.length; d++) {
      const id = step.depends_on[d] as string;
      const target = byId.get(id);
      if (target === undefined || id === step.step_id)
        refuse(`steps[${i}].depends_on[${d}]`, `must name another step of the plan, not ${id}`);
      if (target.status !== 'done') open.push(id);
    }
    const waiting = step.waiting_on;
    if (waiting.length !== open.length || waiting.some((id, n) => id !== open[n]))
      refuse(
        `steps[${i}].waiting_on`,
        `must list the depends_on ids whose step is not done, in order (${open.length === 0 ? 'none' : open.join(', ')})`,
      );
  }
  for (const key of ['total', 'done', 'in_progress', 'pending', 'blocked'] as const) {
    if (counts[key] !== tally[key])
      refuse(
        `counts.${key}`,
        `must be ${tally[key]}, the number the steps give, not ${counts[key]}`,
      );
  }
  const expected: PlanStatus =
    steps.length === 0
      ? status === 'abandoned'
        ? 'abandoned'
        : 'active'
      : tally.done === steps.length
        ? 'completed'
        : 'active';
  if (status !== expected) refuse('status', `must be ${expected} for these steps, not ${status}`);
}

function readView(value: unknown): PlanView {
  if (!isPlainObject(value) || own(value, 'kind') !== 'plankit.plan') {
    throw new Refusal(
      problem(
        'plan_view_foreign',
        isPlainObject(value) ? 'kind' : '',
        'Not a plan view: expected an object with kind "plankit.plan".',
      ),
    );
  }
  const version = own(value, 'version');
  if (version !== 1)
    refuse(
      'version',
      `must be 1, the version this reader knows, not ${quote(version)}`,
      'plan_view_version_unknown',
    );
  const objective = text(own(value, 'objective'), 'objective', PLANNING_LIMITS.objective);
  const status = oneOf(own(value, 'status'), 'status', PLAN_STATUS);
  const rawSteps = own(value, 'steps');
  if (!Array.isArray(rawSteps)) refuse('steps', `must be an array, not ${describe(rawSteps)}`);
  if (rawSteps.length > MAX_PLAN_VIEW_STEPS)
    refuse('steps', `must hold at most ${MAX_PLAN_VIEW_STEPS} steps`, 'plan_view_too_large');
  const steps: PlanViewStep[] = [];
  for (let i = 0; i < rawSteps.length; i++) steps.push(readStep(rawSteps[i], `steps[${i}]`));
  const rawCounts = record(own(value, 'counts'), 'counts');
  const counts: PlanViewCounts = {
    total: count(own(rawCounts, 'total'), 'counts.total'),
    done: count(own(rawCounts, 'done'), 'counts.done'),
    in_progress: count(own(rawCounts, 'in_progress'), 'counts.in_progress'),
    pending: count(own(rawCounts, 'pending'), 'counts.pending'),
    blocked: count(own(rawCounts, 'blocked'), 'counts.blocked'),
  };
  const rawRevision = own(value, 'revision');
  let revision: PlanViewRevision | null = null;
  if (rawRevision !== null) {
    const raw = record(rawRevision, 'revision');
    const number = own(raw, 'number');
    if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 1)
      refuse('revision.number', `must be a whole number of at least 1, not ${quote(number)}`);
    revision = Object.freeze({
      number,
      explanation: nullableText(
        own(raw, 'explanation'),
        'revision.explanation',
        MAX_VIEW_EXPLANATION,
      ),
      agent: agent(own(raw, 'agent'), 'revision.agent'),
    });
  }
  const rawFields = own(value, 'fields');
  const fields = rawFields === undefined ? undefined : readFields(rawFields);
  checkAgreement(status, steps, counts);
  for (const step of steps) {
    Object.freeze(step.depends_on);
    Object.freeze(step.waiting_on);
    Object.freeze(step);
  }
  return Object.freeze({
    kind: 'plankit.plan',
    version: 1,
    objective,
    status,
    steps: Object.freeze(steps),
    counts: Object.freeze(counts),
    revision,
    ...(fields === undefined ? {} : { fields }),
  });
}

/**
 * Reads a plan view back from untrusted data: an AI SDK `data-plan` part from a stored chat,
 * the MCP plan resource's JSON, a hand-edited file. It checks every field by the plan's own
 * rules (step ids in the tools' form, text the tools could have stored, well-formed owners,
 * at most 64 dependencies a step) and that the derived fields agree with the steps (counts,
 * `waiting_on`, the plan status), so a UI never shows a half-parsed or self-contradicting plan.
 * The extensions' `fields` are kept as JSON data (at most {@link MAX_PLAN_VIEW_FIELDS}, each
 * nested at most {@link MAX_PLAN_VIEW_FIELD_DEPTH} deep, text every store can hold), copied;
 * each extension's reader checks its own field. Fields it does not know are left out of the
 * result.
 *
 * Never throws, whatever the value (getters that throw included). Linear in the size of the
 * value it reads, and it reads at most {@link MAX_PLAN_VIEW_STEPS} steps; anything nested
 * deeper than the view's own fields is refused without being walked.
 *
 * @example
 * ```ts
 * const read = parsePlanView(part.data);
 * if (read.ok) show(read.value);
 * else console.warn(read.error.code, read.error.message);
 * ```
 * @returns the frozen view, or a {@link PlanViewProblem} naming the field and the rule
 * @public
 */
export function parsePlanView(value: unknown): Result<PlanView, PlanViewProblem> {
  try {
    return { ok: true, value: readView(value) };
  } catch (cause) {
    if (cause instanceof Refusal) return { ok: false, error: cause.problem };
    // A getter or proxy that threw: the value is not plain data.
    return {
      ok: false,
      error: problem(
        'plan_view_invalid',
        '',
        'Plan view could not be read: it is not plain JSON data.',
      ),
    };
  }
}
