import { generateText, stepCountIs } from 'ai-v7';
import { MockLanguageModelV4 } from 'ai-v7/test';
import { describe, it, vi } from 'vitest';
import { aiSdkHostRun } from './ai-sdk/testing/ai-sdk-host-run.ts';
import { type HostRun, PLAN_MODEL_CASES, workCase } from './testing/plan-model-cases.ts';

// The adapter imports `ai`; here it gets ai@7, as in an app that installed only ai@7.
vi.mock('ai', () => import('ai-v7'));

// Each opt-in plan-model option through ai@7's generateText (the other hosts are in
// plan-model-options.test.ts).
const aiSdk7: HostRun = aiSdkHostRun({ generateText, stepCountIs, MockModel: MockLanguageModelV4 });

describe('every plan-model option through AI SDK 7', () => {
  for (const c of PLAN_MODEL_CASES) {
    it(`${c.option} through AI SDK 7 (generateText)`, async () => {
      await workCase(aiSdk7, c);
    });
  }
});
