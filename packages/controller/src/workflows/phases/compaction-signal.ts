import type { Plan, TextMode } from '@plankit/core';
import { isRecord } from '@plankit/core/internal-unstable';
import { toPlanAnchor } from '@plankit/prompt';
import { argumentError, checkOptions, isInteger, workflowTextMode } from '../internal/checks.ts';
import type { PhaseJob } from './phase-job.ts';
import { ensureJob } from './phase-step.ts';
import { todosPlan } from './todos-plan.ts';

/** The host should compact the conversation now. @public */
export interface CompactionSignal {
  /** Always `compaction_due`. */
  readonly type: 'compaction_due';
  /** The context size reported. */
  readonly contextTokens: number;
  /** The job's threshold, which it is over. */
  readonly threshold: number;
  /** The plan anchor (`@plankit/prompt`) to append to the compaction summary. */
  readonly anchor: string;
}

/** What {@link compactionSignal} takes. @public */
export interface CompactionInput {
  /** The tokens of the conversation so far (system prompt included, as the host counts them). */
  readonly contextTokens: number;
  /** The agent's own plan, when it keeps one with the planning tools; else the todos are used. */
  readonly plan?: Plan | undefined;
  /**
   * The planning tools' text mode, for the todos' plan (`todosPlan`): `'unicode'` keeps todos
   * in any language as they are; `'ascii'` (the default) writes non-ASCII as `\uXXXX`.
   */
  readonly text?: TextMode | undefined;
}

const KEYS: ReadonlySet<string> = new Set(['contextTokens', 'plan', 'text']);

/**
 * Mid-phase compaction: within a phase the conversation can still grow, so past the
 * job's `compactionThreshold` (80,000 tokens by default) the host should summarise older
 * messages and keep recent ones. The signal carries the plan anchor to append to the summary,
 * so the plan survives word for word: of `input.plan` when given, else of the phase's todos
 * (`todosPlan`, in `input.text`'s mode: `'unicode'` keeps todos in any language).
 *
 * @returns the signal when `contextTokens` is over the threshold, else null
 * @throws WorkflowError `argument_invalid` for a value that is not a phase job, or bad input
 * @example
 * ```ts
 * const due = compactionSignal(job, { contextTokens: usage.input_tokens });
 * if (due) messages = [summary(messages), { role: 'user', content: due.anchor }, ...recent];
 * ```
 * @public
 */
export function compactionSignal(job: PhaseJob, input: CompactionInput): CompactionSignal | null {
  ensureJob('compactionSignal', job);
  checkOptions('compactionSignal', input, KEYS, 'input');
  const { contextTokens, plan } = input;
  const text = workflowTextMode('compactionSignal', input.text ?? 'ascii', 'input.text');
  if (!isInteger(contextTokens, 0, Number.MAX_SAFE_INTEGER)) {
    throw argumentError(
      'compactionSignal',
      'input.contextTokens',
      'must be a non-negative integer',
    );
  }
  if (plan !== undefined && (!isRecord(plan) || !Array.isArray(plan.steps))) {
    throw argumentError('compactionSignal', 'input.plan', 'must be a core Plan');
  }
  const threshold = job.settings.compactionThreshold;
  if (contextTokens <= threshold) return null;
  return Object.freeze({
    type: 'compaction_due',
    contextTokens,
    threshold,
    anchor: toPlanAnchor(plan ?? todosPlan(job, { text })),
  });
}
