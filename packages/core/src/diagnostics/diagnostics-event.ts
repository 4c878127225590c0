import type { PlanStatus, StepStatus } from '../planning/plan.ts';

// Payloads are plain frozen data: ids, codes, counts and numbers. The few fields holding what
// a model or a user wrote (arguments, results, objectives) say "Content" in their comment, so
// a subscriber that exports spans can drop them unless content capture is on.

/**
 * Published on `plankit:tool-call` when `invokeTool` starts a call, before the schema
 * runs. The matching {@link ToolCallEnded} carries the same `sessionId` and `callId`.
 *
 * @public
 */
export interface ToolCallStarted {
  /** The discriminant. */
  readonly type: 'tool-call-start';
  /** Which end of the call this is. */
  readonly phase: 'start';
  /**
   * The host's tool call id when the caller passed one (`invokeTool`'s `callId` option, set by
   * the adapters), else `plankit-call-<n>`, unique in this process.
   */
  readonly callId: string;
  /** The tool's name, such as `planning_mark_step`. */
  readonly toolName: string;
  /** The session the tool runs against. */
  readonly sessionId: string;
  /** The conversation id, when the caller knows it (the adapters' host call path does). */
  readonly conversationId?: string | undefined;
  /** The call's moment, in epoch milliseconds (the session's clock or `options.now`). */
  readonly at: number;
  /** Content: the arguments as the caller passed them, before the schema ran. */
  readonly arguments: unknown;
}

/**
 * Published on `plankit:tool-call` when a call whose start was published settles, after its
 * result is stored (and after any {@link PlanChanged} it caused).
 *
 * @public
 */
export interface ToolCallEnded {
  /** The discriminant. */
  readonly type: 'tool-call-end';
  /** Which end of the call this is. */
  readonly phase: 'end';
  /** The start's `callId`. */
  readonly callId: string;
  /** The tool's name. */
  readonly toolName: string;
  /** The session the tool ran against. */
  readonly sessionId: string;
  /** The conversation id, when the caller knows it. */
  readonly conversationId?: string | undefined;
  /** The call's moment, in epoch milliseconds (the same as the start's). */
  readonly at: number;
  /** Whether the call succeeded (and its result was stored). */
  readonly ok: boolean;
  /**
   * The refusal's stable code (`schema`, `step_unknown`, `tool_execution_failed`...), or
   * `null` when the call succeeded.
   */
  readonly code: string | null;
  /** The field the refusal names, or `null`. */
  readonly field: string | null;
  /** Content: what the model reads back (the tool's message, or the refusal). */
  readonly message: string;
  /** Content: the result's value (`null` on a refusal). */
  readonly value: unknown;
}

/** What {@link TOOL_CALL_CHANNEL} carries. @public */
export type ToolCallEvent = ToolCallStarted | ToolCallEnded;

/** One step a plan change touched. @public */
export interface PlanStepChange {
  /** The step's id, such as `S004`. */
  readonly stepId: string;
  /** Its status after the change; for a removed step, its last status. */
  readonly status: StepStatus;
  /** `added` (a new id), `updated` (the same id, changed) or `removed` (gone from the plan). */
  readonly change: 'added' | 'updated' | 'removed';
}

/** How many steps of the plan stand in each status, after a change. @public */
export interface PlanStepCounts {
  /** Every step. */
  readonly total: number;
  /** Steps not started. */
  readonly pending: number;
  /** Steps being worked on. */
  readonly in_progress: number;
  /** Steps that cannot go on. */
  readonly blocked: number;
  /** Finished steps. */
  readonly done: number;
}

/**
 * Published on `plankit:plan` when a commit or a rollback changed a session's plan (the
 * `plankit.Plan` slice). When a tool call made the change it comes between that call's
 * {@link ToolCallStarted} and {@link ToolCallEnded}, with the same `callId`.
 *
 * @public
 */
export interface PlanChanged {
  /** The discriminant. */
  readonly type: 'plan-changed';
  /** The session whose plan changed. */
  readonly sessionId: string;
  /** The session's revision after the change. */
  readonly revision: number;
  /** What changed the plan: a commit (a tool call or a dispatch) or a rollback. */
  readonly cause: 'commit' | 'rollback';
  /** The tool call that made the change, when one did: its `callId` and tool name. */
  readonly callId?: string | undefined;
  /** The tool that made the change, when one did. */
  readonly toolName?: string | undefined;
  /** The moment of the change, in epoch milliseconds. */
  readonly at: number;
  /** The plan's status after the change, or `null` when the session holds no plan. */
  readonly planStatus: PlanStatus | null;
  /** The steps added, changed or removed, in plan order (removed ones last). */
  readonly steps: readonly PlanStepChange[];
  /** The steps in each status after the change. */
  readonly counts: PlanStepCounts;
  /** Content: the plan's objective after the change, or `null` when there is no plan. */
  readonly objective: string | null;
}

/** Spending and caps of a machine after a transition: the budget figures. @public */
export interface TransitionBudget {
  /** The current run, from 1; leaving a wait state (an approval) starts the next. */
  readonly run: number;
  /** Transitions in this run. */
  readonly turns: number;
  /** Transitions in the whole session, across runs. */
  readonly totalTurns: number;
  /** USD the events reported, in the whole session. */
  readonly costUsd: number;
  /** Tokens the events reported, in the whole session. */
  readonly tokens: number;
  /** Active milliseconds in this run. */
  readonly elapsedMs: number;
  /** The turn cap, or `null` when uncapped. */
  readonly maxTurns: number | null;
  /** The USD cap, or `null` when uncapped. */
  readonly maxCostUsd: number | null;
  /** The token cap, or `null` when uncapped. */
  readonly maxTokens: number | null;
  /** The wall-time cap in milliseconds, or `null` when uncapped. */
  readonly maxWallTimeMs: number | null;
}

/**
 * Published on `plankit:transition` when `@plankit/controller`'s `transition`, `reportCap` or
 * `resume` moved a machine (not for a refused event, nor by `replay`). A `status` of
 * `waiting` means the machine now waits for an approval (a wait stage such as
 * `SEEK_APPROVAL`); `frozen`, that a cap stopped it (`cap` names it).
 *
 * @public
 */
export interface MachineTransitioned {
  /** The discriminant. */
  readonly type: 'transition';
  /** The machine's id, such as `planning-controller`. */
  readonly machine: string;
  /**
   * When this run of the machine began (its snapshot's `startedAt`), in epoch milliseconds:
   * with `machine`, it tells concurrent runs apart.
   */
  readonly startedAt: number;
  /** The state before. */
  readonly from: string;
  /** The state after (for a freeze, the state the machine stopped in). */
  readonly to: string;
  /**
   * What moved the machine: `outcome` (an event the agent reported), `cap` (a cap the host
   * reported) or `resume` (leaving a freeze).
   */
  readonly kind: 'outcome' | 'cap' | 'resume';
  /** The outcome for `outcome`, the cap's name for `cap`, `resume` for a resume. */
  readonly event: string;
  /** The confidence the event reported, from 0 to 1, or `null`. */
  readonly confidence: number | null;
  /** The machine's status after: `running`, `waiting` (for approval), `frozen` or `done`. */
  readonly status: 'running' | 'waiting' | 'frozen' | 'done';
  /** The cap that froze the machine, or `null`. */
  readonly cap: string | null;
  /** The moment of the event, in epoch milliseconds. */
  readonly at: number;
  /** Spending and caps after the transition. */
  readonly budget: TransitionBudget;
}

/**
 * Published on `plankit:pool` when the session pool has loaded a conversation from its store
 * (or failed to): once per load, however many callers shared it.
 *
 * @public
 */
export interface PoolLoaded {
  /** The discriminant. */
  readonly type: 'pool-load';
  /** The conversation loaded. */
  readonly conversationId: string;
  /** Whether the load succeeded. */
  readonly ok: boolean;
  /** The refusal's code when it failed (`session_load_failed`, `pool_closed`), else `null`. */
  readonly code: string | null;
  /** Live sessions after the load. */
  readonly live: number;
}

/** Published on `plankit:pool` when the session pool dropped a live session. @public */
export interface PoolEvicted {
  /** The discriminant. */
  readonly type: 'pool-evict';
  /** The conversation whose session was dropped. */
  readonly conversationId: string;
  /**
   * Why: `capacity` (its slot went to another conversation), `explicit` (`pool.evict`),
   * `close` (`pool.close`) or `failed` (its store attachment failed, or another process
   * changed the conversation: the next call reloads it).
   */
  readonly reason: 'capacity' | 'explicit' | 'close' | 'failed';
  /** Live sessions after the eviction. */
  readonly live: number;
}

/**
 * Published on `plankit:pool` when the session pool refused a conversation with `pool_full`:
 * every slot held and the wait queue full or the wait timed out.
 *
 * @public
 */
export interface PoolFull {
  /** The discriminant. */
  readonly type: 'pool-full';
  /** The conversation refused. */
  readonly conversationId: string;
  /** Live sessions at the refusal. */
  readonly live: number;
  /** Requests waiting for a slot at the refusal. */
  readonly waiting: number;
}

/** What {@link POOL_CHANNEL} carries. @public */
export type PoolEvent = PoolLoaded | PoolEvicted | PoolFull;

/** Every payload plankit publishes on its channels, discriminated by `type`. @public */
export type DiagnosticsEvent = ToolCallEvent | PlanChanged | MachineTransitioned | PoolEvent;
