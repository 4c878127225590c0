import { deepFreeze } from '@plankit/core/internal-unstable';
import { initialSnapshot } from '../../engine/initial-snapshot.ts';
import { isTime, TIME_RULE } from '../../internal/checks.ts';
import { argumentError, checkOptions, checkStorableOptions } from '../internal/checks.ts';
import { isRelativePath } from '../internal/relative-path.ts';
import { WorkflowError } from '../workflow-error.ts';
import { workshopMachine } from './workshop-machine.ts';
import {
  DEFAULT_WORKSHOP_ARTIFACTS,
  WORKSHOP_LIMITS,
  type WorkshopState,
} from './workshop-state.ts';
import { FILE_PLAN, JSON_PLAN, MARKDOWN_PLAN } from './workshop-step.ts';

/** Options of {@link startWorkshop}. @public */
export interface WorkshopOptions {
  /** When planning starts, in epoch milliseconds. */
  readonly now: number;
  /** What is to be planned: 1-100,000 characters, not blank. */
  readonly brief: string;
  /**
   * The planning outputs `review_ready` requires (file names, at most 20); by default
   * `planning.ai.json`, `plan.md` and `plan.files.json`. `plan.md` and `plan.files.json` need
   * `planning.ai.json`.
   */
  readonly artifacts?: readonly string[] | undefined;
}

const WHERE = 'startWorkshop';
const KEYS: ReadonlySet<string> = new Set(['now', 'brief', 'artifacts']);

function readArtifacts(value: unknown): readonly string[] {
  if (value === undefined) return DEFAULT_WORKSHOP_ARTIFACTS;
  if (!Array.isArray(value) || value.length === 0 || value.length > 20) {
    throw new WorkflowError(
      'config_invalid',
      `${WHERE}: options.artifacts must list 1-20 file names.`,
      {
        field: 'options.artifacts',
      },
    );
  }
  const names = new Set<string>();
  for (const [index, name] of value.entries()) {
    if (typeof name !== 'string' || name.length > 256 || !isRelativePath(name) || names.has(name)) {
      throw new WorkflowError(
        'config_invalid',
        `${WHERE}: options.artifacts[${index}] must be a distinct relative file name.`,
        { field: `options.artifacts[${index}]` },
      );
    }
    names.add(name);
  }
  for (const dependent of [MARKDOWN_PLAN, FILE_PLAN]) {
    if (names.has(dependent) && !names.has(JSON_PLAN)) {
      throw new WorkflowError(
        'config_invalid',
        `${WHERE}: options.artifacts lists ${dependent}, which needs ${JSON_PLAN}.`,
        { field: 'options.artifacts' },
      );
    }
  }
  return Object.freeze([...names]);
}

/**
 * Starts a planning workshop in `draft`, with the brief and no plan material.
 *
 * @throws WorkflowError `argument_invalid` for bad options, `config_invalid` for an artifact
 *   list that cannot work
 * @example
 * ```ts
 * let state = startWorkshop({ now: Date.now(), brief: 'Add SSO to the admin console.' });
 * ```
 * @public
 */
export function startWorkshop(options: WorkshopOptions): WorkshopState {
  checkOptions(WHERE, options, KEYS);
  const { now, brief } = options;
  if (!isTime(now)) {
    throw argumentError(WHERE, 'options.now', TIME_RULE);
  }
  if (typeof brief !== 'string' || brief.trim() === '' || brief.length > WORKSHOP_LIMITS.brief) {
    throw argumentError(
      WHERE,
      'options.brief',
      `must be 1-${WORKSHOP_LIMITS.brief} characters, not blank`,
    );
  }
  const artifactNames = readArtifacts(options.artifacts);
  checkStorableOptions(WHERE, options);
  return deepFreeze({
    format: 'plankit.workshop',
    version: 1,
    machine: initialSnapshot(workshopMachine, { now }),
    brief,
    artifactNames,
    artifacts: [],
    round: 0,
    attempt: 1,
    transcript: [],
    archivedEntries: 0,
    redos: [],
    problems: [],
    startedAt: now,
    updatedAt: now,
  });
}
