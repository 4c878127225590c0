import { createPlanningTools, invokeTool, Plan, Session, selectLatest } from '@plankit/core';
import { inProgressRule } from '@plankit/core/constants';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { PLANNING_STRATEGIES, PlanningStrategy } from './planning-strategy.ts';
import { PlanningToolsSection } from './planning-tools-section.ts';
import { PromptRenderError } from './prompt-render-error.ts';

const section = (options: Partial<ConstructorParameters<typeof PlanningToolsSection>[0]> = {}) =>
  new PlanningToolsSection({ session: new Session({ sessionId: 'prompt-test' }), ...options });

const reactBody = section().originalBodyTemplate();
const reactTokens = countTokens(reactBody);

describe('PlanningToolsSection rendering', () => {
  for (const strategy of PLANNING_STRATEGIES) {
    for (const inProgress of ['any', 'single'] as const) {
      for (const depth of [0, 1]) {
        for (const number of [undefined, depth === 0 ? '2' : '2.1']) {
          const name = `${strategy}-${inProgress}-depth${depth}${number === undefined ? '' : '-numbered'}`;
          it(`matches the reviewed snapshot ${name}.md`, async () => {
            const markdown = section({ strategy, inProgress }).render(undefined, { depth, number });
            await expect(markdown).toMatchFileSnapshot(`./__snapshots__/planning/${name}.md`);
          });
        }
      }
    }
  }

  for (const strategy of PLANNING_STRATEGIES) {
    it(`matches the reviewed unicode-mode snapshot ${strategy}-any-depth0-unicode.md`, async () => {
      const markdown = section({ strategy, text: 'unicode' }).render(undefined, { depth: 0 });
      await expect(markdown).toMatchFileSnapshot(
        `./__snapshots__/planning/${strategy}-any-depth0-unicode.md`,
      );
    });
  }

  it('renders the reference copy byte for byte when text is ascii, given or by default', () => {
    for (const strategy of PLANNING_STRATEGIES) {
      for (const inProgress of ['any', 'single'] as const) {
        expect(section({ strategy, inProgress, text: 'ascii' }).render()).toBe(
          section({ strategy, inProgress }).render(),
        );
      }
    }
    expect(section().text).toBe('ascii');
  });

  it('drops ASCII from the copy in unicode mode, changing only those three lines', () => {
    for (const strategy of PLANNING_STRATEGIES) {
      for (const inProgress of ['any', 'single'] as const) {
        const ascii = section({ strategy, inProgress }).originalBodyTemplate().split('\n');
        const unicode = section({ strategy, inProgress, text: 'unicode' })
          .originalBodyTemplate()
          .split('\n');
        expect(unicode.join('\n')).not.toMatch(/ascii/i);
        expect(unicode.join('\n')).toMatch(/^[\x20-\x7e\n]*$/);
        expect(unicode).toHaveLength(ascii.length);
        const changed = unicode.filter((line, index) => line !== ascii[index]);
        expect(changed).toEqual([
          '- Start with `planning_setup_plan` to set an objective (<=240 characters) and optional initial steps.',
          '- Keep steps concise (<=160 characters for titles, <=512 for details).',
          "Stay brief, write plans in the user's language, and skip planning for trivial single-step tasks.",
        ]);
      }
    }
  });

  it('renders the heading the reference way', () => {
    expect(section().render()).toMatch(/^## Planning Tools\n\nUse planning tools/);
    expect(section().render(undefined, { depth: 1 })).toMatch(/^### Planning Tools\n\n/);
    expect(section().render(undefined, { depth: 0, number: '1' })).toMatch(
      /^## 1\. Planning Tools\n\n/,
    );
  });

  it('contains every phrase hosts look for, in every strategy', () => {
    const always = ['multi-step', 'Stay brief', 'planning_setup_plan', 'planning_read_plan'];
    const bodies = Object.fromEntries(
      PLANNING_STRATEGIES.map((s) => [s, section({ strategy: s }).render()]),
    );
    for (const body of Object.values(bodies))
      for (const phrase of always) expect(body).toContain(phrase);
    expect(bodies[PlanningStrategy.PLAN_ACT_REFLECT]).toContain('plan-act-reflect');
    expect(bodies[PlanningStrategy.PLAN_ACT_REFLECT]).toContain('append a brief reflection');
    expect(bodies[PlanningStrategy.GOAL_DECOMPOSE_ROUTE_SYNTHESISE]).toContain(
      'restating the goal',
    );
    expect(bodies[PlanningStrategy.GOAL_DECOMPOSE_ROUTE_SYNTHESISE]).toContain(
      'Break the goal into concrete sub-problems',
    );
    expect(bodies[PlanningStrategy.GOAL_DECOMPOSE_ROUTE_SYNTHESISE]).toContain(
      'synthesise the results',
    );
  });

  it('is pure ASCII, one line per bullet, with no blank line inside the body and no trailing newline', () => {
    for (const strategy of PLANNING_STRATEGIES) {
      for (const inProgress of ['any', 'single'] as const) {
        const rendered = section({ strategy, inProgress }).render();
        expect(rendered).toMatch(/^[\x20-\x7e\n]*$/);
        expect(rendered.endsWith('\n')).toBe(false);
        const body = rendered.split('\n\n').slice(1).join('\n\n');
        expect(body).not.toContain('\n\n');
        expect(body.split('\n').filter((line) => line.startsWith('- '))).toHaveLength(7);
      }
    }
  });

  it('changes only the mindset lines between strategies, and the default is REACT', () => {
    const lines = (strategy: PlanningStrategy) =>
      section({ strategy }).originalBodyTemplate().split('\n');
    const react = lines(PlanningStrategy.REACT);
    for (const strategy of PLANNING_STRATEGIES) {
      const other = lines(strategy);
      expect(other[0]).toBe(react[0]);
      expect(other.slice(other.length - react.length + 1)).toEqual(react.slice(1));
    }
    expect(section().render()).toBe(section({ strategy: PlanningStrategy.REACT }).render());
    expect(lines(PlanningStrategy.PLAN_ACT_REFLECT)).toHaveLength(react.length + 2);
    expect(lines(PlanningStrategy.GOAL_DECOMPOSE_ROUTE_SYNTHESISE)).toHaveLength(react.length + 3);
  });

  it("states the single in-progress rule with the validator's own words", async () => {
    const session = new Session();
    const single = new PlanningToolsSection({ session, inProgress: 'single' });
    const rule = inProgressRule('single') as string;
    const markLine = single
      .render()
      .split('\n')
      .find((line) => line.includes('planning_mark_step'));
    expect(markLine).toBe(
      `- Track progress via \`planning_mark_step\` (pending, in_progress, blocked, done). ${rule}`,
    );
    const { planning_setup_plan: setup, planning_mark_step: mark } = single.tools();
    await invokeTool(
      setup,
      { objective: 'o', initial_steps: [{ title: 'a' }, { title: 'b' }] },
      { session },
    );
    await invokeTool(mark, { step_id: 'S001', status: 'in_progress' }, { session });
    const refused = await invokeTool(mark, { step_id: 'S002', status: 'in_progress' }, { session });
    expect(refused.message).toContain(rule);
    expect(section().render()).not.toContain(rule);
  });

  it(`keeps the REACT body under 200 tokens (o200k: ${reactTokens} tokens)`, () => {
    expect(reactTokens).toBeGreaterThan(50);
    expect(reactTokens).toBeLessThan(200);
  });

  it('renders the same bytes every time', () => {
    expect(section().render(undefined, { number: '3' })).toBe(
      section().render(undefined, { number: '3' }),
    );
  });
});

describe('PlanningToolsSection tools and session', () => {
  it('exposes the six tools in reference order, not accepting overrides by default', () => {
    const planning = section();
    expect(planning.tools().map((tool) => tool.name)).toEqual([
      'planning_setup_plan',
      'planning_add_step',
      'planning_update_step',
      'planning_mark_step',
      'planning_clear_plan',
      'planning_read_plan',
    ]);
    expect(planning.acceptsOverrides).toBe(false);
    expect(planning.tools().every((tool) => tool.acceptsOverrides === false)).toBe(true);
    const open = section({ acceptsOverrides: true });
    expect(open.acceptsOverrides).toBe(true);
    expect(open.tools().every((tool) => tool.acceptsOverrides)).toBe(true);
  });

  it('builds tools that take plans in any language in unicode mode, and only ASCII by default', async () => {
    const titles = ['Café menu', 'Write the README — then ship', '翻訳を確認する', 'Ship v2 🚀'];
    const unicode = new Session();
    const { planning_setup_plan: setup } = new PlanningToolsSection({
      session: unicode,
      text: 'unicode',
    }).tools();
    const stored = await invokeTool(
      setup,
      { objective: 'リリース', initial_steps: titles.map((title) => ({ title })) },
      { session: unicode },
    );
    expect(stored.ok).toBe(true);
    expect(selectLatest(unicode, Plan)?.steps.map((step) => step.title)).toEqual(titles);
    const bidi = await invokeTool(setup, { objective: 'abc\u202edef' }, { session: unicode });
    expect(bidi.message).toContain('U+202E');
    const ascii = new Session();
    const refused = await invokeTool(
      section({ session: ascii }).tools().planning_setup_plan,
      { objective: 'o', initial_steps: [{ title: '翻訳を確認する' }] },
      { session: ascii },
    );
    expect(refused.message).toContain('Title must be ASCII.');
    expect(selectLatest(ascii, Plan)).toBeUndefined();
  });

  it('registers the reducers once, so two sections over one session add each step once', async () => {
    const session = new Session();
    const first = new PlanningToolsSection({ session });
    new PlanningToolsSection({ session, strategy: PlanningStrategy.PLAN_ACT_REFLECT });
    createPlanningTools(session);
    const { planning_setup_plan: setup, planning_add_step: add } = first.tools();
    await invokeTool(setup, { objective: 'o' }, { session });
    await invokeTool(add, { steps: [{ title: 'a' }] }, { session });
    expect(selectLatest(session, Plan)?.steps.map((step) => step.step_id)).toEqual(['S001']);
  });

  it('clones onto another session with the same copy, and refuses to clone without one', async () => {
    const original = section({
      strategy: PlanningStrategy.GOAL_DECOMPOSE_ROUTE_SYNTHESISE,
      inProgress: 'single',
      text: 'unicode',
    });
    const other = new Session();
    const copy = original.clone({ session: other });
    expect(copy.session).toBe(other);
    expect(copy.render()).toBe(original.render());
    expect(copy.text).toBe('unicode');
    await invokeTool(copy.tools().planning_setup_plan, { objective: 'cloned' }, { session: other });
    expect(selectLatest(other, Plan)?.objective).toBe('cloned');
    expect(selectLatest(original.session, Plan)).toBeUndefined();
    expect(() => original.clone({} as never)).toThrow(PromptRenderError);
  });

  it('refuses a missing session, an unknown strategy and unknown options', () => {
    const cases: unknown[] = [undefined, {}, { session: {} }];
    for (const options of cases)
      expect(() => new PlanningToolsSection(options as never)).toThrow(/needs a session/);
    expect(() => section({ strategy: 'chain_of_thought' as never })).toThrow(
      /strategy must be one of/,
    );
    expect(() => section({ colour: 'red' } as never)).toThrow(/colour is not an option/);
    expect(() => section({ inProgress: 'many' as never })).toThrow(PromptRenderError);
    const badText = (() => {
      try {
        section({ text: 'utf8' as never });
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    expect(badText).toBeInstanceOf(PromptRenderError);
    expect(badText).toMatchObject({
      code: 'section_invalid',
      field: 'text',
      message: 'PlanningToolsSection: text must be one of ascii, unicode.',
    });
  });
});
