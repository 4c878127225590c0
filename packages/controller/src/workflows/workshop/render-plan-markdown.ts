import type { WorkshopPlan } from './workshop-plan.ts';

/** A titled bullet list and a blank line, or nothing for no items. */
function bullets(
  title: string,
  items: readonly string[] | undefined,
  format = (item: string) => item,
): string[] {
  if (items === undefined || items.length === 0) return [];
  return [title, '', ...items.map((item) => `- ${format(item)}`), ''];
}

/**
 * Renders `plan.md`, the projection of `planning.ai.json` (kept in step with it):
 * deterministic markdown, the same bytes for the same plan. A comment says where it comes from;
 * then `# title`, the summary, `## Tasks` (one `### id. title` per task with its details,
 * subtasks, acceptance criteria and files), `## Assumptions` and `## Risks` when not empty.
 *
 * @example
 * ```ts
 * const markdown = renderPlanMarkdown({ title: 'Ship v2', tasks: [{ id: 'T1', title: 'Draft' }] });
 * ```
 * @public
 */
export function renderPlanMarkdown(plan: WorkshopPlan): string {
  const lines = [
    '<!-- Generated from planning.ai.json: edit the JSON plan, not this file. -->',
    '',
    `# ${plan.title}`,
    '',
  ];
  if (plan.summary !== undefined && plan.summary.trim() !== '') lines.push(plan.summary.trim(), '');
  lines.push('## Tasks', '');
  for (const task of plan.tasks) {
    lines.push(`### ${task.id}. ${task.title}`, '');
    if (task.details !== undefined && task.details.trim() !== '')
      lines.push(task.details.trim(), '');
    lines.push(
      ...bullets(
        'Subtasks:',
        task.subtasks?.map((sub) => `${sub.id} ${sub.title}`),
      ),
    );
    lines.push(...bullets('Acceptance criteria:', task.acceptance));
    lines.push(...bullets('Files:', task.files, (file) => `\`${file}\``));
  }
  lines.push(...bullets('## Assumptions', plan.assumptions), ...bullets('## Risks', plan.risks));
  return `${lines.join('\n').trimEnd()}\n`;
}
