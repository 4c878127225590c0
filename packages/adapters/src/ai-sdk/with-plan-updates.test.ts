import {
  createUIMessageStream,
  readUIMessageStream,
  stepCountIs,
  streamText,
  validateUIMessages,
} from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describePlanUpdates } from './testing/plan-updates-cases.ts';

describePlanUpdates({
  name: 'ai 6',
  createUIMessageStream,
  readUIMessageStream,
  streamText,
  stepCountIs,
  validateUIMessages,
  MockModel: MockLanguageModelV3,
  contextOptions: (_tools, context) => ({ experimental_context: context }),
});
