import type { Plan } from '@plankit/core';
import type { ReplanGuardState } from './goal-state.ts';

/** What {@link observePlan} returns: the guard after the turn, and why it tripped, if it did. @public */
export interface ReplanGuardStep {
  /** The guard's state after this turn. */
  readonly guard: ReplanGuardState;
  /** Why the guard stops the goal, or `null` when the plan still makes progress. */
  readonly tripped: string | null;
}

// Removed titles kept to spot one coming back; a bound, so the goal's size does not grow.
const MAX_REMOVED = 64;

/** A title as the guard compares it: case and runs of spaces do not make a step new. */
function normalise(title: string): string {
  return title.trim().replace(/\s+/g, ' ').toLowerCase();
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The re-plan guard's step: compares this turn's plan with what the guard saw last turn. A
 * turn whose plan changed (a new objective, steps added, removed, retitled or reordered) with
 * no step newly done is a churn turn; a removed step that comes back counts as a repeat; a step
 * newly done resets both. A turn with no change and no progress counts neither way: the agent
 * may be working between plan edits. The first plan the guard sees is not churn.
 *
 * Pure, and its cost is the plan's size, never the history's: the guard keeps only the last
 * plan's titles and at most 64 removed ones.
 *
 * @param guard - the guard's state from the goal (`goal.guard`)
 * @param plan - the plan at the end of the turn, or `undefined` when there is none
 * @returns the next state, and the reason when `churnTurns` churn turns or `repeats` repeats
 *   passed with no step done
 * @example
 * ```ts
 * const { guard, tripped } = observePlan(goal.guard, selectLatest(session, Plan));
 * if (tripped !== null) console.log(`Only re-planning: ${tripped}`);
 * ```
 * @public
 */
export function observePlan(
  guard: ReplanGuardState,
  plan: Plan | undefined | null,
): ReplanGuardStep {
  const steps = plan?.steps ?? [];
  const titles = steps.map((step) => normalise(step.title));
  let done = 0;
  for (const step of steps) if (step.status === 'done') done++;
  const objective = plan === undefined || plan === null ? null : normalise(plan.objective);
  const first = guard.objective === null && guard.titles.length === 0;
  const newSetup = !first && objective !== guard.objective;
  // A new setup starts its count again: any step it has done is progress.
  const progress = newSetup ? done > 0 : done > guard.done;
  const changed = newSetup || !sameList(titles, guard.titles);
  const current = new Set(titles);
  const previous = new Set(guard.titles);
  const removedNow = guard.titles.filter((title) => !current.has(title));
  const addedNow = titles.filter((title) => !previous.has(title));

  let churn = guard.churn;
  let returned = guard.returned;
  let removed: string[] = [...guard.removed];
  if (progress) {
    churn = 0;
    returned = 0;
    removed = [];
  } else if (!first) {
    for (const title of addedNow) {
      const at = removed.indexOf(title);
      if (at === -1) continue;
      returned++;
      removed.splice(at, 1);
    }
    if (changed) churn++;
  }
  if (!progress) for (const title of removedNow) if (!removed.includes(title)) removed.push(title);
  if (removed.length > MAX_REMOVED) removed = removed.slice(removed.length - MAX_REMOVED);

  const next: ReplanGuardState = Object.freeze({
    options: guard.options,
    done,
    objective,
    titles: Object.freeze(titles),
    churn,
    removed: Object.freeze(removed),
    returned,
  });
  let tripped: string | null = null;
  if (churn >= guard.options.churnTurns) {
    tripped = `the plan was set up, re-planned or rewritten on ${churn} turns with no step done`;
  } else if (returned >= guard.options.repeats) {
    tripped = `${returned} steps were removed and added again with no step done`;
  }
  return { guard: next, tripped };
}
