import {
  type Plan,
  type PlanningTools,
  type PlanningToolset,
  type Result,
  Session,
} from '@plankit/core';
import {
  type BatchToolByName,
  batch,
  type DependentPlanningToolsByName,
  dependencies,
  type PlanBatchTool,
} from '@plankit/core/plan-model';
import { describe, expectTypeOf, it } from 'vitest';
import { MarkdownSection } from './markdown-section.ts';
import { PhaseSection } from './phase-section.ts';
import { fromPlanAnchor } from './plan-anchor.ts';
import type { PlanAnchorError } from './plan-anchor-error.ts';
import { PlanningStrategy } from './planning-strategy.ts';
import { PlanningToolsSection } from './planning-tools-section.ts';
import { Prompt, type RenderedPrompt } from './prompt.ts';
import { renderPlanReminder } from './render-plan-reminder.ts';

describe('prompt types', () => {
  it('types section params from the generic', () => {
    const section = new MarkdownSection<{ objective: string }>({
      title: 'B',
      key: 'b',
      template: '${objective}',
    });
    section.render({ objective: 'x' });
    // @ts-expect-error objective must be a string
    section.render({ objective: 1 });
    // @ts-expect-error phase_number is required
    new PhaseSection({ phase: 'strategic' }).render({ workspace_memory: '' });
  });

  it('types the planning section, strategies and renders', () => {
    const planning = new PlanningToolsSection({
      session: new Session(),
      strategy: PlanningStrategy.REACT,
    });
    expectTypeOf(planning.tools()).toEqualTypeOf<PlanningTools>();
    expectTypeOf(PlanningStrategy.PLAN_ACT_REFLECT).toEqualTypeOf<'plan_act_reflect'>();
    // @ts-expect-error not a strategy
    new PlanningToolsSection({ session: new Session(), strategy: 'cot' });
    expectTypeOf(
      new PlanningToolsSection({
        session: new Session(),
        extensions: [dependencies(), batch()],
      }).tools(),
    ).toEqualTypeOf<PlanningToolset<DependentPlanningToolsByName & BatchToolByName>>();
    expectTypeOf(
      new PlanningToolsSection({ session: new Session(), extensions: [batch()] })
        .clone({
          session: new Session(),
        })
        .tools().planning_apply_batch,
    ).toEqualTypeOf<PlanBatchTool>();
    const prompt = new Prompt({ ns: 'n', key: 'k', name: 'n', sections: [planning] });
    expectTypeOf(prompt.render()).toEqualTypeOf<RenderedPrompt>();
  });

  it('types anchors and reminders', () => {
    expectTypeOf(fromPlanAnchor('')).toEqualTypeOf<Result<Plan, PlanAnchorError>>();
    expectTypeOf(renderPlanReminder(undefined)).toEqualTypeOf<string | undefined>();
  });
});
