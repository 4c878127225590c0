/**
 * The Claude Agent SDK's own plan tools: the task tools (`TaskCreate`, `TaskGet`, `TaskList`,
 * `TaskUpdate`) and the older `TodoWrite`. To have the model plan with plankit's tools
 * instead, pass these as `disallowedTools` to `query()`: the SDK then removes them from the
 * model's context, so the plan has one home, the plankit session. Which of them the SDK offers
 * by default depends on its version and the model (`CLAUDE_CODE_ENABLE_TASKS`), so all are
 * listed; `TaskStop`, which stops a background command, is not a plan tool and is not listed.
 *
 * @public
 */
export const CLAUDE_AGENT_TASK_TOOLS: readonly string[] = Object.freeze([
  'TaskCreate',
  'TaskGet',
  'TaskList',
  'TaskUpdate',
  'TodoWrite',
]);
