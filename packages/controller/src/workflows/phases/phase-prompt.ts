import { PhaseSection } from '@plankit/prompt';
import { argumentError, checkOptions } from '../internal/checks.ts';
import type { PhaseJob } from './phase-job.ts';
import { ensureJob } from './phase-step.ts';

/** What {@link phasePrompt} takes. @public */
export interface PhasePromptInput {
  /** The text of `workspace.md`, injected as is (`(empty)` when blank). */
  readonly workspaceMemory: string;
}

const KEYS: ReadonlySet<string> = new Set(['workspaceMemory']);
/**
 * The system prompt of the job's current phase: `@plankit/prompt`'s `PhaseSection` for its
 * phase, number and todo range, with the workspace memory injected. Each phase starts a fresh
 * conversation, so render it again on every `phase_started`.
 *
 * @throws WorkflowError `argument_invalid` for a value that is not a phase job, or bad input
 * @example
 * ```ts
 * const system = phasePrompt(job, { workspaceMemory: await readFile('workspace.md', 'utf8') });
 * ```
 * @public
 */
export function phasePrompt(job: PhaseJob, input: PhasePromptInput): string {
  ensureJob('phasePrompt', job);
  checkOptions('phasePrompt', input, KEYS, 'input');
  if (typeof input.workspaceMemory !== 'string') {
    throw argumentError('phasePrompt', 'input.workspaceMemory', 'must be a string');
  }
  const { min, max } = job.settings.todoRange;
  const section = new PhaseSection({ phase: job.phase, todoRange: { min, max } });
  return section.render({
    phase_number: job.phaseNumber,
    workspace_memory: input.workspaceMemory,
  });
}
