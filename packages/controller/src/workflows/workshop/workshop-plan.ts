import * as z from 'zod';
import { isRelativePath } from '../internal/relative-path.ts';

/** A subtask of a {@link WorkshopTask}. @public */
export interface WorkshopSubtask {
  /** 1-64 characters `[A-Za-z0-9._-]`, unique across the plan's tasks and subtasks. */
  readonly id: string;
  /** One line. */
  readonly title: string;
}

/** A task of a {@link WorkshopPlan}. @public */
export interface WorkshopTask {
  /** 1-64 characters `[A-Za-z0-9._-]`, unique across the plan's tasks and subtasks. */
  readonly id: string;
  /** One line. */
  readonly title: string;
  /** What the task involves. */
  readonly details?: string | undefined;
  /** Its subtasks. */
  readonly subtasks?: readonly WorkshopSubtask[] | undefined;
  /** Its acceptance criteria. */
  readonly acceptance?: readonly string[] | undefined;
  /** The files it creates, changes or deletes, relative to the project root. */
  readonly files?: readonly string[] | undefined;
}

/**
 * The structured plan, `planning.ai.json`: the single source of truth of a workshop's plan
 * (`plan.md` is rendered from it). The workshop material: tasks and subtasks,
 * acceptance criteria, the files each task touches, assumptions and risks.
 *
 * @public
 */
export interface WorkshopPlan {
  /** One line. */
  readonly title: string;
  /** A paragraph or two. */
  readonly summary?: string | undefined;
  /** The tasks, in order: at least one. */
  readonly tasks: readonly WorkshopTask[];
  /** What the plan takes for granted. */
  readonly assumptions?: readonly string[] | undefined;
  /** What could go wrong. */
  readonly risks?: readonly string[] | undefined;
}

/** One file of a {@link FilePlan}. @public */
export interface FilePlanEntry {
  /** Relative to the project root, without `..`. */
  readonly path: string;
  /** What happens to the file. */
  readonly action: 'create' | 'modify' | 'delete';
  /** The ids of the tasks (or subtasks) that change it. */
  readonly tasks: readonly string[];
  /** Why. */
  readonly purpose?: string | undefined;
}

/** The file plan, `plan.files.json`: every file the plan changes, and which tasks change it. @public */
export interface FilePlan {
  /** The files, each path once. */
  readonly files: readonly FilePlanEntry[];
}

const ITEM_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const itemId = z.string().regex(ITEM_ID, 'must be 1-64 characters [A-Za-z0-9._-]');
const line = (max: number) =>
  z
    .string()
    .max(max)
    .refine((text) => text.trim() !== '' && !/[\r\n]/.test(text), 'must be one non-blank line');
const paragraph = (max: number) => z.string().max(max);
const path = z.string().refine(isRelativePath, 'must be a relative path without .. or a backslash');
const texts = z.array(line(2000)).max(200);

/** Schema of {@link WorkshopPlan}. @public */
export const WorkshopPlan: z.ZodType<WorkshopPlan> = z
  .strictObject({
    title: line(200),
    summary: paragraph(20_000).optional(),
    tasks: z
      .array(
        z.strictObject({
          id: itemId,
          title: line(500),
          details: paragraph(20_000).optional(),
          subtasks: z
            .array(z.strictObject({ id: itemId, title: line(500) }))
            .max(100)
            .optional(),
          acceptance: texts.optional(),
          files: z.array(path).max(500).optional(),
        }),
      )
      .min(1)
      .max(500),
    assumptions: texts.optional(),
    risks: texts.optional(),
  })
  .superRefine((plan, context) => {
    const seen = new Set<string>();
    const check = (id: string, at: (string | number)[]) => {
      if (seen.has(id)) context.addIssue({ code: 'custom', path: at, message: `repeats id ${id}` });
      seen.add(id);
    };
    for (const [i, task] of plan.tasks.entries()) {
      check(task.id, ['tasks', i, 'id']);
      for (const [j, sub] of (task.subtasks ?? []).entries())
        check(sub.id, ['tasks', i, 'subtasks', j, 'id']);
    }
  });

/** Schema of {@link FilePlan}. @public */
export const FilePlan: z.ZodType<FilePlan> = z
  .strictObject({
    files: z
      .array(
        z.strictObject({
          path,
          action: z.enum(['create', 'modify', 'delete']),
          tasks: z.array(itemId).max(100),
          purpose: paragraph(2000).optional(),
        }),
      )
      .max(2000),
  })
  .superRefine((plan, context) => {
    const seen = new Set<string>();
    for (const [i, file] of plan.files.entries()) {
      if (seen.has(file.path)) {
        context.addIssue({
          code: 'custom',
          path: ['files', i, 'path'],
          message: `repeats ${file.path}`,
        });
      }
      seen.add(file.path);
    }
  });
