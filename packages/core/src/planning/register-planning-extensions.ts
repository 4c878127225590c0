import { type DataType, dataTypeName } from '../define-data-type.ts';
import { deepEqual } from '../internal/deep-equal.ts';
import { invalidArgument } from '../internal/invalid-argument.ts';
import { clipText, escapeControl } from '../internal/refusal-text.ts';
import { Session } from '../session.ts';
import { registerPlanViewFields } from '../view/plan-view-field.ts';
import { Plan } from './plan.ts';
import type {
  AnyExtensionDataType,
  AnyPlanningCommand,
  PlanningExtension,
} from './planning-extension.ts';
import { registerPlanningReducers } from './planning-reducers.ts';

/**
 * `value` as a list of extensions with unique names, or the argument error naming the first
 * that is not one. @internal
 */
export function checkExtensions(
  where: string,
  field: string,
  value: unknown,
): readonly PlanningExtension[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalidArgument(where, field, 'must be an array');
  const names = new Set<string>();
  for (let i = 0; i < value.length; i++) {
    const extension: unknown = value[i];
    const name = (extension as { name?: unknown } | null)?.name;
    if (typeof extension !== 'object' || extension === null || typeof name !== 'string') {
      throw invalidArgument(
        where,
        `${field}[${i}]`,
        'must be a planning extension, such as batch() from @plankit/core/plan-model',
      );
    }
    if (names.has(name)) {
      // An extension's name is the caller's text: clipped and on one line, as any quoted value.
      throw invalidArgument(
        where,
        `${field}[${i}]`,
        `repeats ${escapeControl(clipText(name, 200))}`,
      );
    }
    names.add(name);
  }
  return value as readonly PlanningExtension[];
}

// The commands and data types registered on each session through its extensions, by name,
// for its stores.
const declared = new WeakMap<Session, Map<string, DataType>>();
// The same commands with their reducers, for the PlanChange reducers that apply them.
const declaredCommands = new WeakMap<Session, Map<string, AnyPlanningCommand>>();
const NONE: ReadonlyMap<string, DataType> = new Map();

/**
 * The commands the planning extensions registered on `session` (through
 * `createPlanningTools`, {@link registerPlanningExtensions} or `registerPlanModelReducers`),
 * and the data types they route to slices of their own, by data type name: what a store
 * attached to the session replays besides its slices.
 *
 * @public
 */
export function planningCommandsOf(session: Session): ReadonlyMap<string, DataType> {
  return declared.get(session) ?? NONE;
}

/**
 * The command named `name` that the planning extensions registered on `session`, with its
 * reducer, or undefined. The table grows as more are registered: a reducer that looks a
 * command up here applies what the session knows when the value is reduced. @internal
 */
export function declaredCommandOf(session: Session, name: string): AnyPlanningCommand | undefined {
  return declaredCommands.get(session)?.get(name);
}

/** Registers `commands` on the plan slice of `session`, and records them for its stores. @internal */
export function registerPlanningCommands(
  session: Session,
  commands: readonly AnyPlanningCommand[],
): void {
  let known = declared.get(session);
  let withReducers = declaredCommands.get(session);
  if (known === undefined || withReducers === undefined) {
    known = new Map();
    withReducers = new Map();
    declared.set(session, known);
    declaredCommands.set(session, withReducers);
  }
  for (const command of commands) {
    session.register(command.dataType, command.reducer, { slice: Plan });
    const name = dataTypeName(command.dataType);
    known.set(name, command.dataType);
    withReducers.set(name, command);
  }
}

/**
 * Registers the data types extensions keep outside the plan on `session`, each on its slice,
 * and records them for its stores. @internal
 */
export function registerExtensionDataTypes(
  session: Session,
  dataTypes: readonly AnyExtensionDataType[],
): void {
  let known = declared.get(session);
  if (known === undefined) {
    known = new Map();
    declared.set(session, known);
    declaredCommands.set(session, new Map());
  }
  for (const { dataType, reducer, slice } of dataTypes) {
    if (slice === undefined) session.register(dataType, reducer);
    else session.register(dataType, reducer, { slice });
    known.set(dataTypeName(dataType), dataType);
  }
}

const show = (value: unknown): string => clipText(JSON.stringify(value) ?? String(value), 200);

/**
 * Every extension's settings in one frozen record, or the argument error naming the key two
 * extensions give different values (`must agree on the agent`). @internal
 */
export function agreedSettings(
  extensions: readonly PlanningExtension[],
): Readonly<Record<string, unknown>> {
  const settings: Record<string, unknown> = {};
  for (const extension of extensions) {
    for (const [key, value] of Object.entries(extension.settings ?? {})) {
      if (value === undefined) continue;
      if (Object.hasOwn(settings, key) && !deepEqual(settings[key], value)) {
        throw invalidArgument(
          'createPlanningTools',
          'options.extensions',
          `must agree on the ${clipText(key, 64)}: ${show(settings[key])} and ${show(value)} differ`,
        );
      }
      settings[key] = value;
    }
  }
  return Object.freeze(settings);
}

/**
 * Registers on `session` the planning reducers and what `extensions` declare: each command's
 * reducer on the plan slice, each data type's reducer on its own slice, each plan-view field
 * (for `planView(session)`), then each extension's `register` (given every command). What
 * `createPlanningTools` does to every session its tools run on; call it yourself on a session
 * that replays or applies those commands without tools (a viewer, a worker, a host's own
 * channel). Registering twice is a no-op.
 *
 * @example
 * ```ts
 * import { Session } from '@plankit/core';
 * import { batch, registerPlanningExtensions } from '@plankit/core/plan-model';
 *
 * registerPlanningExtensions(new Session(), [batch()]);
 * ```
 * @throws PlankitError `argument_invalid` for a missing session, a list that is not one of
 *   extensions with unique names, or a view field that is not one, is badly named or takes a
 *   name another extension's field holds
 * @public
 */
export function registerPlanningExtensions(
  session: Session,
  extensions: readonly PlanningExtension[],
): void {
  const where = 'registerPlanningExtensions';
  if (!(session instanceof Session)) throw invalidArgument(where, 'session', 'must be a Session');
  const checked = checkExtensions(where, 'extensions', extensions);
  registerPlanningReducers(session);
  const commands: AnyPlanningCommand[] = [];
  for (const extension of checked) commands.push(...(extension.commands ?? []));
  registerPlanningCommands(session, commands);
  for (const extension of checked) registerExtensionDataTypes(session, extension.dataTypes ?? []);
  for (const [index, extension] of checked.entries()) {
    if (extension.viewFields === undefined) continue;
    if (!Array.isArray(extension.viewFields))
      throw invalidArgument(where, `extensions[${index}].viewFields`, 'must be an array');
    registerPlanViewFields(session, extension.viewFields, where, `extensions[${index}].viewFields`);
  }
  for (const extension of checked) extension.register?.(session, commands);
}
