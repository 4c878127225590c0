import type { PlanView, PlanViewStep } from '@plankit/core/plan-view';
import { type ReactElement, useId, useMemo } from 'react';
import { goalFromView } from './goal-from-view.ts';
import { type PlanChecklistClassNames, resolveClassNames } from './plan-checklist-class-names.ts';
import type { PlanChecklistGoal } from './plan-checklist-goal.ts';
import { defaultPlanChecklistLabels, type PlanChecklistLabels } from './plan-checklist-labels.ts';
import { PlanStepRow } from './plan-step-row.tsx';

/** Props of {@link PlanChecklist}. @public */
export interface PlanChecklistProps {
  /** The plan to show (from {@link usePlan} or `parsePlanView`); `null` shows the empty state. */
  readonly plan: PlanView | null;
  /** Texts to replace; keep the object stable, or every row re-renders on each update. */
  readonly labels?: Partial<PlanChecklistLabels> | undefined;
  /** Class names added to each part's `plankit-*` class; keep the object stable too. */
  readonly classNames?: PlanChecklistClassNames | undefined;
  /** The level of the objective's heading (default 2), to fit the page's outline. */
  readonly headingLevel?: 2 | 3 | 4 | 5 | 6 | undefined;
  /**
   * The goal the agent works toward, shown above the counts with its status and budget used:
   * a `Goal` of `@plankit/controller/goal` with `used: renderGoalUsage(goal)`, or your own.
   * By default the goal the plan view carries (`plan.fields.goal`, which the `goals()`
   * extension adds: {@link goalFromView}); `null` shows none.
   */
  readonly goal?: PlanChecklistGoal | null | undefined;
}

/** The text of each waiting step's "waiting on" line, by step id. */
function waitingTexts(plan: PlanView, labels: PlanChecklistLabels): ReadonlyMap<string, string> {
  const texts = new Map<string, string>();
  let titles: Map<string, string> | undefined;
  for (const step of plan.steps) {
    if (step.waiting_on.length === 0) continue;
    titles ??= new Map(plan.steps.map((each) => [each.step_id, each.title]));
    const known = titles;
    texts.set(
      step.step_id,
      labels.waitingOn(step.waiting_on.map((id) => ({ step_id: id, title: known.get(id) ?? '' }))),
    );
  }
  return texts;
}

/**
 * An accessible, headless-friendly checklist of a plan: the objective as a heading, the
 * completed counts, and an ordered list (`aria-live="polite"`, so assistive technology reads
 * each change) with one row per step showing its status as text and as an icon, what a blocked
 * or not yet ready step waits on, its owner and last note. The in-progress step carries
 * `aria-current="step"`. Every part has a `plankit-*` class (and rows `data-status`) for your
 * CSS or `@plankit/react/styles.css`. With a goal (the `goal` prop, or else the one the plan
 * view carries), the goal's line (objective, status, budget used) sits above the counts. Rows are memoised by value: a mark on one step of a
 * 500-step plan re-renders that one row.
 *
 * Plan text in any language shows exactly as the plan holds it (NFC, as the tools store it;
 * nothing is clipped). Each element holding plan text (the objective, a title, details, a
 * note, the waiting and revision lines) has `dir="auto"`, which isolates it: a right-to-left
 * title takes its own direction and cannot reorder the row's id and status around it.
 *
 * @example
 * ```tsx
 * const plan = usePlan(messages);
 * return <PlanChecklist plan={plan} />;
 * ```
 *
 * @public
 */
export function PlanChecklist({
  plan,
  labels,
  classNames,
  headingLevel = 2,
  goal,
}: PlanChecklistProps): ReactElement {
  const headingId = useId();
  const text = useMemo<PlanChecklistLabels>(
    () =>
      labels === undefined
        ? defaultPlanChecklistLabels
        : Object.freeze({ ...defaultPlanChecklistLabels, ...labels }),
    [labels],
  );
  const classes = useMemo(() => resolveClassNames(classNames), [classNames]);
  const waiting = useMemo(
    () => (plan === null ? new Map<string, string>() : waitingTexts(plan, text)),
    [plan, text],
  );
  // The view's goal when the host passes none; `null` from the host means none at all.
  const fromView = useMemo(() => (goal === undefined ? goalFromView(plan) : null), [goal, plan]);
  const shown = goal === undefined ? fromView : goal;
  const Heading = `h${headingLevel}` as const;
  const planStatus = plan === null ? null : text.planStatus(plan.status);
  const explanation = plan?.revision?.explanation ?? null;
  return (
    <section
      className={classes.root}
      aria-labelledby={headingId}
      data-status={plan === null ? 'empty' : plan.status}
    >
      <div className={classes.header}>
        <Heading id={headingId} className={classes.heading} dir="auto">
          {plan === null ? text.empty : plan.objective}
        </Heading>
        {shown === null ? null : (
          <p className={classes.goal} data-goal-status={shown.status}>
            {text.goal(shown)}
          </p>
        )}
        {plan === null ? null : <p className={classes.counts}>{text.counts(plan.counts)}</p>}
        {planStatus === null ? null : <p className={classes.planStatus}>{planStatus}</p>}
        {explanation === null ? null : (
          <p className={classes.revision} dir="auto">
            {text.revision(explanation)}
          </p>
        )}
      </div>
      <ol className={classes.list} aria-live="polite">
        {plan?.steps.map((step: PlanViewStep) => (
          <PlanStepRow
            key={step.step_id}
            step={step}
            waiting={waiting.get(step.step_id) ?? null}
            labels={text}
            classNames={classes}
          />
        ))}
      </ol>
    </section>
  );
}
