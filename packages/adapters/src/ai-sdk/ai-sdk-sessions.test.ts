import { generateText, stepCountIs, streamText } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { describeAISDKSessions } from './testing/ai-sdk-sessions-cases.ts';

// The cases are written once in testing/ai-sdk-sessions-cases.ts; ai-sdk-sessions-v7.test.ts
// runs them against ai 7, with the cases only ai 7 has.
describeAISDKSessions({
  name: 'ai 6, experimental_context',
  generateText,
  streamText,
  stepCountIs,
  MockModel: MockLanguageModelV3,
  convertArrayToReadableStream,
  system: 'system',
  contexts: (_tools, context) => ({ experimental_context: context }),
});
