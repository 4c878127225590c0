import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { Plan } from '@plankit/core';
import type { ModelMessage } from 'ai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { describe, expectTypeOf, it } from 'vitest';
import { compactAnthropicMessages } from './compact-anthropic-messages.ts';
import { compactChatMessages } from './compact-chat-messages.ts';
import type {
  CompactionPlanSource,
  CompactionResult,
  IgnoredAnchorReason,
} from './compact-with-plan.ts';

describe('compaction types', () => {
  it('gives back the host message type it was given', async () => {
    const openai: ChatCompletionMessageParam[] = [];
    const chat = await compactChatMessages({ messages: openai, summarise: () => '' });
    expectTypeOf(chat).toEqualTypeOf<CompactionResult<ChatCompletionMessageParam>>();
    expectTypeOf(chat.messages).toEqualTypeOf<ChatCompletionMessageParam[]>();
    const ai: ModelMessage[] = [];
    expectTypeOf(
      (await compactChatMessages({ messages: ai, summarise: () => '' })).messages,
    ).toEqualTypeOf<ModelMessage[]>();
    const anthropic: MessageParam[] = [];
    const compacted = await compactAnthropicMessages({
      messages: anthropic,
      summarise: async (old) => `${old.length}`,
    });
    expectTypeOf(compacted.messages).toEqualTypeOf<MessageParam[]>();
    expectTypeOf(compacted.plan).toEqualTypeOf<Plan | undefined>();
    expectTypeOf(chat.planSource).toEqualTypeOf<CompactionPlanSource | undefined>();
    expectTypeOf(chat.ignoredAnchors[0]?.reason).toEqualTypeOf<IgnoredAnchorReason | undefined>();
    // @ts-expect-error 'anchor' is gone: an anchor is either authenticated or not
    if (chat.planSource === 'anchor') expectTypeOf(chat).toBeNever();
    // @ts-expect-error the summariser gives text
    compactChatMessages({ messages: openai, summarise: () => 1 });
  });
});
