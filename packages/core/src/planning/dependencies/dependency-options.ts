import { checkOptionKeys } from '../../internal/check-option-keys.ts';
import { invalidArgument } from '../../internal/invalid-argument.ts';

const OPTION_KEYS: ReadonlySet<string> = new Set(['onOpenDependency']);

/**
 * What the `dependencies()` extension does when a step is started (`in_progress`) or finished
 * (`done`) while one of its dependencies is not done: `'refuse'` the mark (the default), or
 * `'warn'`: apply it and say so in the result message.
 *
 * @public
 */
export type OpenDependencyMode = 'refuse' | 'warn';

/** Settings of the `dependencies()` extension. @public */
export interface DependencyOptions {
  /** Starting or finishing a step with open dependencies; `'refuse'` by default. */
  readonly onOpenDependency?: OpenDependencyMode | undefined;
}

/** The `dependencies()` extension resolved: `null` when off. @internal */
export interface ResolvedDependencies {
  readonly onOpenDependency: OpenDependencyMode;
}

/** Resolves `options.dependencies`, or throws `argument_invalid` naming the field. @internal */
export function resolveDependencies(
  value: boolean | DependencyOptions | undefined,
): ResolvedDependencies | null {
  if (value === undefined || value === false) return null;
  if (value === true) return { onOpenDependency: 'refuse' };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidArgument(
      'createPlanningTools',
      'options.dependencies',
      'must be a boolean or an object',
    );
  }
  checkOptionKeys('createPlanningTools', value, OPTION_KEYS, 'options.dependencies.');
  const mode = value.onOpenDependency ?? 'refuse';
  if (mode !== 'refuse' && mode !== 'warn') {
    throw invalidArgument(
      'createPlanningTools',
      'options.dependencies.onOpenDependency',
      'must be one of refuse, warn',
    );
  }
  return { onOpenDependency: mode };
}
