/**
 * The parts of {@link PlanChecklist} an app can give its own class names, each added to the
 * part's default `plankit-*` class (which the default stylesheet styles).
 *
 * @public
 */
export type PlanChecklistPart =
  | 'root'
  | 'header'
  | 'heading'
  | 'goal'
  | 'counts'
  | 'planStatus'
  | 'revision'
  | 'list'
  | 'step'
  | 'stepId'
  | 'icon'
  | 'body'
  | 'title'
  | 'stepStatus'
  | 'details'
  | 'waiting'
  | 'owner'
  | 'note';

/**
 * Extra class names per part, for Tailwind or CSS modules. Every row reads them, so keep the
 * object stable (a module constant or `useMemo`).
 *
 * @public
 */
export type PlanChecklistClassNames = Readonly<Partial<Record<PlanChecklistPart, string>>>;

/** Every part's class attribute: the default class, then the app's. @internal */
export type ResolvedClassNames = Readonly<Record<PlanChecklistPart, string>>;

const DEFAULTS: ResolvedClassNames = {
  root: 'plankit-checklist',
  header: 'plankit-checklist__header',
  heading: 'plankit-checklist__heading',
  goal: 'plankit-checklist__goal',
  counts: 'plankit-checklist__counts',
  planStatus: 'plankit-checklist__status',
  revision: 'plankit-checklist__revision',
  list: 'plankit-checklist__steps',
  step: 'plankit-step',
  stepId: 'plankit-step__id',
  icon: 'plankit-step__icon',
  body: 'plankit-step__body',
  title: 'plankit-step__title',
  stepStatus: 'plankit-step__status',
  details: 'plankit-step__details',
  waiting: 'plankit-step__waiting',
  owner: 'plankit-step__owner',
  note: 'plankit-step__note',
};

/** The default classes with the app's appended. @internal */
export function resolveClassNames(extra: PlanChecklistClassNames | undefined): ResolvedClassNames {
  if (extra === undefined) return DEFAULTS;
  const resolved: Record<string, string> = {};
  for (const [part, base] of Object.entries(DEFAULTS)) {
    const own = extra[part as PlanChecklistPart];
    resolved[part] = own === undefined || own === '' ? base : `${base} ${own}`;
  }
  return Object.freeze(resolved as ResolvedClassNames);
}
