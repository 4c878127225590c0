import { Prompt } from '@plankit/prompt';
import { describe, expect, it } from 'vitest';
import { compiled, round } from '../testing/workshop-steps.ts';
import { startWorkshop } from './start-workshop.ts';
import { workshopMachine } from './workshop-machine.ts';
import { type RoundSignals, workshopRound } from './workshop-round.ts';
import { workshopSection } from './workshop-section.ts';
import { WORKSHOP_SIGNAL_NAMES, WORKSHOP_SIGNALS } from './workshop-signals.ts';
import type { WorkshopState } from './workshop-state.ts';

const markdown = workshopSection().render();

/** The signals workshopRound accepts, read from its own refusal of an unknown one. */
function acceptedSignals(): string[] {
  const state = startWorkshop({ now: 0, brief: 'Add SSO.' });
  const refused = workshopRound(state, {
    now: 1,
    entries: [{ actor: 'planner', content: 'x' }],
    signals: { not_a_signal: true } as RoundSignals,
  });
  if (refused.ok) throw new Error('an unknown signal was accepted');
  const listed = /the signals are (.*)\.$/.exec(refused.error.message)?.[1] ?? '';
  return listed.split(', ');
}

const clarifying = (): WorkshopState => round(startWorkshop({ now: 0, brief: 'Add SSO.' }));

/** For each signal: a state, and where the workshop goes without it and with it raised. */
const EFFECTS: Record<string, [() => WorkshopState, RoundSignals, string, string]> = {
  blocking_questions: [clarifying, { blocking_questions: true }, 'workshop', 'clarifying'],
  no_new_info: [clarifying, { no_new_info: true }, 'workshop', 'formalizing'],
  commitment_readiness: [
    () => round(clarifying()),
    { commitment_readiness: true },
    'workshop',
    'formalizing',
  ],
  file_plan_consistency: [
    compiled,
    { file_plan_consistency: false },
    'review_ready',
    'formalizing',
  ],
};

describe('workshopSection', () => {
  it('matches the reviewed snapshot', async () => {
    await expect(markdown).toMatchFileSnapshot('./__snapshots__/workshop-section.md');
    expect(markdown).toMatch(/^[\x20-\x7e\n]*$/);
    expect(workshopSection().render()).toBe(markdown);
  });

  it('documents every signal the machine reads, and no other', () => {
    const accepted = acceptedSignals();
    expect(accepted).toEqual([...WORKSHOP_SIGNAL_NAMES]);
    for (const name of accepted) expect(markdown).toContain(`- \`${name}\`: raise it when `);
    const documented = [...markdown.matchAll(/^- `([a-z_]+)`: raise it when /gm)].map((m) => m[1]);
    expect(documented).toEqual(accepted);
    for (const signal of WORKSHOP_SIGNALS) {
      expect(markdown).toContain(signal.raise);
      expect(markdown).toContain(signal.effect);
    }
  });

  it('documents only signals that each change what the workshop does', () => {
    expect(Object.keys(EFFECTS)).toEqual([...WORKSHOP_SIGNAL_NAMES]);
    for (const [reach, signals, quietly, raised] of Object.values(EFFECTS)) {
      expect(round(reach()).machine.state).toBe(quietly);
      expect(round(reach(), signals).machine.state).toBe(raised);
    }
  });

  it('walks the round structure of the machine, in order, from its own descriptions', () => {
    const listed = [...markdown.matchAll(/^- `([a-z_]+)`: (?!raise)/gm)].map((m) => m[1]);
    expect(listed).toEqual([...workshopMachine.stateNames]);
    for (const name of workshopMachine.stateNames) {
      const description = workshopMachine.states[name].description;
      if (description !== null) expect(markdown).toContain(description);
    }
    expect(markdown).toContain('`planning.ai.json`, `plan.md`, `plan.files.json`');
  });

  it('names configured artifacts, takes a key, renders in a Prompt, and refuses bad options', () => {
    const custom = workshopSection({ artifacts: ['plan.json'], key: 'planning.workshop' });
    expect(custom.key).toBe('planning.workshop');
    expect(custom.render()).toContain('write `plan.json`;');
    const prompt = new Prompt({
      ns: 'agents',
      key: 'planner',
      name: 'Planner',
      sections: [custom],
    });
    expect(prompt.render({}).markdown).toContain('## 1. Planning Workshop');
    expect(() => workshopSection({ artifacts: [] })).toThrow(/options\.artifacts/);
    expect(() => workshopSection({ artifacts: ['a b'] })).toThrow(/options\.artifacts/);
    expect(() => workshopSection({ colour: 'red' } as never)).toThrow(/colour/);
  });
});
