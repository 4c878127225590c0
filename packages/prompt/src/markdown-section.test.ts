import { describe, expect, it } from 'vitest';
import { MarkdownSection } from './markdown-section.ts';
import { PromptRenderError } from './prompt-render-error.ts';

function renderError(run: () => unknown): PromptRenderError {
  try {
    run();
  } catch (error) {
    if (PromptRenderError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a PromptRenderError');
}

describe('MarkdownSection', () => {
  const behaviour = new MarkdownSection<{ objective: string }>({
    title: 'Behaviour',
    key: 'behaviour',
    template: 'Stay focused on ${objective}.',
  });

  it('renders the usage sketch exactly', () => {
    expect(behaviour.render({ objective: 'triage open bug reports' }, { depth: 0 })).toBe(
      '## Behaviour\n\nStay focused on triage open bug reports.',
    );
    expect(behaviour.render({ objective: 'x' }, { depth: 2, number: '1.2.3' })).toBe(
      '#### 1.2.3. Behaviour\n\nStay focused on x.',
    );
  });

  it('dedents and trims the body, keeping relative indentation', () => {
    const section = new MarkdownSection({
      title: 'Steps',
      key: 'steps',
      template: `
        First line.
          - indented item

        Last line.   
      `,
    });
    expect(section.render()).toBe('## Steps\n\nFirst line.\n  - indented item\n\nLast line.');
  });

  it('fills placeholders once, from defaults overlaid by params, and keeps other dollars literal', () => {
    const section = new MarkdownSection<{ a: string; b: number; c: boolean }>({
      title: 'T',
      key: 't',
      template: '${a} costs $5, ${b} items, flag ${c}, literal $${a}',
      defaultParams: { a: 'tea', b: 2, c: false },
    });
    expect(section.render()).toBe('## T\n\ntea costs $5, 2 items, flag false, literal ${a}');
    expect(section.render({ a: '${b}', b: 3, c: true })).toBe(
      '## T\n\n${b} costs $5, 3 items, flag true, literal ${a}',
    );
  });

  it('raises PromptRenderError naming the section and placeholder', () => {
    expect(renderError(() => behaviour.render())).toMatchObject({
      code: 'params_missing',
      field: 'objective',
      message: "Section 'behaviour' needs params for ${objective}.",
    });
    expect(renderError(() => behaviour.render({} as never))).toMatchObject({
      code: 'placeholder_missing',
      message: "Section 'behaviour' has no value for placeholder ${objective}.",
    });
    expect(renderError(() => behaviour.render({ objective: null } as never)).code).toBe(
      'placeholder_missing',
    );
    for (const value of [{}, [], () => 1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(renderError(() => behaviour.render({ objective: value } as never)).code).toBe(
        'placeholder_invalid',
      );
    }
    expect(renderError(() => behaviour.render('x' as never)).code).toBe('params_missing');
  });

  it('does not read inherited properties as values', () => {
    const section = new MarkdownSection({
      title: 'T',
      key: 't',
      template: '${constructor} ${toString}',
    });
    expect(renderError(() => section.render({})).code).toBe('placeholder_missing');
  });

  it('renders a section without placeholders with no params, and children below it', () => {
    const child = new MarkdownSection<{ name: string }>({
      title: 'Child',
      key: 'child',
      template: 'Hi ${name}.',
    });
    const parent = new MarkdownSection({
      title: 'Parent',
      key: 'parent',
      template: 'Body.',
      children: [child],
    });
    expect(parent.render(undefined, { number: '3', childParams: { child: { name: 'Ann' } } })).toBe(
      '## 3. Parent\n\nBody.\n\n### 3.1. Child\n\nHi Ann.',
    );
    expect(parent.render(undefined, { childParams: { child: { name: 'Bo' } } })).toBe(
      '## Parent\n\nBody.\n\n### Child\n\nHi Bo.',
    );
    expect(new MarkdownSection({ title: 'Empty', key: 'empty', template: '   ' }).render()).toBe(
      '## Empty',
    );
  });

  it('refuses bad definitions and bad options, naming the field', () => {
    const bad: [unknown, string][] = [
      [{ title: 'T', key: 'Bad Key', template: '' }, 'key'],
      [{ title: 'T', key: '', template: '' }, 'key'],
      [{ title: '', key: 'k', template: '' }, 'title'],
      [{ title: 'two\nlines', key: 'k', template: '' }, 'title'],
      [{ title: 'T', key: 'k', template: 5 }, 'template'],
      [{ title: 'T', key: 'k', template: '', children: [{}] }, 'children'],
      [{ title: 'T', key: 'k', template: '', extra: 1 }, 'extra'],
    ];
    for (const [options, field] of bad) {
      expect(renderError(() => new MarkdownSection(options as never))).toMatchObject({
        code: 'section_invalid',
        field,
      });
    }
    const section = new MarkdownSection({ title: 'T', key: 'k', template: 'x' });
    for (const options of [
      { depth: -1 },
      { depth: 5 },
      { depth: 1.5 },
      { number: 'two' },
      { number: '2.' },
    ]) {
      expect(renderError(() => section.render(undefined, options)).code).toBe('options_invalid');
    }
    expect(section.render(undefined, { depth: 4 })).toBe('###### T\n\nx');
  });

  it('exposes no tools', () => {
    expect(behaviour.tools()).toEqual([]);
  });
});
