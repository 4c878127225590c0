import { defineTool, type Tool } from '../../define-tool.ts';
import { clipText, escapeControl, REFUSAL_LIMIT } from '../../internal/refusal-text.ts';
import { trustedValue } from '../../internal/trusted-value.ts';
import { selectLatest } from '../../select-latest.ts';
import type { Session } from '../../session.ts';
import { ToolValidationError } from '../../tool-validation-error.ts';
import type { NewDependentStep } from '../dependencies/dependency-commands.ts';
import type { ResolvedDependencies } from '../dependencies/dependency-options.ts';
import { Plan, type PlanStep, type StepStatus } from '../plan.ts';
import { stepIndex } from '../plan-checks.ts';
import { planningToolTraits } from '../planning-tool-traits.ts';
import type { TextMode } from '../text-mode.ts';
import { appliedMessage, type Change, pushChange } from './applied-batch-message.ts';
import {
  batchParameters,
  normaliseBatchOperation,
  type PlanBatchInput,
  pathsOf,
  type Raw,
} from './batch-operation-input.ts';
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
  /** The tools' text mode: the rules every operation's text is checked by. */
  readonly text: TextMode;
  /** The in-progress rule sentence, or `null` when any number may be in progress. */
  readonly singleRule: string | null;
  /** The `dependencies()` extension's rule, or `null` when off: operations take `depends_on`. */
  readonly dependencies: ResolvedDependencies | null;
  /** Every extension's checks of a step about to be marked or noted. */
  readonly checkMarkTarget: (step: PlanStep) => void;
  /** Every extension's checks of a mark, after the reference ones: their warnings, or `null`. */
  readonly checkMark: (plan: Plan, index: number, status: StepStatus) => string | null;
}

// A batch may mark and edit (overwrites) and add notes or steps (appends); it may begin with a
// setup, so it can start a plan.
const BATCH_TRAITS = planningToolTraits({
  title: 'Apply a batch of plan changes',
  plan: 'start',
  readOnly: false,
  destructive: true,
  idempotent: false,
});

// Each thing the model reads is said once: the tool's description says what a batch does,
// the op field which fields each operation takes; the other fields carry no descriptions, and
// the text limits are named by the refusals.
const DESCRIPTION =
  'Apply plan changes in order, all or none. To advance, mark a step done and the next in_progress.';

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
    parameters: batchParameters(dependencies),
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
          operation = normaliseBatchOperation(
            raw,
            pathsOf(i),
            context.dependencies !== null,
            context.text,
          );
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
