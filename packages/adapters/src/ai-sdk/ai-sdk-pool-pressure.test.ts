import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, it } from 'vitest';
import { poolOfOneThreeChats } from './testing/pool-pressure-run.ts';

describe('toAISDKTools under pool pressure (ai 6)', () => {
  it('applies a step of setup, mark, add, mark to one copy per conversation with a pool of one', async () => {
    await poolOfOneThreeChats(
      { generateText, stepCountIs, MockModel: MockLanguageModelV3 },
      (_tools, chatId) => ({ experimental_context: { chatId } }),
    );
  });
});
