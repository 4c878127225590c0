/** What the model does on one turn. */
export type AgentAction =
  | { readonly kind: 'tool'; readonly tool: string; readonly args: unknown }
  | { readonly kind: 'outcome'; readonly outcome: string }
  | { readonly kind: 'finish' };

/** A side effect's answer, as the workflow hands it to the session. */
export interface EffectReceipt {
  readonly message: string;
  readonly receipt: string;
}

/**
 * The activities of the planning workflow: everything that talks to the world. Temporal records
 * each one's result in the workflow's history, and a replay reads it back instead of calling.
 */
export interface PlanningActivities {
  /** One model call: the plan as the model reads it in, the next action out. */
  modelTurn(input: { readonly turn: number; readonly planText: string }): Promise<AgentAction>;
  /**
   * A tool with side effects. Temporal retries an activity that failed or whose worker died,
   * so it runs at least once: the key, the same on every attempt, lets the effect happen once.
   */
  runEffect(input: {
    readonly tool: string;
    readonly args: unknown;
    readonly idempotencyKey: string;
  }): Promise<EffectReceipt>;
}

/** What the activities need: a model and the side effects, both plain async functions here. */
export interface ActivityDeps {
  readonly model: (turn: number, planText: string) => Promise<AgentAction>;
  readonly effect: (tool: string, args: unknown, idempotencyKey: string) => Promise<string>;
}

/**
 * The activities, for a worker's `activities` option (`@temporalio/worker`). The effects take the
 * idempotency key to their service (a deploy id, a payment key) so a retried attempt is a no-op.
 */
export function createActivities(deps: ActivityDeps): PlanningActivities {
  return {
    modelTurn: ({ turn, planText }) => deps.model(turn, planText),
    runEffect: async ({ tool, args, idempotencyKey }) => {
      const receipt = await deps.effect(tool, args, idempotencyKey);
      return { message: `${tool} done: ${receipt}.`, receipt };
    },
  };
}
