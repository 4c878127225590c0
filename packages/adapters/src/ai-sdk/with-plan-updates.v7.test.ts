import {
  createUIMessageStream,
  isStepCount,
  readUIMessageStream,
  streamText,
  validateUIMessages,
} from 'ai-v7';
import { MockLanguageModelV4 } from 'ai-v7/test';
import { vi } from 'vitest';
import { describePlanUpdates } from './testing/plan-updates-cases.ts';
import { toAISDKContext } from './to-ai-sdk-context.ts';

// The adapter imports `ai`; here it gets ai@7, as in an app that installed only ai@7.
vi.mock('ai', () => import('ai-v7'));

describePlanUpdates({
  name: 'ai 7',
  createUIMessageStream,
  readUIMessageStream,
  streamText,
  stepCountIs: isStepCount,
  validateUIMessages,
  MockModel: MockLanguageModelV4,
  contextOptions: (tools, context) => toAISDKContext(tools, context),
});
