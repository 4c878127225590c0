import * as z from 'zod';
import { clipText } from '../../internal/refusal-text.ts';
import { ToolValidationError } from '../../tool-validation-error.ts';
import { normaliseDependsOn } from '../dependencies/dependency-commands.ts';
import { StepStatus } from '../plan.ts';
import { ensureStatus } from '../plan-checks.ts';
import type { TextMode } from '../text-mode.ts';
import { optionalText, PLANNING_LIMITS, requiredText, stepIdText } from '../text-rules.ts';
import type { BatchOperation } from './plan-batch.ts';

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

function opDescription(dependencies: boolean): string {
  const deps = dependencies ? ', depends_on' : '';
  return `setup (objective; new plan), add (title, details${deps}), update (step_id, title, details${deps}), mark (step_id, status, note), note (step_id, note)`;
}

/** The wire schema of `planning_apply_batch`, with or without `depends_on`. @internal */
// The wire schema: depends_on appears only with the dependencies option. Each variant is built
// once: zod compiles a schema on its first parse, and a schema built per session (a pool makes
// one per conversation) would be built and compiled again for every one.
const built = new Map<boolean, z.ZodType<PlanBatchInput, PlanBatchInput>>();
export function batchParameters(dependencies: boolean): z.ZodType<PlanBatchInput, PlanBatchInput> {
  let parameters = built.get(dependencies);
  if (parameters === undefined) {
    // The schema parses raw operations, which the handler checks field by field.
    parameters = buildBatchParameters(dependencies) as unknown as z.ZodType<
      PlanBatchInput,
      PlanBatchInput
    >;
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

/** One operation as the schema parsed it, not yet checked field by field. @internal */
export type Raw = { readonly op: Op } & { readonly [K in Field]?: unknown };

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
export interface Paths {
  readonly operation: string;
  readonly objective: string;
  readonly title: string;
  readonly details: string;
  readonly note: string;
  readonly depends_on: string;
}

// Built once per index (at most MAX_BATCH_OPERATIONS), not per operation of every call.
const PATHS: Paths[] = [];
/** The paths refusals name for operation `i`, built once per index. @internal */
export function pathsOf(i: number): Paths {
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
export function normaliseBatchOperation(
  raw: Raw,
  paths: Paths,
  dependencies: boolean,
  mode: TextMode,
): BatchOperation {
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
          mode,
        ),
      });
    case 'add': {
      const title = requiredText(
        raw.title as string,
        paths.title,
        'Title',
        PLANNING_LIMITS.title,
        mode,
      );
      const details = optionalText(
        text(raw.details),
        paths.details,
        'Details',
        PLANNING_LIMITS.details,
        mode,
      );
      // With dependencies on, a step added without depends_on waits for nothing, as in add.
      const list =
        (raw.depends_on as readonly string[] | undefined) ?? (dependencies ? [] : undefined);
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
          : requiredText(raw.title as string, paths.title, 'Title', PLANNING_LIMITS.title, mode);
      const details = optionalText(
        text(raw.details),
        paths.details,
        'Details',
        PLANNING_LIMITS.details,
        mode,
      );
      const list = raw.depends_on as readonly string[] | undefined;
      const depends_on =
        list == null ? null : Object.freeze(normaliseDependsOn(list, paths.depends_on));
      if (title === null && details === null && depends_on === null) {
        throw new ToolValidationError(
          dependencies
            ? 'Provide a new title, details or depends_on to update a step.'
            : 'Provide a new title or details to update a step.',
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
        note: optionalText(text(raw.note), paths.note, 'Note', PLANNING_LIMITS.note, mode, true),
      });
    case 'note': {
      const id = stepIdText(raw.step_id as string);
      const note = requiredText(raw.note as string, paths.note, 'Note', PLANNING_LIMITS.note, mode);
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
