import { PhaseSection } from '@plankit/prompt';
import { describe, expect, it } from 'vitest';
import { planned } from '../testing/review-fixtures.ts';
import { phasePrompt } from './phase-prompt.ts';
import { startPhaseJob } from './start-phase-job.ts';

describe('phasePrompt', () => {
  it("renders @plankit/prompt's PhaseSection with the phase, number, range and memory", () => {
    const job = startPhaseJob({ jobId: 'j', now: 0, todoRange: { min: 3, max: 9 } });
    const prompt = phasePrompt(job, { workspaceMemory: '- The data is in data/.' });
    expect(prompt).toBe(
      new PhaseSection({ phase: 'strategic', todoRange: { min: 3, max: 9 } }).render({
        phase_number: 1,
        workspace_memory: '- The data is in data/.',
      }),
    );
    expect(prompt).toContain('Current phase: 1 (Strategic)');
    expect(prompt).toContain('- The data is in data/.');
    expect(prompt).toContain('(3-9 items per phase)');
    const tactical = planned(startPhaseJob({ jobId: 'j', now: 0 }), 0);
    expect(phasePrompt(tactical, { workspaceMemory: '' })).toContain('Current phase: 2 (Tactical)');
  });

  it('refuses memory that is not text', () => {
    const job = startPhaseJob({ jobId: 'j', now: 0 });
    expect(() => phasePrompt(job, { workspaceMemory: null as never })).toThrow(/workspaceMemory/);
  });
});
