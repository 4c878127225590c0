import { invalidArgument } from './invalid-argument.ts';

// The options the plan model had before it became extensions, each with what replaces it, so
// every entry that still meets an old flag (createPlanningTools, PlanningToolsSection,
// planningMiddleware) names the right extension.
const MOVED_FLAGS: Readonly<Record<string, string>> = {
  dependencies: 'extensions: [dependencies()]',
  batch: 'extensions: [batch()]',
  history: 'extensions: [history()]',
  owners: 'extensions: [owners({ agent })]',
  agent: 'the agent to owners({ agent }) or history({ agent })',
};

/**
 * What replaces the old plan-model flag `key`, as a sentence fragment ending in the entry to
 * import it from, or `undefined` when `key` is not one of those flags.
 */
export function movedFlagText(key: string): string | undefined {
  return Object.hasOwn(MOVED_FLAGS, key)
    ? `moved to an extension: pass ${MOVED_FLAGS[key]}, imported from '@plankit/core/plan-model'`
    : undefined;
}

/**
 * Throws `${where}: options.<key> moved to an extension: ...` for the first key of `options`
 * that is an old plan-model flag, so every entry that took the flags refuses them alike.
 */
export function checkMovedFlags(where: string, options: object): void {
  for (const key of Object.keys(options)) {
    const moved = movedFlagText(key);
    if (moved !== undefined) throw invalidArgument(where, `options.${key}`, moved);
  }
}
