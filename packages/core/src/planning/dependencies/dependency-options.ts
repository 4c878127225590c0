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

/** The dependency rule the tools apply, once resolved. @internal */
export interface ResolvedDependencies {
  readonly onOpenDependency: OpenDependencyMode;
}

/**
 * The setting the `dependencies()` extension gives the other extensions (the batch tool reads
 * it): the open-dependency rule, under `dependencies`; `null` without the extension. @internal
 */
export function dependencySetting(
  settings: Readonly<Record<string, unknown>>,
): ResolvedDependencies | null {
  return (settings['dependencies'] as ResolvedDependencies | undefined) ?? null;
}
