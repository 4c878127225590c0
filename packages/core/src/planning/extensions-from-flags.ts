import { invalidArgument } from '../internal/invalid-argument.ts';
import { batch } from './batch/batch.ts';
import { dependencies } from './dependencies/dependencies.ts';
import type { DependencyOptions } from './dependencies/dependency-options.ts';
import { history } from './history/history.ts';
import { AGENT_ID_RULE, agentIdProblem } from './owners/agent-id.ts';
import { owners } from './owners/owners.ts';
import type { PlanningExtension } from './planning-extension.ts';

/**
 * The option flags `createPlanningTools` took before the plan model became extensions.
 *
 * @deprecated Pass extensions: `dependencies()`, `batch()`, `history()`, `owners({ agent })`.
 * @public
 */
export interface PlanModelFlags {
  /** `true` or options: {@link dependencies}. */
  readonly dependencies?: boolean | DependencyOptions | undefined;
  /** {@link batch}. */
  readonly batch?: boolean | undefined;
  /** {@link history}. */
  readonly history?: boolean | undefined;
  /** {@link owners}, with `agent`. */
  readonly owners?: boolean | undefined;
  /** The agent of `owners` and `history`. */
  readonly agent?: string | undefined;
}

function flag(where: string, flags: PlanModelFlags, key: 'batch' | 'history' | 'owners'): boolean {
  const value = flags[key] ?? false;
  if (typeof value !== 'boolean')
    throw invalidArgument(where, `options.${key}`, 'must be a boolean');
  return value;
}

/**
 * The extensions the old option flags stand for, in the order the flags put the tools
 * (dependencies, batch, owners, history), so hosts that still accept the flags give the same
 * tools as before. Checks each flag, naming it as `where`'s option.
 *
 * @deprecated Pass extensions instead; the flags go in the next release.
 * @throws PlankitError `argument_invalid` naming the flag
 * @public
 */
export function extensionsFromFlags(
  flags: PlanModelFlags,
  where = 'createPlanningTools',
): readonly PlanningExtension[] {
  const out: PlanningExtension[] = [];
  const deps = flags.dependencies ?? false;
  if (deps !== false) {
    if (deps !== true && (typeof deps !== 'object' || deps === null || Array.isArray(deps)))
      throw invalidArgument(where, 'options.dependencies', 'must be a boolean or an object');
    out.push(dependencies(deps === true ? {} : deps));
  }
  if (flag(where, flags, 'batch')) out.push(batch());
  const agent = flags.agent;
  if (flag(where, flags, 'owners')) {
    if (agent === undefined)
      throw invalidArgument(
        where,
        'options.agent',
        'must be given with owners: the id the tools claim steps as',
      );
    out.push(owners({ agent }));
  }
  if (flag(where, flags, 'history')) out.push(history(agent === undefined ? {} : { agent }));
  else if (agent !== undefined && agentIdProblem(agent) !== undefined)
    throw invalidArgument(where, 'options.agent', AGENT_ID_RULE);
  return out;
}
