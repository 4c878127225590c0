import { generateText, stepCountIs, streamText } from 'ai-v7';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai-v7/test';
import { vi } from 'vitest';
import { describeToAISDKTools } from './testing/to-ai-sdk-tools-cases.ts';

// The adapter imports `ai`; here it gets ai@7, as in an app that installed only ai@7 (it runs
// on Node 20 here). The cases are written once in testing/to-ai-sdk-tools-cases.ts.
vi.mock('ai', () => import('ai-v7'));

describeToAISDKTools({
  name: 'ai 7',
  generateText,
  streamText,
  stepCountIs,
  MockModel: MockLanguageModelV4,
  convertArrayToReadableStream,
  onToolStart: 'onToolExecutionStart',
  toolCallConcurrency: true,
  // ai 7 shows a tool error's own text unless redactToolErrors is set.
  showToolErrors: undefined,
});
