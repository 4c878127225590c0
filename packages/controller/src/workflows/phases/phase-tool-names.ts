import type { AnyTool } from '@plankit/core';
import { isRecord } from '@plankit/core/internal-unstable';
import type { Phase } from '@plankit/prompt';
import { unknownKey } from '../../internal/checks.ts';
import { WorkflowError } from '../workflow-error.ts';

/**
 * The tool categories of a job's configuration, each a list of tool names.
 *
 * @public
 */
export interface PhaseToolConfig {
  /** Workspace access, in both phases (`read_file`, `write_file`, ...). */
  readonly workspace?: readonly string[] | undefined;
  /** Strategic-only tools; `['todo_write', 'job_complete']` by default. */
  readonly strategic?: readonly string[] | undefined;
  /** Tactical tools; `['todo_complete']` by default. */
  readonly tactical?: readonly string[] | undefined;
  /** Job-specific tools, tactical only. */
  readonly domain?: readonly string[] | undefined;
}

const KEYS: ReadonlySet<string> = new Set(['workspace', 'strategic', 'tactical', 'domain']);
const NAME = /^[a-z0-9_-]{1,64}$/;
// The strategic agent owns planning and the end of the job.
const STRATEGIC_ONLY: ReadonlySet<string> = new Set(['todo_write', 'job_complete']);
const DEFAULTS = {
  workspace: [],
  strategic: ['todo_write', 'job_complete'],
  tactical: ['todo_complete'],
  domain: [],
} as const;

function configError(field: string, rule: string, where = 'phaseToolNames'): WorkflowError {
  return new WorkflowError('config_invalid', `${where}: ${field} ${rule}.`, { field });
}

function category(config: PhaseToolConfig, key: keyof PhaseToolConfig): readonly string[] {
  const list = config[key] ?? DEFAULTS[key];
  if (!Array.isArray(list)) throw configError(`tools.${key}`, 'must be an array of tool names');
  for (const [index, name] of list.entries()) {
    if (typeof name !== 'string' || !NAME.test(name)) {
      throw configError(`tools.${key}[${index}]`, `must match ${NAME.source}`);
    }
    if (key !== 'strategic' && STRATEGIC_ONLY.has(name)) {
      throw configError(
        `tools.${key}[${index}]`,
        `names ${name}, which only a strategic phase may have`,
      );
    }
  }
  return list;
}

/**
 * The tool names of a phase, resolved from the configuration's categories:
 * strategic = workspace + strategic + `todo_complete`; tactical = workspace + tactical +
 * domain; in that order, each name once.
 *
 * @throws WorkflowError `config_invalid` for an unknown category, a bad name, or
 *   `todo_write` / `job_complete` outside the strategic category
 * @example
 * ```ts
 * const tools = { workspace: ['read_file', 'write_file'], domain: ['web_search'] };
 * phaseToolNames(tools, 'strategic'); // ['read_file', 'write_file', 'todo_write', 'job_complete', 'todo_complete']
 * phaseToolNames(tools, 'tactical'); // ['read_file', 'write_file', 'todo_complete', 'web_search']
 * ```
 * @public
 */
export function phaseToolNames(config: PhaseToolConfig, phase: Phase): readonly string[] {
  if (!isRecord(config)) throw configError('tools', 'must be an object');
  const extra = unknownKey(config, KEYS);
  if (extra !== undefined) throw configError(`tools.${extra}`, 'is not a category');
  const workspace = category(config, 'workspace');
  const strategic = category(config, 'strategic');
  const tactical = category(config, 'tactical');
  const domain = category(config, 'domain');
  let names: readonly string[];
  switch (phase) {
    case 'strategic':
      names = [...workspace, ...strategic, 'todo_complete'];
      break;
    case 'tactical':
      names = [...workspace, ...tactical, ...domain];
      break;
    default: {
      const unknown: never = phase;
      throw configError('phase', `must be strategic or tactical, got ${String(unknown)}`);
    }
  }
  return Object.freeze([...new Set(names)]);
}

/**
 * The tools of a phase, picked from `tools` by {@link phaseToolNames}, in the resolved order:
 * what to hand the model for this phase.
 *
 * @throws WorkflowError `config_invalid` as {@link phaseToolNames}, or when a resolved name
 *   has no tool in `tools`
 * @example
 * ```ts
 * const offered = selectPhaseTools([...phaseTools, ...workspaceTools, ...domainTools], config, job.phase);
 * ```
 * @public
 */
export function selectPhaseTools(
  tools: readonly AnyTool[],
  config: PhaseToolConfig,
  phase: Phase,
): readonly AnyTool[] {
  if (!Array.isArray(tools))
    throw configError('tools', 'must be an array of tools', 'selectPhaseTools');
  const byName = new Map<string, AnyTool>();
  for (const tool of tools)
    if (isRecord(tool) && typeof tool.name === 'string') byName.set(tool.name, tool);
  return Object.freeze(
    phaseToolNames(config, phase).map((name) => {
      const tool = byName.get(name);
      if (tool === undefined)
        throw configError('tools', `has no tool named ${name}`, 'selectPhaseTools');
      return tool;
    }),
  );
}
