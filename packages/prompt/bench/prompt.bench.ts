import { formatStepId, type Plan, type PlanStep, Session } from '@plankit/core';
import { deepFreeze } from '@plankit/core/internal-unstable';
import { PlanningStrategy, PlanningToolsSection, renderPlanReminder } from '@plankit/prompt';
import type { BenchCase, BenchSide, BenchSuite } from '../../../scripts/bench.ts';

// The baselines build the same text by concatenating runtime data (module-level and mutable,
// so V8 cannot fold it into a constant), with no checks and no structure.
const sectionInput = {
  number: '2',
  title: 'Planning Tools',
  limits: { objective: 240, title: 160, details: 512 },
  mindset: [
    'Follow a plan-act-reflect rhythm: outline the entire plan before running tools, then work through it.',
    'After each tool call or completed step, append a brief reflection as plan notes or status updates.',
  ],
};

function concatPlanningSection(): string {
  const { number, title, limits, mindset } = sectionInput;
  let text = `## ${number}. ${title}\n\n`;
  text += 'Use planning tools for multi-step or stateful work that requires an execution plan.\n';
  for (const line of mindset) text += `${line}\n`;
  text += `- Start with \`planning_setup_plan\` to set an objective (<=${limits.objective} ASCII characters) and optional initial steps.\n`;
  text +=
    '- Step ids use the `S###` format, stay stable, and must be referenced for every update.\n';
  text += `- Keep steps concise (<=${limits.title} ASCII characters for titles, <=${limits.details} for details).\n`;
  text += '- Extend plans with `planning_add_step` and refine steps with `planning_update_step`.\n';
  text += '- Track progress via `planning_mark_step` (pending, in_progress, blocked, done).\n';
  text += '- Inspect the latest plan using `planning_read_plan`.\n';
  text += '- Use `planning_clear_plan` only when abandoning the objective.\n';
  return `${text}Stay brief, ASCII-only, and skip planning for trivial single-step tasks.`;
}

function concatReminder(plan: Plan): string {
  let open = '';
  let count = 0;
  for (const step of plan.steps) {
    if (step.status === 'done') continue;
    open += `${step.step_id} [${step.status}] ${step.title}\n`;
    count++;
  }
  return `<plan-reminder>\nObjective: ${plan.objective}\nDone: ${plan.steps.length - count} of ${plan.steps.length} steps\nOpen:\n${open}Keep the plan current with planning_mark_step.\n</plan-reminder>`;
}

const REMINDER_STEPS = 50;
// Frozen, like every plan a session hands out.
const plan: Plan = deepFreeze({
  objective: 'Migrate the billing service to the new ledger',
  status: 'active',
  steps: Array.from(
    { length: REMINDER_STEPS },
    (_, i): PlanStep => ({
      step_id: formatStepId(i + 1),
      title: `Move ledger table ${i + 1} and verify the totals`,
      details: null,
      status: i < 10 ? 'done' : i === 10 ? 'in_progress' : 'pending',
      notes: [],
    }),
  ),
});

const section = new PlanningToolsSection({
  session: new Session(),
  strategy: PlanningStrategy.PLAN_ACT_REFLECT,
});

const sectionCase: BenchCase = {
  name: 'render planning section',
  what: 'PlanningToolsSection.render (PLAN_ACT_REFLECT, numbered) vs string concatenation',
  plankit: (): BenchSide => ({ run: () => section.render(undefined, { depth: 0, number: '2' }) }),
  baseline: (): BenchSide => ({ run: concatPlanningSection }),
};

const reminderCase: BenchCase = {
  name: `plan reminder, ${REMINDER_STEPS} steps`,
  what: 'renderPlanReminder vs string concatenation',
  plankit: (): BenchSide => ({ run: () => renderPlanReminder(plan) }),
  baseline: (): BenchSide => ({ run: () => concatReminder(plan) }),
};

// The baselines only count if they produce exactly plankit's bytes.
function check(): void {
  if (section.render(undefined, { depth: 0, number: '2' }) !== concatPlanningSection()) {
    throw new Error('concatPlanningSection disagrees with PlanningToolsSection.render');
  }
  if (renderPlanReminder(plan) !== concatReminder(plan))
    throw new Error('concatReminder disagrees with renderPlanReminder');
}

/** The prompt package's benchmarks: rendering next to plain string concatenation of the same text. */
export const suite: BenchSuite = {
  name: '@plankit/prompt rendering',
  check,
  cases: [sectionCase, reminderCase],
};
