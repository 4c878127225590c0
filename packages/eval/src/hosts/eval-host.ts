import type { AnyTool, Session } from '@plankit/core';
import { clipText } from '@plankit/core/internal-unstable';

/** Tokens one model call used, as the provider reported them. @public */
export interface CallUsage {
  /** Input tokens, cached ones included. */
  readonly inputTokens: number;
  /** Output tokens. */
  readonly outputTokens: number;
  /** How many of the input tokens were read from the provider's cache (0 when unknown). */
  readonly cachedInputTokens: number;
}

/**
 * Why a trial stopped taking turns: the model answered without calling a tool (`done`), it ran
 * out of turns (`max_turns`), its own cap refused the next call (`trial_budget`), the run's
 * total cap refused it (`run_budget`), or the run was aborted (`aborted`).
 *
 * @public
 */
export type TrialStop = 'done' | 'max_turns' | 'trial_budget' | 'run_budget' | 'aborted';

/**
 * The budget guard a host asks before every model call. `reserve` holds a worst-case estimate
 * on the trial's and the run's budget; `settle` records what the call really used.
 *
 * @public
 */
export interface CallGuard {
  /**
   * Holds the most the next call can cost: `sent` is everything the call sends (system,
   * messages), counted as at most one token per UTF-8 byte, plus the tools' schemas, plus
   * `maxOutputTokens`. Resolves to a reservation id, or the reason the trial must stop.
   */
  reserve(sent: unknown): { ok: true; id: string } | { ok: false; stop: TrialStop };
  /**
   * Records the call's real usage against the reservation `id` and releases the hold. A usage
   * whose counts are not whole numbers >= 0 (NaN, undefined, a fraction) cannot be counted: the
   * call counts at its reserved worst case, so a cap still holds, and `settle` throws a
   * `TypeError` naming the count (so `callModel` rejects and, uncaught, errors the trial).
   */
  settle(id: string, usage: CallUsage): void;
}

/**
 * What {@link HostTrialInput.callModel} gives back: the call's result, or why the trial must
 * stop (`called`: whether the call was made, so whether it counts as a turn).
 *
 * @public
 */
export type ModelCallResult<T> =
  | {
      /** The call was made and settled. */
      readonly ok: true;
      /** What the call returned. */
      readonly value: T;
    }
  | {
      /** The trial must stop. */
      readonly ok: false;
      /** Why: a cap refused the call, or the trial was aborted. */
      readonly stop: TrialStop;
      /** Whether the call was made (an aborted call), so whether it counts as a turn. */
      readonly called: boolean;
    };

/** One entry of a trial's transcript. @public */
export type TranscriptEntry =
  | {
      /** A message the model wrote. */
      readonly kind: 'assistant';
      /** The turn, from 1. */
      readonly turn: number;
      /** Its text (may be empty when it only called tools). */
      readonly text: string;
    }
  | {
      /** A tool call and its outcome. */
      readonly kind: 'tool';
      /** The turn, from 1. */
      readonly turn: number;
      /** The tool's name. */
      readonly name: string;
      /** The arguments as the model sent them. */
      readonly input: unknown;
      /** Whether the tool accepted the call. */
      readonly ok: boolean;
      /** What the model was told (at most 2,000 characters kept). */
      readonly output: string;
    }
  | {
      /** A plan reminder the runner added before a turn. */
      readonly kind: 'reminder';
      /** The turn, from 1. */
      readonly turn: number;
      /** The reminder text. */
      readonly text: string;
    }
  | {
      /** A goal arm's decision after the model answered. */
      readonly kind: 'goal';
      /** The turn of the answer, from 1. */
      readonly turn: number;
      /** `active` (the goal continues) or how it stopped. */
      readonly status: 'active' | 'achieved' | 'unmet' | 'blocked' | 'budget_limited';
      /** The continuation line sent as the next user message, or why the goal stopped. */
      readonly text: string;
    };

/** What the runner gives a host for one trial. @public */
export interface HostTrialInput {
  /** The arm's system prompt (with the planning section when the arm plans). */
  readonly system: string;
  /** The task's prompt, sent as the first user message. */
  readonly prompt: string;
  /** The trial's tools: the task's workspace tools, the task's own, and the arm's planning tools. */
  readonly tools: readonly AnyTool[];
  /** The trial's own session, which the tools run against. */
  readonly session: Session;
  /** The most model calls the trial may make. */
  readonly maxTurns: number;
  /** The most output tokens one call may produce (sent to the provider). */
  readonly maxOutputTokens: number;
  /** The trial's own seed, derived from the run seed and the trial key. */
  readonly seed: number;
  /** `task/arm/repetition`; {@link HostTrialInput.taskId} and the next two are its parts. */
  readonly trialKey: string;
  /** The trial's task id. */
  readonly taskId: string;
  /** The trial's arm id. */
  readonly armId: string;
  /** The trial's repetition, from 1. */
  readonly repetition: number;
  /** Aborts the trial (the run was interrupted). */
  readonly signal: AbortSignal;
  /**
   * The budget guard, for a host that manages reservations itself: `reserve` before every call,
   * `settle` after. Most hosts use {@link HostTrialInput.callModel} instead.
   */
  readonly guard: CallGuard;
  /**
   * Makes one model call under the budget: reserves the worst case of `sent` (everything the
   * call sends), runs `call`, and settles `usage(result)`. A call that throws is settled at zero
   * and rethrown, or ends the trial as `aborted` when the signal fired. The built-in hosts use
   * it, and a custom host should: it leaves the reservations to the runner.
   *
   * @example
   * ```ts
   * const reply = await input.callModel(
   *   { system: input.system, messages },
   *   () => client.complete({ messages, signal: input.signal }),
   *   (r) => ({ inputTokens: r.usage.in, outputTokens: r.usage.out, cachedInputTokens: 0 }),
   * );
   * if (!reply.ok) return { text, stop: reply.stop, turns: reply.called ? turn : turn - 1 };
   * ```
   */
  callModel<T>(
    sent: unknown,
    call: () => PromiseLike<T>,
    usage: (result: T) => CallUsage,
  ): Promise<ModelCallResult<T>>;
  /** The reminder to add as a user message before turn `turn` (from 2), if any. */
  readonly reminder: (turn: number) => string | undefined;
  /**
   * Asked each time the model answers without calling a tool, with the answer's text and turn:
   * resolves to the next user message when the trial goes on (a goal arm's continuation line,
   * as Codex's and Claude Code's `/goal` send it), or `undefined` to stop as `done`. Arms
   * without a goal always resolve to `undefined`. A host that never asks runs a goal arm as a
   * single answer, and the report counts its goal as not decided.
   *
   * @example
   * ```ts
   * const next = await input.afterAnswer(text, turn);
   * if (next === undefined) return { text, stop: 'done', turns: turn };
   * messages.push({ role: 'user', content: next });
   * ```
   */
  readonly afterAnswer: (text: string, turn: number) => Promise<string | undefined>;
  /** Appends to the trial's transcript. */
  readonly record: (entry: TranscriptEntry) => void;
}

/** What a host returns when a trial stops. @public */
export interface HostTrialOutput {
  /** The model's last text. */
  readonly text: string;
  /** Why it stopped. */
  readonly stop: TrialStop;
  /** Model calls made. */
  readonly turns: number;
}

/**
 * Runs one trial against a model: the agent loop of one host SDK. Implementations:
 * {@link aiSdkHost}, {@link openAIChatHost}, {@link anthropicHost}.
 *
 * @public
 */
export interface EvalHost {
  /** The host's kind, for the report (`ai-sdk`, `openai`, `anthropic`). */
  readonly kind: string;
  /** The model id, a key of the run's price table. */
  readonly modelId: string;
  /** Runs the trial's agent loop until it stops. */
  runTrial(input: HostTrialInput): Promise<HostTrialOutput>;
}

/** Caps a tool output kept in a transcript (core's clip: it never splits a surrogate pair). */
export function clip(text: string, max = 2000): string {
  return clipText(text, max);
}
