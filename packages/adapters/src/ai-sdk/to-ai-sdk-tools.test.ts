import { generateText, stepCountIs, streamText } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { AISDKToolError } from './ai-sdk-tool-error.ts';
import { describeToAISDKTools } from './testing/to-ai-sdk-tools-cases.ts';

// The cases are written once in testing/to-ai-sdk-tools-cases.ts; to-ai-sdk-tools-v7.test.ts
// runs them against ai 7.
describeToAISDKTools({
  name: 'ai 6',
  generateText,
  streamText,
  stepCountIs,
  MockModel: MockLanguageModelV3,
  convertArrayToReadableStream,
  onToolStart: 'experimental_onToolCallStart',
  toolCallConcurrency: false,
  // ai 6 masks a tool error's text in the UI stream unless onError returns it.
  showToolErrors: {
    onError: (error: unknown) =>
      AISDKToolError.isInstance(error) ? error.message : 'An error occurred.',
  },
});
