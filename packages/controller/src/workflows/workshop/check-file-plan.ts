import type { FilePlan, WorkshopPlan } from './workshop-plan.ts';

/**
 * Checks a file plan against the plan (`file_plan_consistency`): every file names
 * at least one task, every task it names exists (tasks and subtasks count), and every file a
 * task lists appears in the file plan with that task (or one of its subtasks). The file plan
 * may add files the plan does not list, as long as a task claims them.
 *
 * @returns the problems, one sentence each; empty when consistent
 * @example
 * ```ts
 * checkFilePlan(plan, filePlan); // ['plan.files.json: src/db.ts names task T9, which planning.ai.json does not have.']
 * ```
 * @public
 */
export function checkFilePlan(plan: WorkshopPlan, filePlan: FilePlan): readonly string[] {
  const problems: string[] = [];
  const owners = new Map<string, string>();
  for (const task of plan.tasks) {
    owners.set(task.id, task.id);
    for (const sub of task.subtasks ?? []) owners.set(sub.id, task.id);
  }
  const byPath = new Map(filePlan.files.map((file) => [file.path, file]));
  for (const file of filePlan.files) {
    if (file.tasks.length === 0) problems.push(`plan.files.json: ${file.path} names no task.`);
    for (const id of file.tasks) {
      if (!owners.has(id)) {
        problems.push(
          `plan.files.json: ${file.path} names task ${id}, which planning.ai.json does not have.`,
        );
      }
    }
  }
  for (const task of plan.tasks) {
    for (const path of task.files ?? []) {
      const file = byPath.get(path);
      if (file === undefined) {
        problems.push(
          `planning.ai.json: task ${task.id} changes ${path}, which plan.files.json does not list.`,
        );
      } else if (!file.tasks.some((id) => owners.get(id) === task.id)) {
        problems.push(
          `plan.files.json: ${path} does not name task ${task.id}, which changes it in planning.ai.json.`,
        );
      }
    }
  }
  return Object.freeze(problems);
}
