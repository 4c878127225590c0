import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import OpenAIv7 from 'openai-v7';
import { describe, expectTypeOf, it } from 'vitest';
import { type AnthropicClientLike, anthropicHost } from './anthropic-host.ts';
import { type OpenAIChatClientLike, openAIChatHost } from './openai-chat-host.ts';

describe('hosts accept the real SDK clients without casts', () => {
  it('openai v6 and v7', () => {
    expectTypeOf(new OpenAI({ apiKey: 'k' })).toExtend<OpenAIChatClientLike>();
    expectTypeOf(new OpenAIv7({ apiKey: 'k' })).toExtend<OpenAIChatClientLike>();
    openAIChatHost({ client: new OpenAI({ apiKey: 'k' }), model: 'm' });
    openAIChatHost({ client: new OpenAIv7({ apiKey: 'k' }), model: 'm' });
  });
  it('anthropic', () => {
    expectTypeOf(new Anthropic({ apiKey: 'k' })).toExtend<AnthropicClientLike>();
    anthropicHost({ client: new Anthropic({ apiKey: 'k' }), model: 'm' });
  });
});
