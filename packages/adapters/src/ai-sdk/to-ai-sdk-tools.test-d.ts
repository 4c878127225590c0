import { Session } from '@plankit/core';
import type {
  generateText as generateTextV6,
  streamText as streamTextV6,
  ToolSet as ToolSetV6,
} from 'ai';
import type {
  generateText as generateTextV7,
  streamText as streamTextV7,
  ToolSet as ToolSetV7,
  Tool as ToolV7,
} from 'ai-v7';
import { describe, expectTypeOf, it } from 'vitest';
import { AISDKToolError } from './ai-sdk-tool-error.ts';
import { type AISDKToolOutput, toAISDKTools } from './to-ai-sdk-tools.ts';

// The published declaration returns `Record<string, Tool<unknown, AISDKToolOutput>>` with `Tool`
// from `ai`, which resolves to the major the app installed: this is that type under ai@7.
type ToolsUnderV7 = Record<string, ToolV7<unknown, AISDKToolOutput>>;

describe('toAISDKTools types', () => {
  it('fits the tools of generateText and streamText in ai 6', () => {
    const tools = toAISDKTools([], { session: new Session() });
    expectTypeOf(tools).toExtend<ToolSetV6>();
    expectTypeOf(tools).toExtend<NonNullable<Parameters<typeof generateTextV6>[0]['tools']>>();
    expectTypeOf(tools).toExtend<NonNullable<Parameters<typeof streamTextV6>[0]['tools']>>();
  });

  it('fits the tools of generateText and streamText in ai 7', () => {
    expectTypeOf<ToolsUnderV7>().toExtend<ToolSetV7>();
    expectTypeOf<ToolsUnderV7>().toExtend<
      NonNullable<Parameters<typeof generateTextV7>[0]['tools']>
    >();
    expectTypeOf<ToolsUnderV7>().toExtend<
      NonNullable<Parameters<typeof streamTextV7>[0]['tools']>
    >();
  });

  it('takes strict as a boolean or a per-tool predicate', () => {
    const session = new Session();
    expectTypeOf(toAISDKTools).toBeCallableWith([], { session, strict: false });
    expectTypeOf(toAISDKTools).toBeCallableWith([], {
      session,
      strict: (tool) => tool.name.startsWith('planning_'),
      orderTimeoutMs: 1_000,
    });
  });

  it('narrows a thrown tool error to AISDKToolError', () => {
    const error: unknown = undefined;
    if (AISDKToolError.isInstance(error)) {
      expectTypeOf(error.result.success).toEqualTypeOf<false>();
      expectTypeOf(error.message).toBeString();
    }
  });
});
