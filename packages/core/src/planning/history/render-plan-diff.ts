import { escapeControl } from '../../internal/refusal-text.ts';
import type { Plan } from '../plan.ts';
import { diffPlans, type PlanDiff, type StepFieldChange } from './diff-plans.ts';

// Text is quoted with JSON.stringify, and ids, statuses and owners are escaped (U+2028 and
// the other controls JSON leaves alone too): one line per change whatever a hand-built plan
// or diff holds, and the same bytes on every platform. Valid values print unchanged.
const quote = (text: string | null): string =>
  text === null ? '(none)' : escapeControl(JSON.stringify(text));
const bare = (text: string | null): string => (text === null ? '(none)' : escapeControl(text));
const list = (items: readonly string[]): string => `[${items.map(bare).join(', ')}]`;

function startsWith(list: readonly string[], prefix: readonly string[]): boolean {
  if (prefix.length > list.length) return false;
  for (let i = 0; i < prefix.length; i++) if (list[i] !== prefix[i]) return false;
  return true;
}

function fieldLines(stepId: string, field: StepFieldChange): string[] {
  switch (field.field) {
    case 'title':
    case 'details':
      return [`~ ${bare(stepId)} ${field.field}: ${quote(field.before)} -> ${quote(field.after)}`];
    case 'status':
    case 'owner':
      return [`~ ${bare(stepId)} ${field.field}: ${bare(field.before)} -> ${bare(field.after)}`];
    case 'notes':
      // Notes only grow through the tools: show the new ones.
      if (startsWith(field.after, field.before))
        return field.after
          .slice(field.before.length)
          .map((note) => `~ ${bare(stepId)} note: + ${quote(note)}`);
      return [
        `~ ${bare(stepId)} notes: [${field.before.map(quote).join(', ')}] -> [${field.after.map(quote).join(', ')}]`,
      ];
    case 'depends_on':
      return [`~ ${bare(stepId)} depends_on: ${list(field.before)} -> ${list(field.after)}`];
    default: {
      const unknown: never = field;
      return [String(unknown)];
    }
  }
}

function diffText(diff: PlanDiff): string {
  const lines: string[] = [];
  if (diff.objective !== null)
    lines.push(`objective: ${quote(diff.objective.before)} -> ${quote(diff.objective.after)}`);
  if (diff.status !== null)
    lines.push(`status: ${bare(diff.status.before)} -> ${bare(diff.status.after)}`);
  for (const change of diff.steps) {
    switch (change.change) {
      case 'added': {
        const owner = change.step.owner === undefined ? '' : ` @${bare(change.step.owner)}`;
        const depends = change.step.depends_on ?? [];
        const after = depends.length === 0 ? '' : ` after ${list(depends)}`;
        lines.push(
          `+ ${bare(change.step_id)} ${quote(change.step.title)} [${bare(change.step.status)}]${after}${owner}`,
        );
        break;
      }
      case 'removed':
        lines.push(`- ${bare(change.step_id)} ${quote(change.step.title)}`);
        break;
      case 'edited':
        // One push per line: a step may gain more notes than a call takes arguments.
        for (const field of change.fields)
          for (const line of fieldLines(change.step_id, field)) lines.push(line);
        break;
      default: {
        const unknown: never = change;
        lines.push(String(unknown));
      }
    }
  }
  return lines.length === 0 ? '(no changes)' : lines.join('\n');
}

// A PlanDiff's objective is a change or null; a plan's is always a string.
function isPlanDiff(value: unknown): value is PlanDiff {
  if (typeof value !== 'object' || value === null) return false;
  const { objective, steps } = value as { objective?: unknown; steps?: unknown };
  return Array.isArray(steps) && (objective === null || typeof objective === 'object');
}

/**
 * Renders what changed from `before` to `after` (`null` or undefined for no plan) as plain
 * text for UIs and logs, one change per line: `objective:` and `status:` lines,
 * `+ S004 "title" [pending]` for an added step, `- S002 "title"` for a removed one, and
 * `~ S001 status: pending -> done` (or `note: + "..."`, `owner: (none) -> worker-1`) for an
 * edited one. `(no changes)` when nothing changed. Stable: the same change always renders to
 * the same text, with no trailing newline.
 *
 * @example
 * ```ts
 * renderPlanDiff(before, after);
 * // ~ S001 status: pending -> done
 * // ~ S001 note: + "merged"
 * ```
 * @public
 */
export function renderPlanDiff(
  before: Plan | null | undefined,
  after: Plan | null | undefined,
): string;
/**
 * Renders a {@link PlanDiff} already computed (by {@link diffPlans}, or a revision's `diff`),
 * as the two-plan form does.
 *
 * @public
 */
export function renderPlanDiff(diff: PlanDiff): string;
export function renderPlanDiff(
  first: Plan | PlanDiff | null | undefined,
  after?: Plan | null,
): string {
  if (isPlanDiff(first)) return diffText(first);
  return diffText(diffPlans(first as Plan | null | undefined, after));
}
