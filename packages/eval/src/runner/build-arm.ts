import { type AnyTool, defineTool, Plan, type Session, selectLatest } from '@plankit/core';
import { PlanningStrategy, PlanningToolsSection, renderPlanReminder } from '@plankit/prompt';
import { z } from 'zod';
import type { EvalArm, EvalTask } from '../config/define-eval.ts';

/** What an arm gives one trial. */
export interface ArmTrialSetup {
  readonly system: string;
  readonly tools: readonly AnyTool[];
  readonly reminder: (turn: number) => string | undefined;
}

const BASE_SYSTEM =
  'You are an agent working in a small workspace of text files. Use the workspace tools to read and write files. When the task is done, answer with a short summary and call no more tools.';

/** The workspace tools every trial gets: list, read and write files. */
export function workspaceTools(files: Map<string, string>): AnyTool[] {
  return [
    defineTool({
      name: 'workspace_list',
      description: 'List the paths of the files in the workspace.',
      parameters: z.strictObject({}),
      handler: () => {
        const paths = [...files.keys()].sort();
        return { message: paths.length === 0 ? '(no files)' : paths.join('\n'), value: paths };
      },
    }),
    defineTool({
      name: 'workspace_read',
      description: 'Read a file of the workspace.',
      parameters: z.strictObject({ path: z.string().min(1).max(200) }),
      handler: ({ path }) => {
        const text = files.get(path);
        if (text === undefined) throw new Error(`No file ${JSON.stringify(path)}.`);
        return { message: text, value: text };
      },
    }),
    defineTool({
      name: 'workspace_write',
      description: 'Create or replace a file of the workspace.',
      parameters: z.strictObject({
        path: z.string().min(1).max(200),
        content: z.string().max(100_000),
      }),
      handler: ({ path, content }) => {
        files.set(path, content);
        return { message: `Wrote ${path} (${content.length} characters).`, value: path };
      },
    }),
  ];
}

/**
 * The tools, system prompt and reminder schedule of one arm for one trial, built from the real
 * packages: `createPlanningTools` (through `PlanningToolsSection.tools()`), the section's own
 * rendering, and `renderPlanReminder` (with `goalLine()`, a goal arm's `renderGoalLine`, last).
 */
export function buildArm(
  arm: EvalArm,
  task: EvalTask,
  session: Session,
  files: Map<string, string>,
  goalLine?: () => string,
): ArmTrialSetup {
  const taskTools = [...workspaceTools(files), ...(task.tools?.({ session, files }) ?? [])];
  const head = arm.system ?? BASE_SYSTEM;
  if (arm.planning === false) return { system: head, tools: taskTools, reminder: () => undefined };
  const strategy = arm.planning.strategy ?? PlanningStrategy.REACT;
  const inProgress = arm.planning.inProgress ?? 'single';
  const text = arm.planning.text ?? 'ascii';
  const cadence = arm.planning.reminder ?? 'on_change';
  const section = new PlanningToolsSection({ session, strategy, inProgress, text });
  // The section builds the six tools with createPlanningTools and the same inProgress and
  // text rules as its copy.
  const planning: readonly AnyTool[] = section.tools();
  const system = `${head}\n\n${section.render(undefined, { depth: 0, number: '1' })}`;
  let lastReminded: Plan | undefined;
  let lastGoal: string | undefined;
  const reminder = (_turn: number): string | undefined => {
    if (cadence === 'never') return undefined;
    const plan = selectLatest(session, Plan);
    if (plan === undefined) return undefined;
    // A goal arm's reminder carries the goal's line, so a goal that moved is a change too.
    const goal = goalLine?.();
    if (cadence === 'on_change' && plan === lastReminded && goal === lastGoal) return undefined;
    lastReminded = plan;
    lastGoal = goal;
    return renderPlanReminder(plan, goal === undefined ? undefined : { goal });
  };
  return { system, tools: [...taskTools, ...planning], reminder };
}
