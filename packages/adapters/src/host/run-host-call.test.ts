import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { Session } from '@plankit/core';
import { TOOL_CALL_CHANNEL, type ToolCallEvent } from '@plankit/core/diagnostics';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { createOpenAIToolset } from '../openai/create-openai-toolset.ts';
import { MemoryStore } from '../persistence/stores/memory-store.ts';
import { createSessionPool } from '../sessions/create-session-pool.ts';
import { cleanup, ok, TOOLS } from '../sessions/testing/pool-helpers.ts';
import { callTool } from './call-tool.ts';

afterEach(cleanup);

function listen(): ToolCallEvent[] {
  const events: ToolCallEvent[] = [];
  const listener = (message: unknown) => events.push(message as ToolCallEvent);
  subscribe(TOOL_CALL_CHANNEL, listener);
  onTestFinished(() => {
    unsubscribe(TOOL_CALL_CHANNEL, listener);
  });
  return events;
}

const ids = (events: readonly ToolCallEvent[]) =>
  events.map(({ phase, callId, conversationId }) => ({ phase, callId, conversationId }));

describe('the host call path on plankit:tool-call', () => {
  it("carries the host's call id and the pool's conversation id (OpenAI Chat and Responses)", async () => {
    const pool = createSessionPool({ store: new MemoryStore() });
    const toolset = createOpenAIToolset(TOOLS);
    const session = pool.resolver((context: { key: string }) => context.key);
    const events = listen();
    await toolset.runChatToolCalls(
      [
        {
          id: 'call_a1',
          type: 'function',
          function: { name: 'planning_setup_plan', arguments: '{"objective":"Ship A"}' },
        },
      ],
      { session, key: 'chat-a' },
    );
    await toolset.runResponsesFunctionCalls(
      [
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_b1',
          name: 'planning_read_plan',
          arguments: '{}',
          status: 'completed',
        },
      ],
      { session, key: 'chat-b' },
    );
    expect(ids(events)).toEqual([
      { phase: 'start', callId: 'call_a1', conversationId: 'chat-a' },
      { phase: 'end', callId: 'call_a1', conversationId: 'chat-a' },
      { phase: 'start', callId: 'call_b1', conversationId: 'chat-b' },
      { phase: 'end', callId: 'call_b1', conversationId: 'chat-b' },
    ]);
    ok(await pool.close());
  });

  it("uses a fixed session's id as the conversation's, and generates an id a host left out or made unusable", async () => {
    const session = new Session({ sessionId: 'fixed' });
    const events = listen();
    await callTool(TOOLS, { name: 'planning_read_plan', arguments: '{}' }, { session });
    await callTool(
      TOOLS,
      { name: 'planning_read_plan', arguments: '{}', id: 'x'.repeat(257) },
      { session },
    );
    await callTool(TOOLS, { name: 'planning_read_plan', arguments: '{}', id: '' }, { session });
    expect(events).toHaveLength(6);
    for (const event of events) {
      expect(event.conversationId).toBe('fixed');
      expect(event.callId).toMatch(/^plankit-call-\d+$/);
    }
  });
});
