import type { Result } from '@plankit/core';
import { deepFreeze, isRecord } from '@plankit/core/internal-unstable';
import type { MachineSnapshot } from '../../engine/machine-snapshot.ts';
import { argumentError, fail } from '../internal/checks.ts';
import { stepMachine, type WorkflowMachine } from '../internal/step-machine.ts';
import type { WorkflowError } from '../workflow-error.ts';
import { checkFilePlan } from './check-file-plan.ts';
import { renderPlanMarkdown } from './render-plan-markdown.ts';
import { type WorkshopOutcome, type WorkshopStage, workshopMachine } from './workshop-machine.ts';
import { FilePlan, WorkshopPlan } from './workshop-plan.ts';
import type { WorkshopState } from './workshop-state.ts';

/** The artifact holding the structured plan. */
export const JSON_PLAN = 'planning.ai.json';
/** The markdown projection of the JSON plan. */
export const MARKDOWN_PLAN = 'plan.md';
/** The file plan. */
export const FILE_PLAN = 'plan.files.json';

const WORKSHOP_MACHINE: WorkflowMachine<WorkshopStage, WorkshopOutcome> = {
  machine: workshopMachine,
  name: 'the workshop machine',
  field: 'state.machine',
};

/** Throws unless `state` looks like a workshop; its parts are trusted from there. */
export function ensureWorkshop(where: string, state: unknown): asserts state is WorkshopState {
  if (!isRecord(state) || state['format'] !== 'plankit.workshop' || !isRecord(state['machine'])) {
    throw argumentError(where, 'state', 'must be a workshop (startWorkshop, workshopFromJSON)');
  }
}

/** `workshop_done` once the workshop reached review_ready. */
export function doneProblem(
  where: string,
  state: WorkshopState,
): Result<never, WorkflowError> | null {
  if (state.machine.status !== 'done') return null;
  return fail(
    'workshop_done',
    `${where}: the workshop is review_ready; redo it to plan again.`,
    'state',
  );
}

/** Moves the machine by `outcome`; any refusal is `machine_refused`. */
export function stepWorkshop(
  where: string,
  state: WorkshopState,
  outcome: WorkshopOutcome,
  now: number,
  reason: string | null,
): Result<MachineSnapshot<WorkshopStage, WorkshopOutcome>, WorkflowError> {
  const next = stepMachine(where, WORKSHOP_MACHINE, state.machine, outcome, now, reason);
  if (!next.ok || next.value.status !== 'frozen') return next;
  return fail('machine_refused', `${where}: a cap froze the workshop machine`, 'state.machine');
}

/** The state after a step, deeply frozen. */
export function nextWorkshop(
  state: WorkshopState,
  patch: Partial<WorkshopState> & { readonly updatedAt: number },
): WorkshopState {
  return deepFreeze({ ...state, ...patch });
}

/** An artifact's text, or undefined when it has not been written. */
export function artifactText(state: WorkshopState, name: string): string | undefined {
  return state.artifacts.find((artifact) => artifact.name === name)?.content;
}

function parsed<T>(
  text: string,
  schema: { safeParse(value: unknown): { success: boolean; data?: T } },
): T | undefined {
  try {
    const result = schema.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What keeps a formalizing round from review_ready: missing artifacts, a `plan.md` that is not
 * the projection of the JSON plan, and a file plan inconsistent with it (the workshop's invariants
 * 2 to 4). Signals the agent reported are the caller's.
 */
export function artifactProblems(state: WorkshopState): string[] {
  const problems: string[] = [];
  for (const name of state.artifactNames) {
    if (artifactText(state, name) === undefined) problems.push(`${name} has not been written.`);
  }
  const jsonText = artifactText(state, JSON_PLAN);
  const plan = jsonText === undefined ? undefined : parsed(jsonText, WorkshopPlan);
  if (jsonText !== undefined && plan === undefined)
    problems.push(`${JSON_PLAN} is not a valid plan.`);
  if (plan === undefined) return problems;
  const markdown = artifactText(state, MARKDOWN_PLAN);
  if (markdown !== undefined && markdown !== renderPlanMarkdown(plan)) {
    problems.push(
      `${MARKDOWN_PLAN} is not the rendering of ${JSON_PLAN}; write ${JSON_PLAN} again to render it.`,
    );
  }
  const filesText = artifactText(state, FILE_PLAN);
  if (filesText !== undefined) {
    const filePlan = parsed(filesText, FilePlan);
    if (filePlan === undefined) problems.push(`${FILE_PLAN} is not a valid file plan.`);
    else problems.push(...checkFilePlan(plan, filePlan));
  }
  return problems;
}
