import type { PlanViewStep } from '@plankit/core/plan-view';
import { memo, type NamedExoticComponent, type ReactElement } from 'react';
import type { ResolvedClassNames } from './plan-checklist-class-names.ts';
import type { PlanChecklistLabels } from './plan-checklist-labels.ts';

/** What one row of the checklist shows. @internal */
export interface PlanStepRowProps {
  readonly step: PlanViewStep;
  /** What the step waits on, as text; `null` when it waits on nothing. */
  readonly waiting: string | null;
  readonly labels: PlanChecklistLabels;
  readonly classNames: ResolvedClassNames;
}

// Icons only repeat the status text beside them, so they are hidden from assistive technology.
const ICONS: Readonly<Record<PlanViewStep['status'], string>> = {
  pending: '\u25CB',
  in_progress: '\u25D0',
  blocked: '\u2298',
  done: '\u2713',
};

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Whether two steps show the same. Each plan update is parsed into new objects, so rows compare
 * by value: a mark on one step of a long plan re-renders that row only.
 *
 * @internal
 */
export function sameStep(a: PlanViewStep, b: PlanViewStep): boolean {
  return (
    a === b ||
    (a.step_id === b.step_id &&
      a.title === b.title &&
      a.details === b.details &&
      a.status === b.status &&
      a.owner === b.owner &&
      a.last_note === b.last_note &&
      sameIds(a.depends_on, b.depends_on) &&
      sameIds(a.waiting_on, b.waiting_on))
  );
}

function sameRow(a: PlanStepRowProps, b: PlanStepRowProps): boolean {
  return (
    a.waiting === b.waiting &&
    a.labels === b.labels &&
    a.classNames === b.classNames &&
    sameStep(a.step, b.step)
  );
}

function StepRow({ step, waiting, labels, classNames }: PlanStepRowProps): ReactElement {
  return (
    <li
      className={`${classNames.step} plankit-step--${step.status}`}
      data-status={step.status}
      data-step-id={step.step_id}
      data-waiting={waiting === null ? undefined : 'true'}
      aria-current={step.status === 'in_progress' ? 'step' : undefined}
    >
      <span className={classNames.icon} aria-hidden="true">
        {ICONS[step.status]}
      </span>
      <span className={classNames.body}>
        <span className={classNames.stepId}>{step.step_id}</span>{' '}
        <span className={classNames.title} dir="auto">
          {step.title}
        </span>{' '}
        <span className={classNames.stepStatus}>{labels.status(step.status)}</span>
        {step.details === null ? null : (
          <span className={classNames.details} dir="auto">
            {step.details}
          </span>
        )}
        {waiting === null ? null : (
          <span className={classNames.waiting} dir="auto">
            {waiting}
          </span>
        )}
        {step.owner === null ? null : (
          <span className={classNames.owner}>{labels.owner(step.owner)}</span>
        )}
        {step.last_note === null ? null : (
          <span className={classNames.note} dir="auto">
            {step.last_note}
          </span>
        )}
      </span>
    </li>
  );
}

/** One step of {@link PlanChecklist}, re-rendered only when what it shows changed. @internal */
export const PlanStepRow: NamedExoticComponent<PlanStepRowProps> = memo(StepRow, sameRow);
