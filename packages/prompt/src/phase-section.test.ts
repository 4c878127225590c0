import { describe, expect, it } from 'vitest';
import { MarkdownSection } from './markdown-section.ts';
import { PhaseSection } from './phase-section.ts';
import { Prompt } from './prompt.ts';
import { PromptRenderError } from './prompt-render-error.ts';

const memory =
  '# Workspace\n\n- Sources live in `src/`.\n- Costs: $5 per run, template-like ${text} stays literal.';

describe('PhaseSection', () => {
  for (const phase of ['strategic', 'tactical'] as const) {
    it(`renders the ${phase} phase with the workspace memory injected`, async () => {
      const section = new PhaseSection({ phase });
      const markdown = section.render(
        { phase_number: 3, workspace_memory: memory },
        { number: '1' },
      );
      await expect(markdown).toMatchFileSnapshot(`./__snapshots__/phase/${phase}.md`);
      expect(markdown).toContain(memory);
      expect(markdown).toContain(
        `Current phase: 3 (${phase === 'strategic' ? 'Strategic' : 'Tactical'})`,
      );
      expect(markdown).toMatch(/^[\x20-\x7e\n]*$/);
    });
  }

  it('names the configured todo range in the strategic rules', () => {
    const section = new PhaseSection({ phase: 'strategic', todoRange: { min: 3, max: 8 } });
    expect(section.render({ phase_number: 1, workspace_memory: 'm' })).toContain(
      '- Write todos to todos.yaml (3-8 items per phase)',
    );
    expect(
      new PhaseSection({ phase: 'strategic' }).render({ phase_number: 1, workspace_memory: 'm' }),
    ).toContain('(5-20 items per phase)');
  });

  it('shows (empty) for blank memory', () => {
    const markdown = new PhaseSection({ phase: 'tactical' }).render({
      phase_number: 2,
      workspace_memory: '  \n ',
    });
    expect(markdown).toContain('### Workspace Memory\n\n(empty)');
  });

  it('works inside a prompt, next to other sections', () => {
    const prompt = new Prompt({
      ns: 'jobs',
      key: 'strategic',
      name: 'strategic',
      sections: [
        new PhaseSection({ phase: 'strategic' }),
        new MarkdownSection({ title: 'Job', key: 'job', template: 'Extract requirements.' }),
      ],
    });
    const { markdown, tools } = prompt.render({
      'phase.strategic': { phase_number: 1, workspace_memory: 'm' },
    });
    expect(markdown).toMatch(/^## 1\. Strategic Phase\n\n/);
    expect(markdown).toContain('### 1.2. Workspace Memory\n\nm');
    expect(markdown).toContain('## 2. Job\n\nExtract requirements.');
    expect(tools).toEqual([]);
  });

  it('refuses bad params and options', () => {
    const section = new PhaseSection({ phase: 'strategic' });
    expect(() => section.render()).toThrow(PromptRenderError);
    expect(() => section.render({ phase_number: 0, workspace_memory: '' })).toThrow(/phase_number/);
    expect(() => section.render({ phase_number: 1, workspace_memory: 5 as never })).toThrow(
      /workspace_memory/,
    );
    expect(() => new PhaseSection({ phase: 'review' as never })).toThrow(/strategic or tactical/);
    expect(() => new PhaseSection({ phase: 'tactical', todoRange: { min: 5, max: 4 } })).toThrow(
      /todoRange/,
    );
    expect(() => section.render({ phase_number: 1, workspace_memory: '' }, { depth: 9 })).toThrow(
      /depth/,
    );
  });
});
