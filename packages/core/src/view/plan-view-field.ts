import { invalidArgument } from '../internal/invalid-argument.ts';
import type { SessionSnapshot } from '../session-snapshot.ts';

/**
 * JSON data an extension adds to a plan view: what `JSON.parse` can return, deeply frozen.
 *
 * @public
 */
export type PlanViewFieldValue =
  | null
  | boolean
  | number
  | string
  | readonly PlanViewFieldValue[]
  | { readonly [key: string]: PlanViewFieldValue };

/**
 * A field an extension adds to the plan views of a session it is registered on (its
 * `viewFields`): `planView(session)` calls `read` with the session's slices and puts what it
 * returns under `view.fields[name]`. The goal of `@plankit/controller/goal` is one.
 *
 * @public
 */
export interface PlanViewField {
  /** The key under the view's `fields`: 1-64 of `a-z`, `0-9` and `_`, starting with a letter. */
  readonly name: string;
  /**
   * The field's value, from the newest values of the slices it reads, so a view costs what the
   * plan's size costs, however long the session; `null` leaves the field out. Return JSON data
   * only (the view travels as JSON), deeply frozen.
   */
  readonly read: (slices: SessionSnapshot['slices']) => PlanViewFieldValue | null;
}

/** The rule a view field's name follows, in words. @internal */
export const VIEW_FIELD_NAME_RULE =
  'must be 1-64 of a-z, 0-9 and _, starting with a letter (such as goal)';

const NAME = /^[a-z][a-z0-9_]{0,63}$/;

/** True when `name` may name a view field. @internal */
export function isViewFieldName(name: unknown): name is string {
  return typeof name === 'string' && NAME.test(name);
}

// The fields registered on each session through its extensions, for planView(session). A
// WeakMap of its own, so this entry bundles neither the session nor the reducers.
const registered = new WeakMap<object, PlanViewField[]>();
const NONE: readonly PlanViewField[] = Object.freeze([]);

/**
 * Records `fields` as `session`'s view fields. The same field again is a no-op; another field
 * of a name already taken is refused. @internal
 *
 * @throws PlankitError `argument_invalid` naming `field` for a field that is not one, a bad
 *   name, or a name another extension's field holds
 */
export function registerPlanViewFields(
  session: object,
  fields: readonly PlanViewField[],
  where: string,
  field: string,
): void {
  let known = registered.get(session);
  for (const [index, each] of fields.entries()) {
    const at = `${field}[${index}]`;
    if (typeof each !== 'object' || each === null || typeof each.read !== 'function')
      throw invalidArgument(where, at, 'must be a plan view field: { name, read }');
    if (!isViewFieldName(each.name))
      throw invalidArgument(where, `${at}.name`, VIEW_FIELD_NAME_RULE);
    known ??= [];
    const same = known.find((other) => other.name === each.name);
    if (same === each) continue;
    if (same !== undefined)
      throw invalidArgument(
        where,
        `${at}.name`,
        `repeats ${each.name}, a field another extension adds`,
      );
    known.push(each);
  }
  if (known !== undefined) registered.set(session, known);
}

/**
 * The view fields the extensions registered on `session` added, in the order registered: what
 * `planView(session)` adds to its views.
 *
 * @public
 */
export function planViewFieldsOf(session: object): readonly PlanViewField[] {
  return registered.get(session) ?? NONE;
}
