// The same toolset against openai@7 (the `openai-v7` npm alias). openai@7 declares Node >= 22;
// its client loads and runs on Node 20.20 here, so these run, not only type-check. The
// assertions below are checked by `tsc`: our definitions and messages are openai@7 params.
import { createPlanningTools, Session } from '@plankit/core';
import OpenAI from 'openai-v7';
import type {
  ChatCompletionFunctionTool,
  ChatCompletionToolMessageParam,
} from 'openai-v7/resources/chat/completions';
import type { FunctionTool, ResponseInputItem } from 'openai-v7/resources/responses/responses';
import { describe, expectTypeOf, it } from 'vitest';
import { createOpenAIToolset } from './create-openai-toolset.ts';
import { describeOpenAIClient } from './testing/openai-client-cases.ts';

// The client cases, written once in testing/openai-client-cases.ts, against openai 7.
describeOpenAIClient({ name: 'openai@7', OpenAI });

describe('createOpenAIToolset with the openai@7 types', () => {
  it('types: definitions and replies are openai@7 request params', () => {
    const toolset = createOpenAIToolset(createPlanningTools(new Session()));
    expectTypeOf(toolset.chatTools).toExtend<readonly ChatCompletionFunctionTool[]>();
    expectTypeOf(toolset.responsesTools).toExtend<readonly FunctionTool[]>();
    type ChatReply = Awaited<ReturnType<typeof toolset.runChatToolCalls>>[number]['message'];
    expectTypeOf<ChatReply>().toExtend<ChatCompletionToolMessageParam>();
    type ResponsesReply = Awaited<
      ReturnType<typeof toolset.runResponsesFunctionCalls>
    >[number]['message'];
    expectTypeOf<ResponsesReply>().toExtend<ResponseInputItem>();
  });
});
