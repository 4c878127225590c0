import { Session } from '@plankit/core';
import type {
  generateText as generateTextV6,
  streamText as streamTextV6,
  ToolSet as ToolSetV6,
} from 'ai';
import { describe, expectTypeOf, it } from 'vitest';
import { AISDKToolError } from './ai-sdk-tool-error.ts';
import { toAISDKTools } from './to-ai-sdk-tools.ts';

describe('toAISDKTools types', () => {
  it('fits the tools of generateText and streamText in ai 6', () => {
    const tools = toAISDKTools([], { session: new Session() });
    expectTypeOf(tools).toExtend<ToolSetV6>();
    expectTypeOf(tools).toExtend<NonNullable<Parameters<typeof generateTextV6>[0]['tools']>>();
    expectTypeOf(tools).toExtend<NonNullable<Parameters<typeof streamTextV6>[0]['tools']>>();
  });

  // Under ai 7 (the published types resolve `ai` to the major the app installed), the same
  // tools are checked by packages/adapters/types-ai-v7, which `npm run typecheck` compiles with
  // `ai` mapped to ai@7: they fit its ToolSet and take a typed toolsContext without a cast.

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
