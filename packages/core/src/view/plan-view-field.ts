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
const registered = new WeakMap<object, readonly PlanViewField[]>();
const NONE: readonly PlanViewField[] = Object.freeze([]);

/**
 * `value` as a view field, or the argument error naming `at` (`where: at must be ...`).
 * @internal
 */
export function checkViewField(value: unknown, where: string, at: string): PlanViewField {
  const candidate = value as Partial<PlanViewField> | null;
  if (typeof candidate !== 'object' || candidate === null || typeof candidate.read !== 'function')
    throw invalidArgument(where, at, 'must be a plan view field: { name, read }');
  if (!isViewFieldName(candidate.name))
    throw invalidArgument(where, `${at}.name`, VIEW_FIELD_NAME_RULE);
  return candidate as PlanViewField;
}

/**
 * `fields` checked, each named once: what `planView` reads for `options.fields`.
 * @internal
 */
export function checkViewFields(
  fields: unknown,
  where: string,
  field: string,
): readonly PlanViewField[] {
  if (!Array.isArray(fields))
    throw invalidArgument(where, field, 'must be an array of plan view fields');
  const names = new Set<string>();
  for (const [index, each] of fields.entries()) {
    const checked = checkViewField(each, where, `${field}[${index}]`);
    if (names.has(checked.name))
      throw invalidArgument(where, `${field}[${index}].name`, `repeats ${checked.name}`);
    names.add(checked.name);
  }
  return fields as readonly PlanViewField[];
}

/**
 * Records `fields` as `session`'s view fields, all or none. The same field again is a no-op;
 * another field of a name already taken is refused. @internal
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
  const known = registered.get(session) ?? NONE;
  const added: PlanViewField[] = [];
  for (const [index, each] of fields.entries()) {
    const at = `${field}[${index}]`;
    const checked = checkViewField(each, where, at);
    const same =
      known.find((other) => other.name === checked.name) ??
      added.find((other) => other.name === checked.name);
    if (same === checked) continue;
    if (same !== undefined)
      throw invalidArgument(
        where,
        `${at}.name`,
        `repeats ${checked.name}, a field another extension adds`,
      );
    added.push(checked);
  }
  // A new frozen list: one a caller holds from planViewFieldsOf never changes under it.
  if (added.length > 0) registered.set(session, Object.freeze([...known, ...added]));
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
