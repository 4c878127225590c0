import { checkOptionKeys } from '../../internal/check-option-keys.ts';
import { invalidArgument } from '../../internal/invalid-argument.ts';
import { isRecord } from '../../internal/is-record.ts';
import type { Session } from '../../session.ts';
import { AGENT_ID_RULE, agentIdProblem } from '../owners/agent-id.ts';
import type { AnyPlanningCommand, PlanningExtension } from '../planning-extension.ts';
import { PlanChange, planChangeReducer, registerDeclaredChanges } from './plan-change.ts';
import { registerPlanHistory } from './plan-history.ts';
import { carriesCommand, withHistory } from './with-history.ts';

/** Options of {@link history}. @public */
export interface HistoryOptions {
  /** The agent recorded as the actor of each change; the owners extension's agent otherwise. */
  readonly agent?: string | undefined;
}

/** What {@link history} returns. @public */
export type HistoryExtension = PlanningExtension<
  'history',
  { readonly explained: true; readonly planHistory: true }
>;

const OPTION_KEYS: ReadonlySet<string> = new Set(['agent']);

/** What {@link history} declares: `PlanChange` and its reducer, on the plan slice. @internal */
export const HISTORY_COMMANDS: readonly AnyPlanningCommand[] = Object.freeze([
  { dataType: PlanChange, reducer: planChangeReducer },
]);

/**
 * What {@link history} registers on each session besides its commands: the reducer of the
 * changes that carry another extension's command, and the plan history's reducers.
 */
function registerHistory(session: Session, commands: readonly AnyPlanningCommand[]): void {
  registerDeclaredChanges(session);
  registerPlanHistory(session, commands);
}

/** The line {@link history} adds to the planning prompt. @internal */
export function historyPromptLines(): readonly string[] {
  return [
    '- Give each planning change a short `explanation` of why; it is kept in the plan history.',
  ];
}

/**
 * The history extension: every tool that changes the plan (the six's, the plan model's, and
 * every tool whose command an extension declares in its `commands`, whatever the order the
 * extensions are listed in) takes an optional `explanation` and dispatches a `PlanChange` (the
 * command with the actor and the explanation), and every change of the plan is recorded for
 * `planHistory` (the newest `MAX_PLAN_REVISIONS`).
 *
 * @example
 * ```ts
 * import { createPlanningTools, Session } from '@plankit/core';
 * import { history } from '@plankit/core/plan-model';
 *
 * const tools = createPlanningTools(new Session(), { extensions: [history({ agent: 'lead' })] });
 * ```
 * @throws PlankitError `argument_invalid` for a malformed agent or unknown options
 * @public
 */
export function history(options: HistoryOptions = {}): HistoryExtension {
  if (!isRecord(options)) throw invalidArgument('history', 'options', 'must be an object');
  checkOptionKeys('history', options, OPTION_KEYS);
  const { agent } = options;
  if (agent !== undefined && agentIdProblem(agent) !== undefined)
    throw invalidArgument('history', 'options.agent', AGENT_ID_RULE);
  return Object.freeze<HistoryExtension>({
    name: 'history',
    // Shared with owners(): the agent that claims is the actor recorded.
    ...(agent === undefined ? {} : { settings: Object.freeze({ agent }) }),
    commands: HISTORY_COMMANDS,
    register: registerHistory,
    promptLines: historyPromptLines,
    wrap: (tool, context) =>
      carriesCommand(tool, context.commands)
        ? withHistory(tool, {
            acceptsOverrides: context.acceptsOverrides,
            prepare: context.prepare,
            text: context.text,
            agent: typeof context.settings['agent'] === 'string' ? context.settings['agent'] : null,
          })
        : tool,
  });
}
