// A LangChain callback that holds tool calls before they run, as an awaited tracing or
// approval hook would: the LangChain and LangGraph suites use it to make calls finish out of
// the model's order.
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Holds each tool call in an awaited `handleToolStart` for as long as `delays` says for its
 * tool-call id (not at all for an id it does not name), and records the ids in start order.
 */
export class HoldToolStart extends BaseCallbackHandler {
  name = 'hold-tool-start';
  readonly delays: ReadonlyMap<string, number>;
  readonly started: string[] = [];

  constructor(delays: ReadonlyMap<string, number>) {
    super({ _awaitHandler: true });
    this.delays = delays;
  }

  override async handleToolStart(
    _tool: unknown,
    _input: string,
    _runId: string,
    _parentRunId?: string,
    _tags?: string[],
    _metadata?: Record<string, unknown>,
    _runName?: string,
    toolCallId?: string,
  ): Promise<void> {
    this.started.push(toolCallId ?? '');
    await sleep(this.delays.get(toolCallId ?? '') ?? 0);
  }
}
