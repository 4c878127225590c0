import { generateText, stepCountIs } from 'ai-v7';
import { MockLanguageModelV4 } from 'ai-v7/test';
import { describe, it, vi } from 'vitest';
import { aiSdkHostRun } from './ai-sdk/testing/ai-sdk-host-run.ts';
import { workUnicodePlan } from './testing/unicode-plan-case.ts';

// The adapter imports `ai`; here it gets ai@7, as in an app that installed only ai@7.
vi.mock('ai', () => import('ai-v7'));

// A Japanese plan through ai@7's generateText (the other hosts are in
// unicode-text.hosts.test.ts).
describe('a plan in any language through AI SDK 7 (text: unicode)', () => {
  it('through AI SDK 7 (generateText)', async () => {
    await workUnicodePlan(
      aiSdkHostRun({ generateText, stepCountIs, MockModel: MockLanguageModelV4 }),
    );
  });
});
