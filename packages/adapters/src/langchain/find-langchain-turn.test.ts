import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findLangChainTurn } from './find-langchain-turn.ts';

const names = new Set(['a_tool', 'b_tool']);

function ai(id: string | undefined, calls: [string, string][]): AIMessage {
  return new AIMessage({
    ...(id === undefined ? {} : { id }),
    content: '',
    tool_calls: calls.map(([callId, name]) => ({ id: callId, name, args: {}, type: 'tool_call' })),
  });
}

describe('findLangChainTurn', () => {
  it("finds the latest message holding the call, keyed by the message's id", () => {
    const older = ai('msg_1', [['c1', 'a_tool']]);
    const latest = ai('msg_2', [
      ['c1', 'a_tool'],
      ['x', 'host_tool'],
      ['c2', 'b_tool'],
    ]);
    const found = findLangChainTurn({ state: { messages: [older, latest] } }, 'c1', names);
    expect(found).toEqual({ turn: 'langchain:msg_2', ids: ['c1', 'c2'] });
  });

  it('keys a message without an id by the object itself', () => {
    const message = ai(undefined, [['c1', 'a_tool']]);
    expect(findLangChainTurn({ state: [message] }, 'c1', names)?.turn).toBe(message);
  });

  it('leaves out calls answered after the message, but never the call itself', () => {
    const message = ai('m', [
      ['c1', 'a_tool'],
      ['c2', 'a_tool'],
      ['c3', 'a_tool'],
    ]);
    const state = {
      messages: [
        new ToolMessage({ content: 'x', tool_call_id: 'c3' }), // before: answers nothing here
        message,
        new ToolMessage({ content: 'ok', tool_call_id: 'c1' }),
        new ToolMessage({ content: 'ok', tool_call_id: 'c2' }),
      ],
    };
    expect(findLangChainTurn({ state }, 'c2', names)?.ids).toEqual(['c2', 'c3']);
  });

  it('reads the running task input when the config has no state (custom nodes)', () => {
    const message = ai('m', [['c1', 'a_tool']]);
    const config = {
      configurable: { __pregel_scratchpad: { currentTaskInput: { messages: [message] } } },
    };
    expect(findLangChainTurn(config, 'c1', names)?.ids).toEqual(['c1']);
  });

  it('gives no turn when the state does not hold the call', () => {
    expect(findLangChainTurn(undefined, 'c1', names)).toBeUndefined();
    expect(findLangChainTurn({}, 'c1', names)).toBeUndefined();
    expect(
      findLangChainTurn({ state: { messages: [new HumanMessage('hi')] } }, 'c1', names),
    ).toBeUndefined();
  });

  it('never throws on configs and states of any shape (property)', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (state, configurable) => {
        const found = findLangChainTurn({ state, configurable }, 'c1', names);
        expect(found === undefined || Array.isArray(found.ids)).toBe(true);
      }),
    );
  });
});
