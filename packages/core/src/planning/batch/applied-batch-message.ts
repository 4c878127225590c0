import { plural } from '../../internal/plural.ts';
import { clipText, REFUSAL_LIMIT } from '../../internal/refusal-text.ts';
import type { Plan, PlanStep } from '../plan.ts';
import type { BatchOperation } from './plan-batch.ts';

/**
 * One entry of the result: a change named in full, and in a short form for long batches; or
 * the ids of additions in a row, which read as one entry.
 */
export type Change =
  | { readonly full: string; readonly short: string }
  | { readonly added: string[] };

// Up to this many added ids are listed; more are named as a range (ids added in a row are
// consecutive) with a count, so an entry stays short whatever the number of steps.
const LISTED_IDS = 3;

const thousands = (n: number): string =>
  n < 1000 ? String(n) : String(n).replace(/\B(?=(\d{3})+$)/g, ',');

/** The entry of added `ids`, in full (`short` false) or short. */
function addedText(ids: readonly string[], short: boolean): string {
  const first = ids[0] ?? '';
  const range = ids.length === 1 ? first : `${first} … ${ids[ids.length - 1] ?? ''}`;
  if (short) return `added ${range}`;
  return ids.length <= LISTED_IDS
    ? `added ${ids.join(', ')}`
    : `added ${range}, ${thousands(ids.length)} steps`;
}

/** Appends the change `operation` made from `before` to `after`, joining additions in a row. */
export function pushChange(
  changes: Change[],
  before: Plan | undefined,
  after: Plan,
  operation: BatchOperation,
): void {
  switch (operation.op) {
    case 'setup':
      changes.push({ full: 'new plan set up', short: 'new plan' });
      return;
    case 'mark':
      changes.push({
        full: `${operation.step_id} marked as ${operation.status}`,
        short: `${operation.step_id} ${operation.status}`,
      });
      return;
    case 'note':
      changes.push({
        full: `note added to ${operation.step_id}`,
        short: `${operation.step_id} note`,
      });
      return;
    case 'update':
      changes.push({ full: `${operation.step_id} updated`, short: `${operation.step_id} updated` });
      return;
    case 'add': {
      const last = changes[changes.length - 1];
      const ids = last !== undefined && 'added' in last ? last.added : [];
      if (ids.length === 0) changes.push({ added: ids });
      for (let i = before?.steps.length ?? 0; i < after.steps.length; i++)
        ids.push((after.steps[i] as PlanStep).step_id);
      return;
    }
    default: {
      const unknown: never = operation;
      changes.push({ full: String(unknown), short: String(unknown) });
    }
  }
}

/** The changes joined with semicolons, each in full or short. */
function changeList(changes: readonly Change[], short: boolean): string {
  let text = '';
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i] as Change;
    const entry =
      'added' in change ? addedText(change.added, short) : short ? change.short : change.full;
    text = i === 0 ? entry : `${text}; ${entry}`;
  }
  return text;
}

/**
 * The success message: every change, never dropped, under the refusal limit. Each change is
 * named in full when all fit, else in its short form (which a batch of
 * `MAX_BATCH_OPERATIONS` always fits: at most about 40 characters each); the warnings get the
 * room left, clipped.
 */
export function appliedMessage(
  count: number,
  changes: readonly Change[],
  warnings: readonly string[],
): string {
  const head = `Applied ${plural(count, 'operation')}: `;
  const limit = REFUSAL_LIMIT - 1;
  const full = `${head}${changeList(changes, false)}.`;
  const text = full.length <= limit ? full : `${head}${changeList(changes, true)}.`;
  if (warnings.length === 0) return clipText(text, limit);
  const room = limit - text.length - 1;
  return room < 20 ? text : `${text} ${clipText(warnings.join(' '), Math.min(600, room))}`;
}
