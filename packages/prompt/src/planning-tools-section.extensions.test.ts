import { type PlanningExtension, Session } from '@plankit/core';
import { batch, dependencies, history, owners } from '@plankit/core/plan-model';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { PLANNING_STRATEGIES } from './planning-strategy.ts';
import { PlanningToolsSection } from './planning-tools-section.ts';

const OPTIONS = ['dependencies', 'batch', 'history', 'owners'] as const;
type Option = (typeof OPTIONS)[number];

// Every subset of the plan-model options.
const subsets: readonly (readonly Option[])[] = OPTIONS.reduce<Option[][]>(
  (all, option) => all.flatMap((subset) => [subset, [...subset, option]]),
  [[]],
);

const FACTORIES: Record<Option, () => PlanningExtension> = {
  dependencies: () => dependencies(),
  batch: () => batch(),
  history: () => history(),
  owners: () => owners({ agent: 'lead' }),
};
const extensionsFor = (on: readonly Option[]) => on.map((option) => FACTORIES[option]());

const section = (
  strategy: (typeof PLANNING_STRATEGIES)[number],
  inProgress: 'any' | 'single',
  on: readonly Option[],
) =>
  new PlanningToolsSection({
    session: new Session({ sessionId: 'prompt-test' }),
    strategy,
    inProgress,
    extensions: extensionsFor(on),
  });

describe('the prompt lines extensions declare, in the planning copy', () => {
  for (const strategy of PLANNING_STRATEGIES) {
    for (const inProgress of ['any', 'single'] as const) {
      for (const on of subsets) {
        if (on.length === 0) continue; // the reference snapshots in __snapshots__/planning
        const name = `${strategy}-${inProgress}-${on.join('-')}`;
        it(`matches the reviewed snapshot ${name}.md`, async () => {
          await expect(section(strategy, inProgress, on).render()).toMatchFileSnapshot(
            `./__snapshots__/planning-options/${name}.md`,
          );
        });
      }
    }
  }

  it('adds nothing with every option off: the reference body, byte for byte', () => {
    for (const strategy of PLANNING_STRATEGIES) {
      const reference = new PlanningToolsSection({ session: new Session(), strategy });
      const off = new PlanningToolsSection({ session: new Session(), strategy, extensions: [] });
      expect(off.render()).toBe(reference.render());
    }
  });

  it('costs at most 60 o200k tokens per option, in every strategy and combination', () => {
    for (const strategy of PLANNING_STRATEGIES) {
      for (const on of subsets) {
        for (const option of OPTIONS) {
          if (on.includes(option)) continue;
          const without = countTokens(section(strategy, 'any', on).originalBodyTemplate());
          const withIt = countTokens(
            section(strategy, 'any', [...on, option]).originalBodyTemplate(),
          );
          expect(withIt - without, `${strategy} +${option} over [${on}]`).toBeGreaterThan(0);
          expect(withIt - without, `${strategy} +${option} over [${on}]`).toBeLessThanOrEqual(60);
        }
      }
    }
  });

  it('puts each option\u2019s lines after the reference bullets and before the closing line, pure ASCII', () => {
    for (const strategy of PLANNING_STRATEGIES) {
      const lines = section(strategy, 'single', OPTIONS).originalBodyTemplate().split('\n');
      const clear = lines.findIndex((line) => line.includes('planning_clear_plan'));
      expect(lines[clear + 1]).toContain('`depends_on`');
      expect(lines[clear + 2]).toContain('dependencies are done');
      expect(lines[clear + 3]).toContain('`planning_apply_batch`');
      expect(lines[clear + 4]).toContain('`explanation`');
      expect(lines[clear + 5]).toContain('`planning_claim_step`');
      expect(lines.at(-1)).toMatch(/^Stay brief/);
      expect(lines.join('\n')).toMatch(/^[\x20-\x7e\n]*$/);
    }
  });

  it('adds the same lines in unicode mode, where only the three text lines differ', () => {
    for (const strategy of PLANNING_STRATEGIES) {
      const ascii = section(strategy, 'single', OPTIONS).originalBodyTemplate().split('\n');
      const unicode = new PlanningToolsSection({
        session: new Session(),
        strategy,
        inProgress: 'single',
        text: 'unicode',
        extensions: extensionsFor(OPTIONS),
      })
        .originalBodyTemplate()
        .split('\n');
      expect(unicode).toHaveLength(ascii.length);
      const changed = unicode.filter((line, index) => line !== ascii[index]);
      expect(changed).toHaveLength(3);
      expect(unicode.join('\n')).not.toMatch(/ascii/i);
      expect(unicode.at(-1)).toMatch(/^Stay brief, write plans in the user's language/);
    }
  });

  it('hands the options to the tools: depends_on in the schemas, and the batch tool', () => {
    const plain = section('react', 'any', []).tools();
    expect(plain.map((tool) => tool.name)).toHaveLength(6);
    const full = new PlanningToolsSection({
      session: new Session(),
      extensions: [dependencies({ onOpenDependency: 'warn' }), batch()],
    });
    expect(full.tools().map((tool) => tool.name)).toEqual([
      ...plain.map((tool) => tool.name),
      'planning_apply_batch',
    ]);
    expect(
      JSON.stringify(z.toJSONSchema(full.tools().planning_setup_plan.parameters, { io: 'input' })),
    ).toContain('depends_on');
    expect(
      JSON.stringify(z.toJSONSchema(plain.planning_setup_plan.parameters, { io: 'input' })),
    ).not.toContain('depends_on');
    const owned = new PlanningToolsSection({
      session: new Session(),
      extensions: [owners({ agent: 'lead' }), history()],
    });
    expect(owned.tools().map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['planning_claim_step', 'planning_release_step']),
    );
    expect(
      JSON.stringify(z.toJSONSchema(owned.tools().planning_mark_step.parameters, { io: 'input' })),
    ).toContain('explanation');
    expect(owned.clone({ session: new Session() }).extensions).toBe(owned.extensions);
    const copy = full.clone({ session: new Session() });
    expect(copy.extensions.map((extension) => extension.name)).toEqual(['dependencies', 'batch']);
    expect(copy.render()).toBe(full.render());
  });

  it('renders the lines any extension declares, given the strategy, in the order listed', () => {
    const own = (name: string): PlanningExtension => ({
      name,
      promptLines: (strategy) => [`- ${name} for ${strategy}.`],
    });
    const body = new PlanningToolsSection({
      session: new Session(),
      strategy: PLANNING_STRATEGIES[1],
      extensions: [own('second'), batch(), own('first')],
    }).originalBodyTemplate();
    const lines = body.split('\n');
    const clear = lines.findIndex((line) => line.includes('planning_clear_plan'));
    expect(lines.slice(clear + 1, clear + 4)).toEqual([
      `- second for ${PLANNING_STRATEGIES[1]}.`,
      expect.stringContaining('`planning_apply_batch`'),
      `- first for ${PLANNING_STRATEGIES[1]}.`,
    ]);
    const broken: PlanningExtension = { name: 'broken', promptLines: () => 'one line' as never };
    expect(
      () => new PlanningToolsSection({ session: new Session(), extensions: [broken] }),
    ).toThrow(
      "PlanningToolsSection: the broken extension's promptLines must return an array of strings.",
    );
  });

  it('refuses the flags that became extensions, naming the replacement', () => {
    expect(
      () => new PlanningToolsSection({ session: new Session(), batch: true } as never),
    ).toThrow(
      "PlanningToolsSection: batch moved to an extension: pass extensions: [batch()], imported from '@plankit/core/plan-model'.",
    );
    expect(
      () => new PlanningToolsSection({ session: new Session(), dependencies: true } as never),
    ).toThrow(
      "PlanningToolsSection: dependencies moved to an extension: pass extensions: [dependencies()], imported from '@plankit/core/plan-model'.",
    );
    expect(
      () => new PlanningToolsSection({ session: new Session(), agent: 'lead' } as never),
    ).toThrow(/pass the agent to owners\(\{ agent \}\) or history\(\{ agent \}\)/);
    expect(
      () => new PlanningToolsSection({ session: new Session(), extensions: [{}] as never }),
    ).toThrow(/section_invalid|extensions\[0\] must be a planning extension/);
  });
});
