import { Session } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import { MarkdownSection } from './markdown-section.ts';
import { PlanningStrategy } from './planning-strategy.ts';
import { PlanningToolsSection } from './planning-tools-section.ts';
import { Prompt } from './prompt.ts';
import { PromptRenderError } from './prompt-render-error.ts';

function build(session = new Session({ sessionId: 'p' })) {
  const behaviour = new MarkdownSection<{ objective: string }>({
    title: 'Behaviour',
    key: 'behaviour',
    template: 'Stay focused on ${objective}.',
    children: [
      new MarkdownSection<{ tone: string }>({
        title: 'Tone',
        key: 'behaviour.tone',
        template: 'Be ${tone}.',
      }),
    ],
  });
  const planning = new PlanningToolsSection({
    session,
    strategy: PlanningStrategy.PLAN_ACT_REFLECT,
  });
  return new Prompt({
    ns: 'agents/background',
    key: 'session-plan',
    name: 'session-plan',
    sections: [behaviour, planning],
  });
}

describe('Prompt', () => {
  it('renders numbered sections with params keyed by section, and collects the tools in order', async () => {
    const prompt = build();
    const { markdown, tools } = prompt.render({
      behaviour: { objective: 'triage open bug reports' },
      'behaviour.tone': { tone: 'calm' },
    });
    await expect(markdown).toMatchFileSnapshot('./__snapshots__/prompt/session-plan.md');
    expect(markdown).toMatch(
      /^## 1\. Behaviour\n\nStay focused on triage open bug reports\.\n\n### 1\.1\. Tone\n\nBe calm\.\n\n## 2\. Planning Tools\n\n/,
    );
    expect(tools.map((tool) => tool.name)).toEqual([
      'planning_setup_plan',
      'planning_add_step',
      'planning_update_step',
      'planning_mark_step',
      'planning_clear_plan',
      'planning_read_plan',
    ]);
    expect(Object.isFrozen(tools)).toBe(true);
  });

  it('is deterministic across instances and sessions', () => {
    const params = { behaviour: { objective: 'x' }, 'behaviour.tone': { tone: 'y' } };
    expect(build().render(params).markdown).toBe(build(new Session()).render(params).markdown);
  });

  it('reports the section whose params are missing', () => {
    expect(() => build().render({ behaviour: { objective: 'x' } })).toThrow(
      "Section 'behaviour.tone' needs params for ${tone}.",
    );
    expect(() => build().render(null as never)).toThrow(PromptRenderError);
  });

  it('refuses duplicate keys, duplicate tools and bad identity', () => {
    const a = new MarkdownSection({ title: 'A', key: 'a', template: 'a' });
    const session = new Session();
    const base = { ns: 'n', key: 'k', name: 'n' };
    expect(() => new Prompt({ ...base, sections: [a, a] })).toThrow(
      "Section key 'a' appears twice.",
    );
    const nested = new MarkdownSection({ title: 'B', key: 'b', template: 'b', children: [a] });
    expect(() => new Prompt({ ...base, sections: [a, nested] })).toThrow(
      "Section key 'a' appears twice.",
    );
    const p1 = new PlanningToolsSection({ session });
    const p2 = new MarkdownSection({
      title: 'Wrap',
      key: 'wrap',
      template: 'w',
      children: [p1.clone({ session })],
    });
    expect(() => new Prompt({ ...base, sections: [p1, p2] })).toThrow(PromptRenderError);
    expect(() => new Prompt({ ...base, sections: [] })).toThrow(/non-empty array/);
    expect(() => new Prompt({ ...base, ns: '', sections: [a] })).toThrow(/Prompt ns/);
    expect(() => new Prompt({ ...base, key: 'has space', sections: [a] })).toThrow(/Prompt key/);
  });
});
