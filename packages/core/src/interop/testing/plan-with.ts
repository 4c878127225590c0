import { invokeTool } from '../../invoke-tool.ts';
import { createPlanningTools, type PlanningTools } from '../../planning/create-planning-tools.ts';
import type { StepStatus } from '../../planning/plan.ts';
import type { TextMode } from '../../planning/text-mode.ts';
import { Session } from '../../session.ts';

/** A session holding a plan with these steps, built through the tools, and the tools. */
export async function planWith(
  steps: readonly {
    readonly title: string;
    readonly status?: StepStatus;
    readonly details?: string;
  }[],
  objective = 'Ship it',
  text: TextMode = 'ascii',
): Promise<{ session: Session; tools: PlanningTools }> {
  const session = new Session({ sessionId: 'interop', clock: () => 1_700_000_000_000 });
  const tools = createPlanningTools(session, { text });
  const setup = await invokeTool(
    tools.planning_setup_plan,
    { objective, initial_steps: steps.map(({ title, details }) => ({ title, details })) },
    { session },
  );
  if (!setup.success) throw setup.error;
  for (let i = 0; i < steps.length; i++) {
    const status = steps[i]?.status ?? 'pending';
    if (status === 'pending') continue;
    const step_id = `S${String(i + 1).padStart(3, '0')}`;
    const marked = await invokeTool(tools.planning_mark_step, { step_id, status }, { session });
    if (!marked.success) throw marked.error;
  }
  return { session, tools };
}
