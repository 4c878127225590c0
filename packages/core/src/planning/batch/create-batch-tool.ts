import * as z from 'zod';
import { defineTool, type Tool } from '../../define-tool.ts';
import { clipText, escapeControl, REFUSAL_LIMIT } from '../../internal/refusal-text.ts';
import { trustedValue } from '../../internal/trusted-value.ts';
import { selectLatest } from '../../select-latest.ts';
import type { Session } from '../../session.ts';
import { ToolValidationError } from '../../tool-validation-error.ts';
import { type NewDependentStep, normaliseDependsOn } from '../dependencies/dependency-commands.ts';
import type { ResolvedDependencies } from '../dependencies/dependency-options.ts';
import { Plan, type PlanStep, StepStatus } from '../plan.ts';
import { ensureStatus, stepIndex } from '../plan-checks.ts';
import { planningToolTraits } from '../planning-tool-traits.ts';
import { optionalText, PLANNING_LIMITS, requiredText, stepIdText } from '../text-rules.ts';
import {
  applyBatchOperation,
  type BatchAdd,
  type BatchOperation,
  hasDependencies,
  MAX_BATCH_OPERATIONS,
  PlanBatch,
  withBatchResult,
} from './plan-batch.ts';

/** What the batch tool shares with `createPlanningTools`. @internal */
export interface BatchToolContext {
  readonly acceptsOverrides: boolean;
  readonly prepare: (session: Session) => Session;
  /** The in-progress rule sentence, or `null` when any number may be in progress. */
  readonly singleRule: string | null;
  /** The `dependencies()` extension's rule, or `null` when off: operations take `depends_on`. */
  readonly dependencies: ResolvedDependencies | null;
  /** Every extension's checks of a step about to be marked or noted. */
  readonly checkMarkTarget: (step: PlanStep) => void;
  /** Every extension's checks of a mark, after the reference ones: their warnings, or `null`. */
  readonly checkMark: (plan: Plan, index: number, status: StepStatus) => string | null;
}

/** One operation as the model sends it: one flat object per operation, named by `op`. @public */
export type BatchOperationInput =
  | { readonly op: 'setup'; readonly objective: string }
  | {
      readonly op: 'add';
      readonly title: string;
      readonly details?: string | null | undefined;
      /** Only with the `dependencies()` extension. */
      readonly depends_on?: readonly string[] | null | undefined;
    }
  | {
      readonly op: 'update';
      readonly step_id: string;
      readonly title?: string | null | undefined;
      readonly details?: string | null | undefined;
      /** Only with the `dependencies()` extension: replaces the step's dependencies. */
      readonly depends_on?: readonly string[] | null | undefined;
    }
  | {
      readonly op: 'mark';
      readonly step_id: string;
      readonly status: StepStatus;
      readonly note?: string | null | undefined;
    }
  | { readonly op: 'note'; readonly step_id: string; readonly note: string };

/** `planning_apply_batch`'s parameters, as the model sends them. @public */
export interface PlanBatchInput {
  /** The operations, applied in order. */
  readonly operations: readonly BatchOperationInput[];
}

type Op = BatchOperationInput['op'];
type Field = 'step_id' | 'status' | 'note' | 'objective' | 'title' | 'details' | 'depends_on';

const OPS = ['setup', 'add', 'update', 'mark', 'note'] as const satisfies readonly Op[];

// The fields each operation takes, required first. The wire schema is one flat object (a
// union of five objects costs the model about twice the tokens), so these are checked here.
const TAKES: {
  readonly [K in Op]: {
    readonly needs: readonly Field[];
    readonly may: readonly Field[];
    /** Every field it takes, `op` included. */
    readonly takes: ReadonlySet<string>;
  };
} = {
  setup: fields(['objective'], []),
  add: fields(['title'], ['details', 'depends_on']),
  update: fields(['step_id'], ['title', 'details', 'depends_on']),
  mark: fields(['step_id', 'status'], ['note']),
  note: fields(['step_id', 'note'], []),
};

function fields(needs: readonly Field[], may: readonly Field[]) {
  return { needs, may, takes: new Set<string>(['op', ...needs, ...may]) };
}

// A batch may mark and edit (overwrites) and add notes or steps (appends).
const BATCH_TRAITS = planningToolTraits({
  title: 'Apply a batch of plan changes',
  readOnly: false,
  destructive: true,
  idempotent: false,
});

// Each thing the model reads is said once: the tool's description says what a batch does,
// the op field which fields each operation takes; the other fields carry no descriptions, and
// the text limits are named by the refusals.
const DESCRIPTION =
  'Apply plan changes in order, all or none. To advance, mark a step done and the next in_progress.';

function opDescription(dependencies: boolean): string {
  const deps = dependencies ? ', depends_on' : '';
  return `setup (objective; new plan), add (title, details${deps}), update (step_id, title, details${deps}), mark (step_id, status, note), note (step_id, note)`;
}

// The wire schema: depends_on appears only with the dependencies option. Each variant is built
// once: zod compiles a schema on its first parse, and a schema built per session (a pool makes
// one per conversation) would be built and compiled again for every one.
const built = new Map<boolean, ReturnType<typeof buildBatchParameters>>();
function batchParameters(dependencies: boolean): ReturnType<typeof buildBatchParameters> {
  let parameters = built.get(dependencies);
  if (parameters === undefined) {
    parameters = buildBatchParameters(dependencies);
    built.set(dependencies, parameters);
  }
  return parameters;
}

const OPTIONAL: ReadonlySet<string> = new Set<Field>([
  'step_id',
  'status',
  'note',
  'objective',
  'title',
  'details',
  'depends_on',
]);

// Strict hosts send null for every field a call leaves out; as with optionalField, null reads
// as absent. Done once per operation rather than by a preprocess on each of its seven
// optional fields, which zod runs for every field of every operation (three times the parse
// of a long batch); the JSON Schema is the same. Only the known fields are unset, so an
// unknown key is refused whatever its value.
function unsetNulls(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  let out: Record<string, unknown> | undefined;
  // The keys it has, not the seven it may have: most operations carry two to four.
  for (const name in value) {
    if ((value as Record<string, unknown>)[name] !== null || !OPTIONAL.has(name)) continue;
    out ??= { ...value };
    out[name] = undefined;
  }
  return out ?? value;
}

function buildBatchParameters(dependencies: boolean) {
  const text = z.string().optional();
  const operation = z.strictObject({
    op: z.enum(OPS).describe(opDescription(dependencies)),
    step_id: text,
    status: StepStatus.optional(),
    note: text,
    objective: text,
    title: text,
    details: text,
    ...(dependencies ? { depends_on: z.array(z.string()).optional() } : {}),
  });
  return z.strictObject({ operations: z.array(z.preprocess(unsetNulls, operation)) });
}

type Raw = { readonly op: Op } & { readonly [K in Field]?: unknown };

/** Refuses a missing field the operation needs, or a field it does not take. */
function checkFields(raw: Raw, field: string): void {
  const { needs, may, takes } = TAKES[raw.op];
  // The schema reads null as absent; a handler called without it may still see null.
  for (const name of needs) {
    if (raw[name] == null)
      throw new ToolValidationError(`${raw.op} needs ${name}.`, {
        code: 'schema',
        field: `${field}.${name}`,
      });
  }
  for (const name of Object.keys(raw)) {
    if (takes.has(name) || raw[name as Field] == null) continue;
    throw new ToolValidationError(
      `${raw.op} takes ${[...needs, ...may].join(', ')}, not ${name}.`,
      {
        code: 'schema',
        field: `${field}.${name}`,
      },
    );
  }
}

const text = (value: unknown): string | null => (value ?? null) as string | null;

/** The paths refusals name for operation `i`'s fields. */
interface Paths {
  readonly operation: string;
  readonly objective: string;
  readonly title: string;
  readonly details: string;
  readonly note: string;
  readonly depends_on: string;
}

// Built once per index (at most MAX_BATCH_OPERATIONS), not per operation of every call.
const PATHS: Paths[] = [];
function pathsOf(i: number): Paths {
  let paths = PATHS[i];
  if (paths === undefined) {
    const operation = `operations[${i}]`;
    paths = {
      operation,
      objective: `${operation}.objective`,
      title: `${operation}.title`,
      details: `${operation}.details`,
      note: `${operation}.note`,
      depends_on: `${operation}.depends_on`,
    };
    PATHS[i] = paths;
  }
  return paths;
}

/**
 * The operation `raw` asks for, built field by field through the text rules and frozen bottom
 * up, so the batch's deep freeze has nothing left to walk in it.
 */
function normalise(raw: Raw, paths: Paths, context: BatchToolContext): BatchOperation {
  checkFields(raw, paths.operation);
  switch (raw.op) {
    case 'setup':
      return Object.freeze({
        op: 'setup',
        objective: requiredText(
          raw.objective as string,
          paths.objective,
          'Objective',
          PLANNING_LIMITS.objective,
        ),
      });
    case 'add': {
      const title = requiredText(raw.title as string, paths.title, 'Title', PLANNING_LIMITS.title);
      const details = optionalText(
        text(raw.details),
        paths.details,
        'Details',
        PLANNING_LIMITS.details,
      );
      // With dependencies on, a step added without depends_on waits for nothing, as in add.
      const list =
        (raw.depends_on as readonly string[] | undefined) ??
        (context.dependencies === null ? undefined : []);
      const step =
        list === undefined
          ? Object.freeze({ title, details })
          : Object.freeze({
              title,
              details,
              depends_on: Object.freeze(normaliseDependsOn(list, paths.depends_on)),
            });
      return Object.freeze({ op: 'add', steps: Object.freeze([step]) });
    }
    case 'update': {
      const id = stepIdText(raw.step_id as string);
      const title =
        text(raw.title) === null
          ? null
          : requiredText(raw.title as string, paths.title, 'Title', PLANNING_LIMITS.title);
      const details = optionalText(
        text(raw.details),
        paths.details,
        'Details',
        PLANNING_LIMITS.details,
      );
      const list = raw.depends_on as readonly string[] | undefined;
      const depends_on =
        list == null ? null : Object.freeze(normaliseDependsOn(list, paths.depends_on));
      if (title === null && details === null && depends_on === null) {
        throw new ToolValidationError(
          context.dependencies === null
            ? 'Provide a new title or details to update a step.'
            : 'Provide a new title, details or depends_on to update a step.',
          { code: 'update_empty' },
        );
      }
      return Object.freeze({ op: 'update', step_id: id, title, details, depends_on });
    }
    case 'mark':
      return Object.freeze({
        op: 'mark',
        step_id: stepIdText(raw.step_id as string),
        status: ensureStatus(raw.status as string),
        note: optionalText(text(raw.note), paths.note, 'Note', PLANNING_LIMITS.note, true),
      });
    case 'note': {
      const id = stepIdText(raw.step_id as string);
      const note = requiredText(raw.note as string, paths.note, 'Note', PLANNING_LIMITS.note);
      return Object.freeze({ op: 'note', step_id: id, note });
    }
    default: {
      const unknown: never = raw.op;
      throw new ToolValidationError(`Unknown operation ${clipText(String(unknown), 40)}.`, {
        code: 'schema',
      });
    }
  }
}

/** Checks the rules only the tools enforce (in-progress, open dependencies); returns a warning. */
function toolRules(
  plan: Plan,
  operation: BatchOperation,
  context: BatchToolContext,
): string | null {
  if (operation.op !== 'mark' && operation.op !== 'note') return null;
  const index = stepIndex(plan, operation.step_id);
  context.checkMarkTarget(plan.steps[index] as PlanStep);
  if (operation.op !== 'mark') return null;
  if (context.singleRule !== null && operation.status === 'in_progress') {
    let other: PlanStep | undefined;
    for (let i = 0; i < plan.steps.length && other === undefined; i++) {
      const step = plan.steps[i] as PlanStep;
      if (step.status === 'in_progress' && step.step_id !== operation.step_id) other = step;
    }
    if (other !== undefined) {
      throw new ToolValidationError(
        `${context.singleRule} Step ${other.step_id} is already in_progress; mark it done, blocked or pending first.`,
        { code: 'step_in_progress', field: 'status' },
      );
    }
  }
  return context.checkMark(plan, index, operation.status);
}

/**
 * One entry of the result: a change named in full, and in a short form for long batches; or
 * the ids of additions in a row, which read as one entry.
 */
type Change = { readonly full: string; readonly short: string } | { readonly added: string[] };

// Up to this many added ids are listed; more are named as a range (ids added in a row are
// consecutive) with a count, so an entry stays short whatever the number of steps.
const LISTED_IDS = 3;

const thousands = (n: number): string =>
  n < 1000 ? String(n) : String(n).replace(/\B(?=(\d{3})+$)/g, ',');

/** The entry of added `ids`, in full (`short` false) or short. */
function addedText(ids: readonly string[], short: boolean): string {
  const first = ids[0] ?? '';
  const range = ids.length === 1 ? first : `${first} … ${ids[ids.length - 1] ?? ''}`;
  if (short) return `added ${range}`;
  return ids.length <= LISTED_IDS
    ? `added ${ids.join(', ')}`
    : `added ${range}, ${thousands(ids.length)} steps`;
}

/** Appends the change `operation` made from `before` to `after`, joining additions in a row. */
function pushChange(
  changes: Change[],
  before: Plan | undefined,
  after: Plan,
  operation: BatchOperation,
): void {
  switch (operation.op) {
    case 'setup':
      changes.push({ full: 'new plan set up', short: 'new plan' });
      return;
    case 'mark':
      changes.push({
        full: `${operation.step_id} marked as ${operation.status}`,
        short: `${operation.step_id} ${operation.status}`,
      });
      return;
    case 'note':
      changes.push({
        full: `note added to ${operation.step_id}`,
        short: `${operation.step_id} note`,
      });
      return;
    case 'update':
      changes.push({ full: `${operation.step_id} updated`, short: `${operation.step_id} updated` });
      return;
    case 'add': {
      const last = changes[changes.length - 1];
      const ids = last !== undefined && 'added' in last ? last.added : [];
      if (ids.length === 0) changes.push({ added: ids });
      for (let i = before?.steps.length ?? 0; i < after.steps.length; i++)
        ids.push((after.steps[i] as PlanStep).step_id);
      return;
    }
    default: {
      const unknown: never = operation;
      changes.push({ full: String(unknown), short: String(unknown) });
    }
  }
}

/** The changes joined with semicolons, each in full or short. */
function changeList(changes: readonly Change[], short: boolean): string {
  let text = '';
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i] as Change;
    const entry =
      'added' in change ? addedText(change.added, short) : short ? change.short : change.full;
    text = i === 0 ? entry : `${text}; ${entry}`;
  }
  return text;
}

/**
 * The success message: every change, never dropped, under the refusal limit. Each change is
 * named in full when all fit, else in its short form (which a batch of
 * `MAX_BATCH_OPERATIONS` always fits: at most about 40 characters each); the warnings get the
 * room left, clipped.
 */
function appliedMessage(
  count: number,
  changes: readonly Change[],
  warnings: readonly string[],
): string {
  const head = `Applied ${count} operation${count === 1 ? '' : 's'}: `;
  const limit = REFUSAL_LIMIT - 1;
  const full = `${head}${changeList(changes, false)}.`;
  const text = full.length <= limit ? full : `${head}${changeList(changes, true)}.`;
  if (warnings.length === 0) return clipText(text, limit);
  const room = limit - text.length - 1;
  return room < 20 ? text : `${text} ${clipText(warnings.join(' '), Math.min(600, room))}`;
}

const label = (raw: Raw, i: number): string => {
  // The id as the model wrote it, escaped: the rules that refuse it have not run yet.
  const id =
    typeof raw.step_id === 'string' ? ` ${escapeControl(clipText(raw.step_id.trim(), 64))}` : '';
  return `operations[${i}] (${String(raw.op)}${id})`;
};

/** Joins refusal reasons into one message under the refusal limit, ending in `and N more` when cut. */
function joinWithin(head: string, entries: readonly string[]): string {
  let text = head;
  const budget = REFUSAL_LIMIT - 1 - 40;
  for (let i = 0; i < entries.length; i++) {
    const entry = `${i === 0 ? '' : '; '}${entries[i]}`;
    if (text.length + entry.length > budget) {
      text += `; and ${entries.length - i} more`;
      break;
    }
    text += entry;
  }
  return `${text}.`;
}

// The event the handler's own run of the reducers sees (they read only its value).
const EVENT = { dataType: 'plankit.PlanBatch', sessionId: '', at: 0 };

/** A batch being applied by the handler, operation by operation. */
interface Applying {
  plan: Plan | undefined;
  readonly operations: BatchOperation[];
  readonly changes: Change[];
  readonly warnings: string[];
  readonly reasons: string[];
  /** Additions in a row without depends_on, not applied yet; see {@link applyAdds}. */
  readonly adds: { readonly index: number; readonly raw: Raw; readonly operation: BatchAdd }[];
}

/** Records why operation `i` was refused, or rethrows what is not a refusal. */
function refuse(state: Applying, raw: Raw, i: number, error: unknown): void {
  if (!ToolValidationError.isInstance(error)) throw error;
  // Each reason loses its full stop: the list is joined with semicolons and ends with one.
  state.reasons.push(`${label(raw, i)}: ${clipText(error.message, 300).replace(/\.$/, '')}`);
}

/** Applies operation `i` to the plan as the operations before it left it. */
function applyOne(
  state: Applying,
  raw: Raw,
  i: number,
  operation: BatchOperation,
  context: BatchToolContext,
): void {
  try {
    const warning = state.plan === undefined ? null : toolRules(state.plan, operation, context);
    const next = applyBatchOperation(state.plan, operation, EVENT);
    pushChange(state.changes, state.plan, next, operation);
    if (warning !== null) state.warnings.push(warning);
    state.operations.push(operation);
    state.plan = next;
  } catch (error) {
    refuse(state, raw, i, error);
  }
}

/**
 * Applies the waiting additions. The reference add numbers steps added together as it numbers
 * them one by one, and without depends_on it checks only the plan (active, room for the ids)
 * and the texts (which normalise checked already): added together they make the same plan, and
 * together fail exactly when one of them would alone. So they are added in one step, and only
 * when that is refused one by one, for each refusal to name its operation.
 */
function applyAdds(state: Applying, context: BatchToolContext): void {
  const adds = state.adds;
  if (adds.length === 0) return;
  if (adds.length > 1) {
    const steps: NewDependentStep[] = [];
    for (const add of adds) steps.push(...add.operation.steps);
    const together: BatchAdd = { op: 'add', steps };
    try {
      const next = applyBatchOperation(state.plan, together, EVENT);
      pushChange(state.changes, state.plan, next, together);
      for (const add of adds) state.operations.push(add.operation);
      state.plan = next;
      adds.length = 0;
      return;
    } catch (error) {
      if (!ToolValidationError.isInstance(error)) throw error;
    }
  }
  for (const add of adds) applyOne(state, add.raw, add.index, add.operation, context);
  adds.length = 0;
}

/** True when one of the operations sets up a plan. */
function setsUp(raws: readonly Raw[]): boolean {
  for (let i = 0; i < raws.length; i++) if ((raws[i] as Raw).op === 'setup') return true;
  return false;
}

/**
 * The `planning_apply_batch` tool: several plan changes in one call, applied in order, all or
 * nothing: a new plan (`setup`), new steps, edits, marks and notes, so one call can set up a
 * plan and start its first step, or finish a step and start the next. The handler runs every
 * operation against the plan as the earlier ones leave it, with the same checks the single
 * tools make; on any refusal it lists every refused operation and why, and the plan is
 * untouched. @internal
 */
export function createBatchTool(
  context: BatchToolContext,
): Tool<PlanBatchInput, PlanBatch, PlanBatchInput> {
  const dependencies = context.dependencies !== null;
  return defineTool({
    name: 'planning_apply_batch',
    description: DESCRIPTION,
    parameters: batchParameters(dependencies) as unknown as z.ZodType<
      PlanBatchInput,
      PlanBatchInput
    >,
    resultType: PlanBatch,
    acceptsOverrides: context.acceptsOverrides,
    traits: BATCH_TRAITS,
    handler: (params, { session }) => {
      const raws = params.operations as readonly Raw[];
      const start = selectLatest(context.prepare(session), Plan);
      // Without a plan only a batch that sets one up can apply; say so once, not per operation.
      if (start === undefined && !setsUp(raws))
        throw new ToolValidationError('No plan is currently initialised.', {
          code: 'plan_missing',
        });
      if (raws.length === 0)
        throw new ToolValidationError('Provide at least one operation.', {
          code: 'steps_empty',
          field: 'operations',
        });
      if (raws.length > MAX_BATCH_OPERATIONS) {
        throw new ToolValidationError(
          `A batch holds at most ${MAX_BATCH_OPERATIONS} operations; got ${raws.length}.`,
          { code: 'batch_refused', field: 'operations' },
        );
      }
      const state: Applying = {
        plan: start,
        operations: [],
        changes: [],
        warnings: [],
        reasons: [],
        adds: [],
      };
      for (let i = 0; i < raws.length; i++) {
        const raw = raws[i] as Raw;
        let operation: BatchOperation;
        try {
          operation = normalise(raw, pathsOf(i), context);
        } catch (error) {
          applyAdds(state, context);
          refuse(state, raw, i, error);
          continue;
        }
        if (operation.op === 'add' && !hasDependencies(operation.steps)) {
          state.adds.push({ index: i, raw, operation });
          continue;
        }
        applyAdds(state, context);
        applyOne(state, raw, i, operation, context);
      }
      applyAdds(state, context);
      const { operations, changes, warnings, reasons, plan } = state;
      if (reasons.length > 0) {
        throw new ToolValidationError(
          joinWithin(
            `Batch refused; nothing was changed. ${reasons.length} of ${raws.length} operations failed: `,
            reasons,
          ),
          { code: 'batch_refused', field: 'operations' },
        );
      }
      // Every operation was built field by field from the parsed params through the text
      // rules, and applied: each id it names is one of a plan's steps (see trustedValue).
      // The list is frozen here and each operation as normalise built it, so trustedValue's
      // deep freeze has nothing to walk; the object itself is frozen there, after its brand.
      const value = withBatchResult({ operations: Object.freeze(operations) }, start, plan as Plan);
      return {
        message: appliedMessage(operations.length, changes, warnings),
        value: trustedValue(PlanBatch, value),
      };
    },
  });
}
