import { MarkdownSection } from '@plankit/prompt';
import { argumentError, checkOptions } from '../internal/checks.ts';
import { workshopMachine } from './workshop-machine.ts';
import { WORKSHOP_SIGNALS } from './workshop-signals.ts';
import { DEFAULT_WORKSHOP_ARTIFACTS } from './workshop-state.ts';

/** Options of {@link workshopSection}. @public */
export interface WorkshopSectionOptions {
  /** The planning outputs the workshop requires; the three standard ones by default. */
  readonly artifacts?: readonly string[] | undefined;
  /** The section's key; `workshop` by default. */
  readonly key?: string | undefined;
}

const WHERE = 'workshopSection';
const KEYS: ReadonlySet<string> = new Set(['artifacts', 'key']);

/**
 * The planning prompt's workshop section (the signals "SHOULD be documented in
 * the planning prompts"): the round structure, read from {@link workshopMachine}'s states, and
 * each signal, when to raise it and what it does, read from the same `WORKSHOP_SIGNALS` that
 * `workshopRound` reads, so the prompt and the machine cannot drift apart. Byte-stable, no
 * params.
 *
 * @throws WorkflowError `argument_invalid` for an unknown option or bad artifact names
 * @example
 * ```ts
 * const prompt = new Prompt({ ns: 'agents', key: 'planner', name: 'Planner', sections: [workshopSection()] });
 * prompt.render({}).markdown;
 * ```
 * @public
 */
export function workshopSection(options: WorkshopSectionOptions = {}): MarkdownSection {
  checkOptions(WHERE, options, KEYS);
  const artifacts = options.artifacts ?? DEFAULT_WORKSHOP_ARTIFACTS;
  if (
    !Array.isArray(artifacts) ||
    artifacts.length === 0 ||
    artifacts.some((name) => typeof name !== 'string' || !/^[^\s`$]{1,256}$/.test(name))
  ) {
    throw argumentError(WHERE, 'options.artifacts', 'must list file names without spaces');
  }
  const files = artifacts.map((name) => `\`${name}\``).join(', ');
  const states = workshopMachine.stateNames.map((name) => {
    const state = workshopMachine.states[name];
    if (state.kind === 'final')
      return `- \`${name}\`: done; every output is written and consistent.`;
    const next = [
      ...new Set(
        state.outcomes.flatMap((outcome) => (state.on[outcome] ?? []).map((c) => c.target)),
      ),
    ];
    return `- \`${name}\`: ${state.description ?? name}; then ${next.map((n) => `\`${n}\``).join(' or ')}.`;
  });
  const signals = WORKSHOP_SIGNALS.map(
    (signal) => `- \`${signal.name}\`: raise it when ${signal.raise}. ${signal.effect}.`,
  );
  return new MarkdownSection({
    key: options.key ?? 'workshop',
    title: 'Planning Workshop',
    template: [
      'Planning runs in rounds. After each round, report what was said and raise the signals that hold; a signal left out is false.',
      '',
      'Rounds move through these states:',
      ...states,
      '',
      'Signals:',
      ...signals,
      '',
      `Do not write the structured plan before formalizing. In formalizing, write ${files}; the plan reaches review only when all are written and consistent.`,
    ].join('\n'),
  });
}
