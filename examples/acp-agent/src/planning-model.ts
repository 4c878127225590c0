import type { Plan } from '@plankit/core';

/** One tool call a model asks for. */
export interface ModelToolCall {
  /** The call's id, unique within the session: it becomes the ACP `toolCallId`. */
  readonly id: string;
  readonly name: string;
  readonly arguments: unknown;
}

/** What the agent ran for a call, as the model reads it back. */
export interface ModelToolOutcome {
  readonly id: string;
  readonly success: boolean;
  readonly text: string;
}

/** One step of a turn: what the model sees. */
export interface ModelRequest {
  /** The ACP session, so a model can keep each conversation's history apart. */
  readonly sessionId: string;
  /** The user's prompt of this turn, as text. */
  readonly prompt: string;
  /** The session's plan now. */
  readonly plan: Plan | undefined;
  /** 0 for the turn's first step, then 1, 2, ... */
  readonly step: number;
  /** The outcomes of the previous step's calls; empty on the first step. */
  readonly outcomes: readonly ModelToolOutcome[];
}

/** One step's answer: tool calls to run, or (with none) the turn's final text. */
export interface ModelReply {
  readonly text: string;
  readonly calls: readonly ModelToolCall[];
}

/** The model behind the agent: scripted by default, Claude with `ANTHROPIC_API_KEY`. */
export interface PlanningModel {
  reply(request: ModelRequest, signal: AbortSignal): Promise<ModelReply>;
}
