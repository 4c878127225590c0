import type { Result } from '@plankit/core';
import { formatPath } from '@plankit/core/internal-unstable';
import type * as z from 'zod';
import { keyText, show } from '../../internal/checks.ts';
import { issueRule } from '../../internal/read-document.ts';
import { fail, inputError, inputProblem } from '../internal/checks.ts';
import type { WorkflowError } from '../workflow-error.ts';
import { renderPlanMarkdown } from './render-plan-markdown.ts';
import { FilePlan, WorkshopPlan } from './workshop-plan.ts';
import { WORKSHOP_LIMITS, type WorkshopArtifact, type WorkshopState } from './workshop-state.ts';
import {
  doneProblem,
  ensureWorkshop,
  FILE_PLAN,
  JSON_PLAN,
  MARKDOWN_PLAN,
  nextWorkshop,
} from './workshop-step.ts';

/** What {@link writeArtifact} takes. @public */
export interface WriteArtifactInput {
  /** When, in epoch milliseconds; not earlier than the state's `updatedAt`. */
  readonly now: number;
  /** One of the configured artifacts; never `plan.md`, which is rendered. */
  readonly name: string;
  /**
   * Its text (JSON for `planning.ai.json` and `plan.files.json`), at most 1 MiB; so is what is
   * stored from it (the canonical JSON, and `plan.md` rendered from the plan).
   */
  readonly content: string;
}

const WHERE = 'writeArtifact';
const KEYS: ReadonlySet<string> = new Set(['now', 'name', 'content']);

/** JSON text checked against `schema`, back as canonical text: two-space indent, trailing newline. */
function canonical<T>(
  name: string,
  text: string,
  schema: z.ZodType<T>,
): Result<{ data: T; text: string }, WorkflowError> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return fail('artifact_invalid', `${name} is not valid JSON: ${reason}`, name, cause);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue === undefined ? '' : formatPath(issue.path, keyText);
    return fail(
      'artifact_invalid',
      `${name}${at === '' ? '' : ` ${at}`}: ${issueRule(issue, false)}.`,
      at === '' ? name : `${name}:${at}`,
    );
  }
  return {
    ok: true,
    value: { data: parsed.data, text: `${JSON.stringify(parsed.data, null, 2)}\n` },
  };
}

/**
 * Writes a planning output, enforcing the invariants: artifacts are written only
 * while formalizing, so no structured plan exists before it (`artifact_out_of_phase`);
 * `planning.ai.json` is the single source of truth, checked against `WorkshopPlan`, stored as
 * canonical JSON, with `plan.md` rendered from it (writing `plan.md` itself is
 * `artifact_projection`); `plan.files.json` is checked against `FilePlan` (its consistency
 * with the plan is checked by the formalizing round). Every stored artifact, canonical JSON
 * and rendered `plan.md` included, must fit the 1 MiB artifact limit (`artifact_invalid`), so
 * every state this returns reads back with `workshopFromJSON`.
 *
 * @returns the next state, or a {@link WorkflowError}: `artifact_unknown`,
 *   `artifact_out_of_phase`, `artifact_projection`, `artifact_invalid` naming the field,
 *   `workshop_done`, `input_invalid`
 * @throws WorkflowError `argument_invalid` for a value that is not a workshop
 * @example
 * ```ts
 * const next = writeArtifact(state, { now, name: 'planning.ai.json', content: JSON.stringify(plan) });
 * ```
 * @public
 */
export function writeArtifact(
  state: WorkshopState,
  input: WriteArtifactInput,
): Result<WorkshopState, WorkflowError> {
  ensureWorkshop(WHERE, state);
  const problem = inputProblem(WHERE, input, KEYS, state.updatedAt);
  if (problem !== null) return { ok: false, error: problem };
  const { name, content, now } = input;
  if (typeof name !== 'string')
    return { ok: false, error: inputError(WHERE, 'input.name', 'must be a string') };
  if (typeof content !== 'string' || content.length > WORKSHOP_LIMITS.artifact) {
    return {
      ok: false,
      error: inputError(
        WHERE,
        'input.content',
        `must be a string of at most ${WORKSHOP_LIMITS.artifact} characters`,
      ),
    };
  }
  const done = doneProblem(WHERE, state);
  if (done !== null) return done;
  if (!state.artifactNames.includes(name)) {
    return fail(
      'artifact_unknown',
      `${show(name)} is not a planning output; the outputs are ${state.artifactNames.join(', ')}.`,
      'name',
    );
  }
  if (state.machine.state !== 'formalizing') {
    return fail(
      'artifact_out_of_phase',
      `${name} can only be written while formalizing; the workshop is in ${state.machine.state}. No structured plan exists before formalizing.`,
      'name',
    );
  }
  const written = new Map(state.artifacts.map((artifact) => [artifact.name, artifact.content]));
  switch (name) {
    case MARKDOWN_PLAN:
      return fail(
        'artifact_projection',
        `${MARKDOWN_PLAN} is rendered from ${JSON_PLAN}; write ${JSON_PLAN} instead.`,
        'name',
      );
    case JSON_PLAN: {
      const plan = canonical(name, content, WorkshopPlan);
      if (!plan.ok) return plan;
      written.set(JSON_PLAN, plan.value.text);
      if (state.artifactNames.includes(MARKDOWN_PLAN))
        written.set(MARKDOWN_PLAN, renderPlanMarkdown(plan.value.data));
      break;
    }
    case FILE_PLAN: {
      const files = canonical(name, content, FilePlan);
      if (!files.ok) return files;
      written.set(FILE_PLAN, files.value.text);
      break;
    }
    default:
      written.set(name, content);
  }
  // What is stored, not what came in, must fit: canonical JSON is indented and plan.md is
  // rendered, both larger than the input, and workshopFromJSON reads back only what fits.
  for (const [artifactName, text] of written) {
    if (text.length > WORKSHOP_LIMITS.artifact) {
      const stored =
        artifactName === name
          ? `${name} is stored as`
          : `${artifactName}, rendered from ${name}, is`;
      return fail(
        'artifact_invalid',
        `${stored} ${text.length} characters, over the limit of ${WORKSHOP_LIMITS.artifact}; write a smaller ${name}.`,
        name,
      );
    }
  }
  const artifacts: WorkshopArtifact[] = [];
  for (const artifactName of state.artifactNames) {
    const text = written.get(artifactName);
    if (text !== undefined) artifacts.push({ name: artifactName, content: text });
  }
  return { ok: true, value: nextWorkshop(state, { artifacts, updatedAt: now }) };
}
