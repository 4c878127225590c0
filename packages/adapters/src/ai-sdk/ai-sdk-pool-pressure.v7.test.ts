import { generateText, stepCountIs } from 'ai-v7';
import { MockLanguageModelV4 } from 'ai-v7/test';
import { describe, it, vi } from 'vitest';
import { poolOfOneThreeChats } from './testing/pool-pressure-run.ts';
import { toAISDKToolsContext } from './to-ai-sdk-context.ts';

// The adapter imports `ai`; here it gets ai@7, as in an app that installed only ai@7.
vi.mock('ai', () => import('ai-v7'));

describe('toAISDKTools under pool pressure (ai 7; runs on Node 20)', () => {
  it('applies a step of setup, mark, add, mark to one copy per conversation with a pool of one', async () => {
    await poolOfOneThreeChats(
      { generateText, stepCountIs, MockModel: MockLanguageModelV4 },
      (tools, chatId) => ({ toolsContext: toAISDKToolsContext(tools as never, { chatId }) }),
    );
  });
});
