import * as z from 'zod';
import { defineTool, type Tool } from '../../define-tool.ts';
import { clipText, REFUSAL_LIMIT } from '../../internal/refusal-text.ts';
import type { Session } from '../../session.ts';
import { ToolValidationError } from '../../tool-validation-error.ts';
import { normaliseDependsOn } from '../dependencies/dependency-commands.ts';
import type { ResolvedDependencies } from '../dependencies/dependency-options.ts';
import { openDependencyRule } from '../dependencies/open-dependency-rule.ts';
import { heldByOther } from '../owners/owner-commands.ts';
import { type Plan, type PlanStep, StepStatus } from '../plan.ts';
import { ensureStatus, requirePlan, stepIndex } from '../plan-checks.ts';
import type { NewPlanStep, NewPlanStepInput } from '../plan-commands.ts';
import { PLANNING_TOOL_TRAITS } from '../planning-tool-traits.ts';
import { optionalText, PLANNING_LIMITS, requiredText, stepIdText } from '../text-rules.ts';
import {
  applyBatchOperation,
  type BatchOperation,
  MAX_BATCH_OPERATIONS,
  PlanBatch,
} from './plan-batch.ts';

/** What the batch tool shares with `createPlanningTools`. @internal */
export interface BatchToolContext {
  readonly acceptsOverrides: boolean;
  readonly prepare: (session: Session) => Session;
  readonly normaliseSteps: (steps: readonly NewPlanStep[], field: string) => NewPlanStep[];
  /** The in-progress rule sentence, or `null` when any number may be in progress. */
  readonly singleRule: string | null;
  /** The `dependencies` option, or `null` when off. */
  readonly dependencies: ResolvedDependencies | null;
  /** With the `owners` option, the agent the tools act for; `null` when off. */
  readonly owner?: string | null | undefined;
}

/** One operation as the model sends it. @public */
export type BatchOperationInput =
  | {
      readonly op: 'mark';
      readonly step_id: string;
      readonly status: StepStatus;
      readonly note?: string | null | undefined;
    }
  | { readonly op: 'note'; readonly step_id: string; readonly note: string }
  | {
      readonly op: 'update';
      readonly step_id: string;
      readonly title?: string | null | undefined;
      readonly details?: string | null | undefined;
      readonly depends_on?: readonly string[] | null | undefined;
    }
  | {
      readonly op: 'add';
      readonly steps: readonly (NewPlanStepInput & {
        readonly depends_on?: readonly string[] | undefined;
      })[];
    };

/** `planning_apply_batch`'s parameters, as the model sends them. @public */
export interface PlanBatchInput {
  /** The operations, applied in order. */
  readonly operations: readonly BatchOperationInput[];
}

const stepId = z.string().describe('Id of the step, such as S001.');
const optional = (text: string) => z.string().nullable().default(null).describe(text);

// The wire schema: depends_on fields appear only with the dependencies option.
function batchParameters(dependencies: boolean) {
  const dependsOn = z
    .array(z.string())
    .default([])
    .describe('Ids of the steps this one waits for.');
  const newStep = z.strictObject({
    title: z.string().describe('Step title, 1-160 ASCII characters.'),
    details: optional('Optional details, up to 512 ASCII characters.'),
    ...(dependencies ? { depends_on: dependsOn } : {}),
  });
  const operation = z.discriminatedUnion('op', [
    z.strictObject({
      op: z.literal('mark'),
      step_id: stepId,
      status: StepStatus.describe('The new status.'),
      note: optional('Optional note, up to 512 ASCII characters.'),
    }),
    z.strictObject({
      op: z.literal('note'),
      step_id: stepId,
      note: z.string().describe('Note to append, up to 512 ASCII characters.'),
    }),
    z.strictObject({
      op: z.literal('update'),
      step_id: stepId,
      title: optional('New title, 1-160 ASCII characters.'),
      details: optional('New details, up to 512 ASCII characters.'),
      ...(dependencies
        ? {
            depends_on: z
              .array(z.string())
              .nullable()
              .default(null)
              .describe('New dependencies, replacing the old ones.'),
          }
        : {}),
    }),
    z.strictObject({
      op: z.literal('add'),
      steps: z.array(newStep).describe('Steps to append, in order.'),
    }),
  ]);
  return z.strictObject({
    operations: z
      .array(operation)
      .describe(`1-${MAX_BATCH_OPERATIONS} operations, applied in order, all or none.`),
  });
}

interface Raw {
  readonly op: string;
  readonly step_id?: unknown;
  readonly status?: unknown;
  readonly note?: unknown;
  readonly title?: unknown;
  readonly details?: unknown;
  readonly depends_on?: unknown;
  readonly steps?: unknown;
}

function normalise(raw: Raw, field: string, context: BatchToolContext): BatchOperation {
  const step_id = (): string => stepIdText(raw.step_id as string);
  switch (raw.op) {
    case 'mark':
      return {
        op: 'mark',
        step_id: step_id(),
        status: ensureStatus(raw.status as string),
        note: optionalText(
          raw.note as string | null,
          `${field}.note`,
          'Note',
          PLANNING_LIMITS.note,
          true,
        ),
      };
    case 'note': {
      const id = step_id();
      const note = requiredText(raw.note as string, `${field}.note`, 'Note', PLANNING_LIMITS.note);
      return { op: 'note', step_id: id, note };
    }
    case 'update': {
      const id = step_id();
      const title =
        raw.title === null
          ? null
          : requiredText(raw.title as string, `${field}.title`, 'Title', PLANNING_LIMITS.title);
      const details = optionalText(
        raw.details as string | null,
        `${field}.details`,
        'Details',
        PLANNING_LIMITS.details,
      );
      const list = raw.depends_on as readonly string[] | null | undefined;
      const depends_on =
        list === null || list === undefined
          ? null
          : normaliseDependsOn(list, `${field}.depends_on`);
      if (title === null && details === null && depends_on === null) {
        throw new ToolValidationError(
          context.dependencies === null
            ? 'Provide a new title or details to update a step.'
            : 'Provide a new title, details or depends_on to update a step.',
          { code: 'update_empty' },
        );
      }
      return { op: 'update', step_id: id, title, details, depends_on };
    }
    case 'add': {
      const input = raw.steps as readonly (NewPlanStep & { depends_on?: string[] })[];
      const plain = context.normaliseSteps(input, `${field}.steps`);
      if (plain.length === 0)
        throw new ToolValidationError('Provide at least one step to add.', { code: 'steps_empty' });
      const steps = plain.map((step, i) => {
        const list = input[i]?.depends_on;
        return list === undefined
          ? step
          : { ...step, depends_on: normaliseDependsOn(list, `${field}.steps[${i}].depends_on`) };
      });
      return { op: 'add', steps };
    }
    default:
      throw new ToolValidationError(`Unknown operation ${clipText(String(raw.op), 40)}.`, {
        code: 'schema',
      });
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
  const holder = (plan.steps[index] as PlanStep).owner;
  if (context.owner != null && holder !== undefined && holder !== context.owner)
    throw heldByOther(operation.step_id, holder, `only ${holder} can mark it`);
  if (operation.op !== 'mark') return null;
  if (context.singleRule !== null && operation.status === 'in_progress') {
    const other = plan.steps.find(
      (step) => step.status === 'in_progress' && step.step_id !== operation.step_id,
    );
    if (other !== undefined) {
      throw new ToolValidationError(
        `${context.singleRule} Step ${other.step_id} is already in_progress; mark it done, blocked or pending first.`,
        { code: 'step_in_progress', field: 'status' },
      );
    }
  }
  if (context.dependencies === null) return null;
  return openDependencyRule(plan, index, operation.status, context.dependencies.onOpenDependency);
}

/** One applied operation as the result names it: in full, and in a short form for long batches. */
interface Change {
  readonly full: string;
  readonly short: string;
}

// Up to this many added ids are listed; more are named as a range (ids of one add are
// consecutive) with a count, so an entry stays short whatever the number of steps.
const LISTED_IDS = 3;

const thousands = (n: number): string => String(n).replace(/\B(?=(\d{3})+$)/g, ',');

function describe(before: Plan, after: Plan, operation: BatchOperation): Change {
  switch (operation.op) {
    case 'mark':
      return {
        full: `${operation.step_id} marked as ${operation.status}`,
        short: `${operation.step_id} ${operation.status}`,
      };
    case 'note':
      return { full: `note added to ${operation.step_id}`, short: `${operation.step_id} note` };
    case 'update':
      return { full: `${operation.step_id} updated`, short: `${operation.step_id} updated` };
    case 'add': {
      const ids = after.steps.slice(before.steps.length).map((step: PlanStep) => step.step_id);
      const first = ids[0] ?? '';
      const last = ids[ids.length - 1] ?? '';
      const range = ids.length === 1 ? first : `${first} … ${last}`;
      return {
        full:
          ids.length <= LISTED_IDS
            ? `added ${ids.join(', ')}`
            : `added ${range}, ${thousands(ids.length)} steps`,
        short: `added ${range}`,
      };
    }
    default: {
      const unknown: never = operation;
      return { full: String(unknown), short: String(unknown) };
    }
  }
}

/**
 * The success message: every change, never dropped, under the refusal limit. Each change is
 * named in full when all fit, else in its short form (which a batch of
 * `MAX_BATCH_OPERATIONS` always fits: at most about 40 characters each); the warnings get the
 * room left, clipped.
 */
function appliedMessage(changes: readonly Change[], warnings: readonly string[]): string {
  const head = `Applied ${changes.length} operation${changes.length === 1 ? '' : 's'}: `;
  const limit = REFUSAL_LIMIT - 1;
  const full = `${head}${changes.map((change) => change.full).join('; ')}.`;
  const text =
    full.length <= limit ? full : `${head}${changes.map((change) => change.short).join('; ')}.`;
  if (warnings.length === 0) return clipText(text, limit);
  const room = limit - text.length - 1;
  return room < 20 ? text : `${text} ${clipText(warnings.join(' '), Math.min(600, room))}`;
}

const label = (raw: Raw, i: number): string => {
  const id = typeof raw.step_id === 'string' ? ` ${clipText(raw.step_id.trim(), 64)}` : '';
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

/**
 * The `planning_apply_batch` tool: several marks, notes, edits and additions in one call,
 * applied in order, all or nothing. The handler runs every operation against the plan as the
 * earlier ones leave it, with the same checks the single tools make; on any refusal it lists
 * every refused operation and why, and the plan is untouched. @internal
 */
export function createBatchTool(
  context: BatchToolContext,
): Tool<PlanBatchInput, PlanBatch, PlanBatchInput> {
  return defineTool({
    name: 'planning_apply_batch',
    description: 'Apply several step marks, notes, edits and additions at once, all or nothing.',
    parameters: batchParameters(context.dependencies !== null) as unknown as z.ZodType<
      PlanBatchInput,
      PlanBatchInput
    >,
    resultType: PlanBatch,
    acceptsOverrides: context.acceptsOverrides,
    traits: PLANNING_TOOL_TRAITS.batch,
    handler: (params, { session }) => {
      const start = requirePlan(context.prepare(session));
      const raws = params.operations as readonly Raw[];
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
      const event = { dataType: 'plankit.PlanBatch', sessionId: '', at: 0 };
      const operations: BatchOperation[] = [];
      const changes: Change[] = [];
      const warnings: string[] = [];
      const reasons: string[] = [];
      let plan = start;
      for (let i = 0; i < raws.length; i++) {
        const raw = raws[i] as Raw;
        try {
          const operation = normalise(raw, `operations[${i}]`, context);
          const warning = toolRules(plan, operation, context);
          const next = applyBatchOperation(plan, operation, event);
          changes.push(describe(plan, next, operation));
          if (warning !== null) warnings.push(warning);
          operations.push(operation);
          plan = next;
        } catch (error) {
          if (!ToolValidationError.isInstance(error)) throw error;
          // Each reason loses its full stop: the list is joined with semicolons and ends with one.
          reasons.push(`${label(raw, i)}: ${clipText(error.message, 300).replace(/\.$/, '')}`);
        }
      }
      if (reasons.length > 0) {
        throw new ToolValidationError(
          joinWithin(
            `Batch refused; nothing was changed. ${reasons.length} of ${raws.length} operations failed: `,
            reasons,
          ),
          { code: 'batch_refused', field: 'operations' },
        );
      }
      return { message: appliedMessage(changes, warnings), value: { operations } };
    },
  });
}
